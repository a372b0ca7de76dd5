// The two ways of following agent jobs that the polling benchmarks compare, driven by the same
// simulated clock and talking real HTTP to the same kind of simulator.
//
// - OurScheduler: the extension's own StatusPoller with its shipped DEFAULT_TIMINGS (the 60 s steady
//   interval is the setting's default), wired exactly as JobTracker wires it: startup catch-up read
//   1 s after activation, fast phase after a create or follow-up, stop at a terminal status.
//   JobTracker itself needs the vscode API, so this is its polling part without the tree.
// - NaiveLoop: the platform docs' example: per job, GET, then again every 5 s until the job is
//   finished. Charitably it stops at archived too (as src/jobs/jobStore.ts isTerminal does), waits 5 s after a
//   follow-up (the POST's answer is a fresh read), and never polls a job it knows is finished.
import type { AgentJob, ApiClient } from '../src/api';
import { StatusPoller } from '../src/poll/statusPoller';
import { DEFAULT_TIMINGS } from '../src/poll/pollTimings';
import type { SimulatedClock } from './simClock';

export const PROJECT = 'bench-project';
export const API_KEY = 'mint_bench_key';

/** The statuses JobTracker stops polling at (jobStore.ts `isTerminal`, which imports vscode). */
export const TERMINAL: ReadonlySet<string> = new Set(['completed', 'archived', 'failed']);

/** Called with every successful read, at the simulated time it was answered. */
export type Observer = (jobId: string, job: AgentJob, at: number) => void;

export interface PollingClient {
  /** VS Code starts with these unfinished jobs in its store. */
  start(unfinished: readonly string[]): void;
  /** A create or follow-up was just answered with the job active. */
  afterPrompt(jobId: string): void;
  setFocused(focused: boolean): void;
  dispose(): void;
}

/** JobTracker's STARTUP_DELAY_MS: the catch-up read comes after activation, not during it. */
const STARTUP_DELAY_MS = 1_000;

export class OurScheduler implements PollingClient {
  private readonly poller: StatusPoller;

  constructor(
    api: ApiClient,
    private readonly clock: SimulatedClock,
    observe: Observer,
  ) {
    this.poller = new StatusPoller(
      {
        fetch: (jobId, signal) => clock.track(api.getJob(PROJECT, jobId, { signal })),
        onResult: (jobId, result) => {
          if ('error' in result) return result.error.kind === 'notFound' ? 'stop' : 'continue';
          const job = result.value as AgentJob;
          observe(jobId, job, clock.now());
          return TERMINAL.has(job.status) ? 'stop' : 'continue';
        },
        random: () => 0.5,
      },
      DEFAULT_TIMINGS,
      clock,
    );
  }

  start(unfinished: readonly string[]): void {
    this.clock.setTimeout(() => {
      for (const id of unfinished) this.poller.watch(id, { pollNow: true });
    }, STARTUP_DELAY_MS);
  }

  afterPrompt(jobId: string): void {
    this.poller.watch(jobId, { fast: true });
  }

  setFocused(focused: boolean): void {
    this.poller.setFocused(focused);
  }

  dispose(): void {
    this.poller.dispose();
  }
}

export const NAIVE_INTERVAL_MS = 5_000;

export class NaiveLoop implements PollingClient {
  private readonly looping = new Set<string>();
  private disposed = false;

  constructor(
    private readonly api: ApiClient,
    private readonly clock: SimulatedClock,
    private readonly observe: Observer,
  ) {}

  start(unfinished: readonly string[]): void {
    for (const id of unfinished) this.loop(id, 0);
  }

  afterPrompt(jobId: string): void {
    this.loop(jobId, NAIVE_INTERVAL_MS);
  }

  setFocused(): void {
    // The docs' loop knows nothing about the editor's window.
  }

  dispose(): void {
    this.disposed = true;
  }

  private loop(jobId: string, firstDelayMs: number): void {
    if (this.looping.has(jobId)) return;
    this.looping.add(jobId);
    const tick = async () => {
      if (this.disposed) return;
      let finished = false;
      try {
        const job = await this.clock.track(this.api.getJob(PROJECT, jobId));
        this.observe(jobId, job, this.clock.now());
        finished = TERMINAL.has(job.status);
      } catch {
        // The docs' loop simply tries again at the next tick.
      }
      if (finished) this.looping.delete(jobId);
      else this.clock.setTimeout(() => void tick(), NAIVE_INTERVAL_MS);
    };
    this.clock.setTimeout(() => void tick(), firstDelayMs);
  }
}
