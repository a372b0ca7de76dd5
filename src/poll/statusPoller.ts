// The status poller: one scheduler for every status the extension keeps fresh (the tracked agent
// jobs, jobs/jobTracker.ts; the preview deployments' builds, preview/previewModel.ts, with their own
// timings: pollTimings.ts): a single setTimeout chain that wakes for the earliest due one. It never
// has two requests for the same one in flight and caps requests in flight overall. A job is polled
// fast for a minute after it starts or gets a follow-up, then at the configured interval; several-fold slower while the window is unfocused, with a catch-up on refocus;
// failures back off exponentially with jitter, honouring Retry-After. A 401 (or no key) stops all
// polling until resume(). With several windows open only one polls (the others stand by, following
// the shared last-read times so a takeover reads nothing twice in a row). A watchdog retires a poll
// that outlives its deadline, so no request that never settles can stop a job's polling. No vscode
// import: unit tests drive it with a fake clock.
import { ApiError } from '../api';
import type { Logger } from '../log';
import { type Clock, HOUR_MS, systemClock } from '../util/clock';
import { DEFAULT_TIMINGS, type PollTimings, WATCHDOG_MARGIN_MS } from './pollTimings';

/** What the owner wants after a poll: keep polling this job, or stop (terminal, gone). */
export type PollVerdict = 'continue' | 'stop';

interface PollerHooks {
  fetch(jobId: string, signal: AbortSignal): Promise<unknown>;
  onResult(jobId: string, result: { value: unknown } | { error: ApiError }): PollVerdict;
  /** Called when polling stops or resumes for everyone (401, no key). */
  onPausedChange?(paused: boolean): void;
  random?: () => number;
  /**
   * One request's deadline (the request timeout setting, 30 s when absent), read as each poll
   * starts. A poll unanswered WATCHDOG_MARGIN_MS later is retired: a timeout, then the backoff.
   */
  deadlineMs?: () => number;
  /** A line for each poll that ends by its deadline and for each one the watchdog retires. */
  log?: Pick<Logger, 'info' | 'warn'>;
}

interface Entry {
  /** When the last poll finished (or the job was watched): the interval counts from here. */
  lastAt: number;
  fastUntil: number;
  failures: number;
  /** Earliest next poll after a failure (backoff or Retry-After); overrides the interval. */
  notBefore: number;
  /** The part of notBefore that the server asked for (Retry-After): even Refresh waits for it. */
  serverWaitUntil: number;
  /** Set by pollNow(): due at once regardless of interval. */
  urgent: boolean;
  inFlight?: AbortController;
  /** When the poll in flight started, and when the watchdog retires it if it is still unanswered. */
  startedAt: number;
  retireAt: number;
}

export class StatusPoller {
  private readonly entries = new Map<string, Entry>();
  private timer: unknown;
  private timerDueAt = Number.POSITIVE_INFINITY;
  private focused = true;
  private paused = false;
  private standby = false;
  private disposed = false;

  constructor(
    private readonly hooks: PollerHooks,
    private currentTimings: PollTimings = DEFAULT_TIMINGS,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Starts (or keeps) polling a job. `fast` opens a fast phase, as after a create or follow-up. */
  watch(jobId: string, options: { fast?: boolean; pollNow?: boolean; lastAt?: number } = {}): void {
    const now = this.clock.now();
    const entry = this.entries.get(jobId) ?? {
      lastAt: Math.min(now, options.lastAt ?? now),
      fastUntil: 0,
      failures: 0,
      notBefore: 0,
      serverWaitUntil: 0,
      urgent: false,
      startedAt: 0,
      retireAt: 0,
    };
    if (options.fast) {
      // A read started before the follow-up may answer with the state the follow-up just ended
      // ("completed"): drop it, or it would stop polling a job that is active again.
      entry.inFlight?.abort();
      entry.fastUntil = now + this.currentTimings.fastPhaseMs;
      entry.lastAt = now;
      entry.failures = 0;
      entry.notBefore = entry.serverWaitUntil;
    }
    if (options.pollNow) {
      entry.urgent = true;
      entry.notBefore = entry.serverWaitUntil;
    }
    this.entries.set(jobId, entry);
    this.schedule();
  }

  unwatch(jobId: string): void {
    this.entries.get(jobId)?.inFlight?.abort();
    this.entries.delete(jobId);
    this.schedule();
  }

  /**
   * Drops the answers in flight and asks again at once: they were asked with a key that is no
   * longer the one stored, so whatever they bring back is moot.
   */
  restartInFlight(): void {
    for (const entry of this.entries.values()) {
      if (!entry.inFlight) continue;
      entry.inFlight.abort();
      entry.urgent = true;
    }
    this.schedule();
  }

  /**
   * Another window read the job at `at` (and may have opened a fast phase until `fastUntil`): the
   * next read here counts from there, so a window taking over never reads a job twice in a row.
   */
  noteShared(jobId: string, at: number | undefined, fastUntil: number | undefined): void {
    const entry = this.entries.get(jobId);
    if (!entry || entry.inFlight) return;
    let changed = false;
    if (at !== undefined && at > entry.lastAt) {
      entry.lastAt = Math.min(at, this.clock.now());
      changed = true;
    }
    if (fastUntil !== undefined && fastUntil > entry.fastUntil) {
      entry.fastUntil = fastUntil;
      entry.failures = 0;
      entry.notBefore = entry.serverWaitUntil;
      changed = true;
    }
    if (changed) this.schedule();
  }

  /** Another window polls for this project: keep the schedule, send nothing, until this one leads. */
  setStandby(standby: boolean): void {
    if (this.standby === standby) return;
    this.standby = standby;
    if (standby) for (const entry of this.entries.values()) entry.inFlight?.abort();
    this.schedule();
  }

  get isStandby(): boolean {
    return this.standby;
  }

  /** The fast phase of a job ends at this time (0 when none was opened). */
  fastUntil(jobId: string): number {
    return this.entries.get(jobId)?.fastUntil ?? 0;
  }

  /** Polls a watched job as soon as a slot is free (Refresh), skipping any backoff but Retry-After. */
  pollNow(jobId: string): void {
    const entry = this.entries.get(jobId);
    if (!entry) return;
    entry.urgent = true;
    entry.notBefore = entry.serverWaitUntil;
    this.schedule();
  }

  /** The jobs watched now. */
  watched(): string[] {
    return [...this.entries.keys()];
  }

  isWatching(jobId: string): boolean {
    return this.entries.has(jobId);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** When the next poll is due, for tests and the tooltip; undefined when nothing is scheduled. */
  nextDueAt(jobId: string): number | undefined {
    const entry = this.entries.get(jobId);
    return entry && !this.paused ? this.dueAt(entry) : undefined;
  }

  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    // Unfocused stretches every interval; on refocus the shorter intervals make overdue jobs due now.
    this.schedule();
  }

  get timings(): PollTimings {
    return this.currentTimings;
  }

  setTimings(timings: PollTimings): void {
    this.currentTimings = timings;
    this.schedule();
  }

  /** Stops every poll (and aborts the ones in flight) until resume(): a 401 or a removed key. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    for (const entry of this.entries.values()) entry.inFlight?.abort();
    this.schedule();
    this.hooks.onPausedChange?.(true);
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    for (const entry of this.entries.values()) {
      entry.failures = 0;
      entry.notBefore = entry.serverWaitUntil;
      entry.urgent = true;
    }
    this.schedule();
    this.hooks.onPausedChange?.(false);
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    for (const entry of this.entries.values()) entry.inFlight?.abort();
    this.entries.clear();
  }

  /**
   * The phase is that of the last poll, so a due time does not jump when the fast phase ends. The
   * steady reads an hour (shared by the watched jobs) cap the steady rate; that is not multiplied
   * again while unfocused.
   */
  private intervalOf(entry: Entry): number {
    const { fastIntervalMs, intervalMs, unfocusedFactor } = this.currentTimings;
    const fast = entry.lastAt < entry.fastUntil;
    const base = (fast ? fastIntervalMs : intervalMs) * (this.focused ? 1 : unfocusedFactor);
    return fast ? base : Math.max(base, this.sharedIntervalMs());
  }

  /** The steady interval at which all watched jobs together make at most `steadyReadsPerHour` reads an hour. */
  private sharedIntervalMs(): number {
    return Math.ceil((this.entries.size * HOUR_MS) / this.currentTimings.steadyReadsPerHour);
  }

  private dueAt(entry: Entry): number {
    if (entry.urgent) return entry.notBefore;
    // After a failure the backoff alone decides; otherwise the interval since the last poll.
    return entry.failures > 0 ? entry.notBefore : Math.max(entry.lastAt + this.intervalOf(entry), entry.notBefore);
  }

  private get inFlightCount(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.inFlight) count++;
    return count;
  }

  /**
   * Retires the polls past their deadline, starts what is due (up to the cap) and arms one timer
   * for the earliest job still waiting or poll still to retire.
   */
  private schedule(): void {
    if (this.disposed) return;
    if (this.paused || this.standby) return this.clearTimer();
    const now = this.clock.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [jobId, entry] of this.entries) {
      if (entry.inFlight && entry.retireAt <= now) this.retire(jobId, entry, entry.inFlight, now);
      if (!this.entries.has(jobId)) continue;
      const due = entry.inFlight ? Number.POSITIVE_INFINITY : this.dueAt(entry);
      if (due <= now && this.inFlightCount < this.currentTimings.maxInFlight) this.poll(jobId, entry);
      else if (due > now) next = Math.min(next, due);
      // Due but over the cap: a finishing (or retired) request calls schedule() again.
      if (entry.inFlight) next = Math.min(next, entry.retireAt);
    }
    if (next === this.timerDueAt && this.timer !== undefined) return;
    this.clearTimer();
    if (next === Number.POSITIVE_INFINITY) return;
    this.timerDueAt = next;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerDueAt = Number.POSITIVE_INFINITY;
      this.schedule();
    }, next - now);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDueAt = Number.POSITIVE_INFINITY;
  }

  private poll(jobId: string, entry: Entry): void {
    const controller = new AbortController();
    entry.inFlight = controller;
    entry.urgent = false;
    entry.startedAt = this.clock.now();
    entry.retireAt = entry.startedAt + (this.hooks.deadlineMs?.() ?? 30_000) + WATCHDOG_MARGIN_MS;
    this.hooks.fetch(jobId, controller.signal).then(
      (value) => this.settle(jobId, entry, controller, { value }),
      (error: unknown) =>
        this.settle(jobId, entry, controller, {
          error: error instanceof ApiError ? error : new ApiError('network', String(error), { cause: error }),
        }),
    );
  }

  private settle(jobId: string, entry: Entry, controller: AbortController, result: { value: unknown } | { error: ApiError }): void {
    // Retired by the watchdog: the job has moved on, and this answer is too late to count.
    if (entry.inFlight !== controller) return;
    entry.inFlight = undefined;
    // Aborted by pause(), unwatch() or dispose(): nobody is waiting for this answer.
    if (this.disposed || controller.signal.aborted || this.entries.get(jobId) !== entry) return this.schedule();
    if ('error' in result && (result.error.kind === 'unauthorized' || result.error.kind === 'noApiKey')) {
      entry.lastAt = this.clock.now();
      this.hooks.onResult(jobId, result);
      return this.pause();
    }
    this.conclude(jobId, entry, result);
    if ('error' in result && result.error.kind === 'timeout' && this.entries.has(jobId)) {
      this.hooks.log?.info(
        `job ${jobId}: the poll ended by its deadline (${seconds(this.clock.now() - entry.startedAt)} after it started); next poll in ${seconds(entry.notBefore - this.clock.now())}`,
      );
    }
    this.schedule();
  }

  /**
   * The watchdog: a poll still unanswered past its deadline and the margin is over, whatever the
   * HTTP layer does with it. It counts as a timeout (backoff included), and its answer, should it
   * ever come, is dropped. One that was already aborted (pause, standby, a follow-up) just goes.
   */
  private retire(jobId: string, entry: Entry, controller: AbortController, now: number): void {
    entry.inFlight = undefined;
    const cancelled = controller.signal.aborted;
    controller.abort();
    const age = `unanswered ${seconds(now - entry.startedAt)} after it started (deadline ${seconds(entry.retireAt - entry.startedAt - WATCHDOG_MARGIN_MS)}, margin ${seconds(WATCHDOG_MARGIN_MS)})`;
    if (cancelled) return this.hooks.log?.warn(`job ${jobId}: the watchdog retired a cancelled poll, ${age}`);
    this.conclude(jobId, entry, { error: new ApiError('timeout', 'The Mintlify API did not answer in time.', { reached: 'maybe' }) });
    this.hooks.log?.warn(`job ${jobId}: the watchdog retired a poll ${age}; counted as failed, next poll in ${seconds(entry.notBefore - now)}`);
  }

  /**
   * Records a poll's outcome (its backoff first: the owner's handler may schedule again, and must
   * find the next poll where the backoff or the interval puts it, not due at once), then asks the owner.
   */
  private conclude(jobId: string, entry: Entry, result: { value: unknown } | { error: ApiError }): void {
    const now = this.clock.now();
    entry.lastAt = now;
    if ('error' in result) {
      entry.failures++;
      entry.notBefore = now + this.backoff(entry.failures, result.error.retryAfterMs);
      entry.serverWaitUntil = now + (result.error.retryAfterMs ?? 0);
    } else {
      entry.failures = 0;
      entry.notBefore = 0;
      entry.serverWaitUntil = 0;
    }
    let verdict: PollVerdict;
    try {
      verdict = this.hooks.onResult(jobId, result);
    } catch {
      verdict = 'continue';
    }
    if (verdict === 'stop' && this.entries.get(jobId) === entry) {
      entry.inFlight?.abort();
      this.entries.delete(jobId);
    }
  }

  /** Exponential with "equal jitter" (half fixed, half random), never sooner than Retry-After. */
  private backoff(failures: number, retryAfterMs: number | undefined): number {
    const exponential = Math.min(this.currentTimings.backoffMaxMs, this.currentTimings.backoffBaseMs * 2 ** (failures - 1));
    const jittered = exponential / 2 + (this.hooks.random ?? Math.random)() * (exponential / 2);
    return Math.max(jittered, retryAfterMs ?? 0);
  }
}

const seconds = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
