// The agent-jobs service: tracks, creates and follows up jobs through the API, keeps the store
// fresh through the poller, and tells the user when a job finishes. Commands and the tree sit on
// top of it; it shows no dialogs except the finish notification and the warning that other windows
// may not see a job yet. Once the API has said yes, nothing local turns the send into a failure:
// this window tracks the job at once, and the shared store's write can only be late (lateWrites.ts).
import * as vscode from 'vscode';
import { type AgentJob, ApiError, type ApiClient } from '../api';
import type { ApiKeyStore } from '../auth/apiKey';
import type { Settings } from '../config';
import type { Logger } from '../log';
import type { WindowSync } from '../sync/windowSync';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { Disposable, timeout } from '../util/lifecycle';
import { LateWrites } from './lateWrites';
import { NOTIFICATION_ACTIONS, type NotificationAction, notificationLabels } from './finishNotice';
import { noPullRequestNotice } from './jobOutcome';
import { JobPoller } from './jobPoller';
import { DEFAULT_TIMINGS } from './pollTimings';
import { type Clock, systemClock } from '../util/clock';
import { isTerminal, isTerminalStatus, jobLabel, type JobStore, type TrackedJob } from './jobStore';
import { errorText } from '../util/errorText';

export interface JobTrackerDeps {
  api: ApiClient;
  store: JobStore;
  keys: ApiKeyStore;
  settings: Settings;
  ui: Ui;
  log: Logger;
  /** The other windows: the jobs' area (what they read last, the fast phases), who polls, and the write tried again. */
  sync: Pick<WindowSync, 'jobs' | 'lease' | 'ready' | 'writeAgain' | 'writes'>;
  clock?: Clock;
  /** Whether the finish notification offers Review Changes (the workspace is a clone of the job's repository). */
  canReview?: (tracked: TrackedJob) => boolean;
}

/** Polls after activation rather than during it: activation makes no request. */
const STARTUP_DELAY_MS = 1_000;

export class JobTracker extends Disposable {
  readonly poller: JobPoller;
  /** The shared store's writes after the API said yes: late at worst, never a failed send. */
  private readonly lateWrites: LateWrites;
  private readonly pausedEmitter = this.register(new vscode.EventEmitter<boolean>());
  /** Fires when polling stops for everyone (the key was refused) or starts again. */
  readonly onDidChangePaused = this.pausedEmitter.event;
  private intervalSetting: number;
  /** False until the startup delay has passed and the shared store has been read. */
  private started = false;
  private baseUrlSetting: string;
  /** The platform said reading jobs is gone (ApiError 'withdrawn'): nothing is polled again at this API address. */
  private readsWithdrawn = false;

  /** The prompt of a "Start New Job" that failed, offered again in the next one (in any window). */
  get unsentCreatePrompt(): string | undefined {
    return this.deps.store.draft('create');
  }

  constructor(private readonly deps: JobTrackerDeps) {
    super();
    this.intervalSetting = deps.settings.pollIntervalMs;
    this.baseUrlSetting = deps.settings.apiBaseUrl;
    this.poller = new JobPoller(
      {
        fetch: (jobId, signal) => this.fetchJob(jobId, signal),
        onResult: (jobId, result) => this.onPollResult(jobId, result),
        onPausedChange: (paused) => this.pausedEmitter.fire(paused),
        deadlineMs: () => deps.settings.requestTimeoutMs,
        log: deps.log.scoped('poller'),
      },
      { ...DEFAULT_TIMINGS, intervalMs: this.intervalSetting },
      deps.clock ?? systemClock,
    );
    this.register({ dispose: () => this.poller.dispose() });
    this.lateWrites = new LateWrites(deps.sync, deps.ui, deps.log);
    this.register(deps.settings.onDidChange(() => this.onSettingsChanged()));
    this.register(deps.keys.onDidChange(() => background(this.onKeyChanged(), this.log, 'following the new API key')));
    this.poller.setFocused(vscode.window.state.focused);
    deps.store.load(deps.settings.projectId);
    // Jobs tracked, stopped or read in another window, a new lead, focus anywhere: follow them.
    this.register(deps.sync.jobs.onDidChange(() => this.followWindows()));
    this.register(deps.sync.lease.onDidChange(() => this.followWindows()));
    this.register(deps.store.onDidChange(() => this.followWindows()));
    this.followWindows();
    this.register(timeout(STARTUP_DELAY_MS, () => this.watchUnfinished()));
  }

  private get log(): Logger {
    return this.deps.log;
  }

  /** The current project, or an invalidInput error that says how to set it. */
  requireProject(): string {
    const projectId = this.deps.settings.projectId;
    if (!projectId) throw new ApiError('noProjectId', 'No Mintlify project ID is set for this workspace. Run "Mintlify: Set Project ID".');
    return projectId;
  }

  /** Reads a job once and starts tracking it. A 404 tracks nothing. */
  async track(jobId: string, signal?: AbortSignal): Promise<TrackedJob> {
    const projectId = this.requireProject();
    const job = await this.deps.api.getJob(projectId, jobId, { signal });
    this.resumeIfPaused();
    // Filed under the project the read was sent to, even if the setting changed meanwhile.
    const { tracked, written } = this.deps.store.upsertIn(projectId, job.id, (t) => ({ ...t, job, checkedAt: new Date().toISOString(), notFound: false }));
    this.lateWrites.share(written, `tracking job ${job.id}`);
    if (!this.isCurrent(projectId)) return tracked;
    this.deps.store.setError(job.id, undefined);
    if (!isTerminal(tracked)) this.poller.watch(job.id);
    return tracked;
  }

  /**
   * Creates a job. When the API refuses (or its answer is lost) the prompt is kept for the next
   * "Start New Job" box; once it has said yes the prompt is never kept. `projectId`: the project
   * the writer confirmed (a language model tool's dialog), else the current one.
   */
  async create(prompt: string, signal?: AbortSignal, projectId = this.requireProject()): Promise<TrackedJob> {
    let job: AgentJob;
    try {
      job = await this.deps.api.createJob(projectId, prompt, { signal });
    } catch (error) {
      background(this.deps.store.setDraft('create', prompt), this.log, 'keeping the unsent prompt for the other windows');
      throw error;
    }
    return this.afterPrompt(projectId, job, prompt, this.deps.store.setDraft('create', undefined));
  }

  /**
   * Sends a follow-up. On failure the prompt is kept as the job's unsent prompt (the next prompt
   * box opens with it); on success the returned job replaces ours and the fast phase starts.
   * `projectId`: the project the writer confirmed, else the current one.
   */
  async sendFollowUp(jobId: string, prompt: string, signal?: AbortSignal, projectId = this.requireProject()): Promise<TrackedJob> {
    let job: AgentJob;
    try {
      job = await this.deps.api.sendMessage(projectId, jobId, prompt, { signal });
    } catch (error) {
      const kept =
        this.isCurrent(projectId) && this.deps.store.get(jobId)
          ? this.deps.store.upsert(jobId, (t) => ({ ...t, unsentPrompt: prompt })).written
          : this.deps.store.setDraft(`job:${jobId}`, prompt);
      background(kept, this.log, 'keeping the unsent prompt for the other windows');
      throw error;
    }
    return this.afterPrompt(projectId, job, prompt);
  }

  /**
   * After a follow-up whose answer was lost: did the job take it? A job that was finished before
   * and is `active` now did; then the prompt is recorded as sent, as after a success. Anything else
   * cannot tell (an active job was active anyway), and no request is spent when the status before
   * is unknown or not finished.
   */
  async confirmFollowUp(
    jobId: string,
    prompt: string,
    statusBefore: string | undefined,
    signal?: AbortSignal,
    projectId?: string,
  ): Promise<TrackedJob | undefined> {
    if (statusBefore === undefined || !isTerminalStatus(statusBefore)) return undefined;
    projectId ??= this.requireProject();
    let job: AgentJob;
    try {
      job = await this.deps.api.getJob(projectId, jobId, { signal });
    } catch (error) {
      this.log.warn(`could not check whether job ${jobId} took the follow-up: ${errorText(error)}`);
      return undefined;
    }
    if (job.status !== 'active') return undefined;
    return this.afterPrompt(projectId, job, prompt);
  }

  /** The prompt that last failed to send to this job, to open the next prompt box with. */
  unsentPrompt(jobId: string): string | undefined {
    return this.deps.store.get(jobId)?.unsentPrompt ?? this.deps.store.draft(`job:${jobId}`);
  }

  /**
   * Polls one job now (Refresh). A terminal job is read once; an active one keeps its schedule.
   * After a refused key the user asking again is the cue to try again.
   */
  async refresh(jobId: string): Promise<void> {
    const tracked = this.deps.store.get(jobId);
    if (!tracked) return;
    this.resumeIfPaused();
    // Another window polls this project: the user's Refresh reads here, at once.
    if (this.poller.isStandby) return this.readNow(jobId);
    if (this.poller.isWatching(jobId)) return this.poller.pollNow(jobId);
    // Not polled (terminal or not found): one read, then the poller takes over if it is active again.
    this.poller.watch(jobId, { pollNow: true });
  }

  refreshAll(): void {
    for (const tracked of this.deps.store.all()) background(this.refresh(tracked.id), this.log, `refreshing job ${tracked.id}`);
  }

  async stopTracking(jobId: string): Promise<void> {
    this.poller.unwatch(jobId);
    await this.deps.store.remove(jobId);
  }

  /**
   * After the API took a prompt: tracked here before this returns, whatever the shared store does
   * with its writes (`alsoWritten`: the caller's own, such as clearing the create box's draft).
   */
  private afterPrompt(projectId: string, job: AgentJob, prompt: string, alsoWritten: Promise<void> = Promise.resolve()): TrackedJob {
    const writes = [alsoWritten, this.deps.store.setDraft(`job:${job.id}`, undefined)];
    this.resumeIfPaused();
    const current = this.isCurrent(projectId);
    // Before any await: a read still in flight would answer with the state this prompt just ended.
    // The POST's answer is itself a fresh read, so the next poll comes one fast interval later.
    if (current && !isTerminalStatus(job.status)) this.poller.watch(job.id, { fast: true });
    const now = new Date().toISOString();
    // Filed under the project the request was sent to, never the one current when the answer came.
    const { tracked, written } = this.deps.store.upsertIn(projectId, job.id, (t) => ({
      ...t,
      job,
      checkedAt: now,
      notFound: false,
      unsentPrompt: undefined,
      prompts: [...t.prompts, { text: prompt, sentAt: now }],
    }));
    writes.push(written);
    if (current) {
      this.deps.store.setError(job.id, undefined);
      // The window that polls may be another one: it opens the fast phase too.
      if (!isTerminalStatus(job.status)) writes.push(this.deps.store.markFast(job.id, this.poller.fastUntil(job.id)));
    }
    this.lateWrites.share(
      Promise.all(writes).then(() => undefined),
      `recording the prompt sent to job ${job.id}`,
    );
    return tracked;
  }

  /** Whether answers for `projectId` belong in the list shown now. */
  private isCurrent(projectId: string): boolean {
    return this.deps.store.projectId === projectId;
  }

  /**
   * A background read. The platform counts only sends in the agent's hour, so reads are bounded by
   * the poller's own rules (its intervals and steady reads an hour, one poller across windows) and
   * by a 429's shared wait, never by the hour of sends.
   */
  private fetchJob(jobId: string, signal: AbortSignal): Promise<AgentJob> {
    const projectId = this.deps.store.projectId;
    if (!projectId) return Promise.reject(new ApiError('noProjectId', 'No project ID is set.'));
    return this.deps.api.getJob(projectId, jobId, { signal });
  }

  /** Refresh in a window that does not poll: one read, handled as a poll result. */
  private async readNow(jobId: string): Promise<void> {
    const projectId = this.deps.store.projectId;
    if (!projectId) return;
    let result: { value: unknown } | { error: ApiError };
    try {
      result = { value: await this.deps.api.getJob(projectId, jobId) };
    } catch (error) {
      result = { error: error instanceof ApiError ? error : new ApiError('network', String(error), { cause: error }) };
    }
    this.onPollResult(jobId, result);
  }

  /**
   * Keeps this window's poller in step with the shared store: it watches every unfinished job,
   * counts from the last read made by any window, opens the fast phases opened anywhere, and
   * sends nothing unless this window leads the project.
   */
  private followWindows(): void {
    const projectId = this.deps.store.projectId;
    const { poller, store, sync } = { poller: this.poller, store: this.deps.store, sync: this.deps.sync };
    if (!projectId || !this.started) return poller.setStandby(true);
    const leader = sync.lease.isLeader(projectId);
    // Stopped in another window: not read again here.
    for (const id of poller.watched()) if (!store.get(id)) poller.unwatch(id);
    for (const tracked of store.all()) {
      const checkedAt = tracked.checkedAt ? Date.parse(tracked.checkedAt) : undefined;
      if (!isTerminal(tracked) && !poller.isWatching(tracked.id) && !this.readsWithdrawn) poller.watch(tracked.id, { lastAt: checkedAt ?? 0 });
      else if (isTerminal(tracked) && !leader && poller.isWatching(tracked.id)) poller.unwatch(tracked.id);
      poller.noteShared(tracked.id, checkedAt, store.fastUntil(tracked.id));
    }
    poller.setFocused(sync.lease.projectFocused(projectId));
    poller.setStandby(!leader);
  }

  private onPollResult(jobId: string, result: { value: unknown } | { error: ApiError }): 'continue' | 'stop' {
    const { store } = this.deps;
    const before = store.get(jobId);
    if (!before) return 'stop';
    if ('error' in result) {
      const { error } = result;
      store.setError(jobId, error);
      if (error.kind === 'notFound') {
        this.log.warn(`job ${jobId} is gone (404): polling stopped`);
        background(store.upsert(jobId, (t) => ({ ...t, notFound: true })).written, this.log, `recording that job ${jobId} is gone`);
        return 'stop';
      }
      // Reading jobs itself is gone, not this job: kept as it was, and not read again this session.
      if (error.kind === 'withdrawn') {
        this.log.warn(`reading job ${jobId}: the platform no longer offers it; polling stopped`);
        this.readsWithdrawn = true;
        return 'stop';
      }
      this.log.warn(`polling job ${jobId} failed: ${error.kind}: ${error.message}`);
      return 'continue';
    }
    const job = result.value as AgentJob;
    store.setError(jobId, undefined);
    const wasTerminal = isTerminal(before);
    const after: TrackedJob = { ...before, job, checkedAt: new Date().toISOString(), notFound: false };
    background(store.upsert(jobId, () => after).written, this.log, `recording the read of job ${jobId}`);
    const nowTerminal = isTerminal(after);
    if (before.job && before.job.status !== job.status) this.log.info(`job ${jobId}: ${before.job.status} → ${job.status}`);
    if (nowTerminal && !wasTerminal && before.job) this.notifyFinished(after);
    return nowTerminal ? 'stop' : 'continue';
  }

  private notifyFinished(tracked: TrackedJob): void {
    const job = tracked.job;
    const level = this.deps.settings.notify;
    if (!job || level === 'off' || (level === 'failures' && job.status !== 'failed')) return;
    const label = jobLabel(tracked);
    let message: string;
    const actions: NotificationAction[] = [];
    if (job.status === 'completed' && job.prLink) {
      message = vscode.l10n.t('Agent job “{0}” completed: its pull request is ready.', label);
      if (this.deps.canReview?.(tracked)) actions.push('reviewChanges');
      actions.push('openPullRequest', 'sendFollowUp');
    } else if (job.status === 'completed') {
      // No pull request is all the platform says: nothing changed, or it was published directly (jobOutcome.ts).
      message = noPullRequestNotice(label, job.ref);
      if (this.deps.canReview?.(tracked)) actions.push('reviewChanges');
      actions.push('sendFollowUp');
    } else if (job.status === 'failed') {
      message = vscode.l10n.t('Agent job “{0}” failed.', label);
      actions.push('sendFollowUp');
    } else {
      message = vscode.l10n.t('Agent job “{0}” was archived.', label);
    }
    const labels = notificationLabels();
    const answered = this.deps.ui.showMessage(job.status === 'failed' ? 'error' : 'info', message, ...actions.map((a) => labels[a])).then(async (choice) => {
      const action = actions.find((a) => labels[a] === choice);
      if (action) await vscode.commands.executeCommand(NOTIFICATION_ACTIONS[action], tracked.id);
    });
    background(answered, this.log, `the finish notification of job ${tracked.id}`);
  }

  /**
   * Starts following the shared store once it has been read: unfinished jobs last read long ago
   * (by any window) are due at once, the others keep their schedule.
   */
  private watchUnfinished(): void {
    const following = this.deps.sync.ready.then(() => {
      this.started = true;
      this.followWindows();
    });
    background(following, this.log, 'following the shared store');
  }

  private onSettingsChanged(): void {
    const baseUrl = this.deps.settings.apiBaseUrl;
    if (baseUrl !== this.baseUrlSetting) {
      // A fixed base URL should not wait out the backoff its failures earned; another address may offer what this one withdrew.
      this.baseUrlSetting = baseUrl;
      this.readsWithdrawn = false;
      this.followWindows();
      for (const tracked of this.deps.store.all()) this.poller.pollNow(tracked.id);
    }
    const intervalMs = this.deps.settings.pollIntervalMs;
    if (intervalMs !== this.intervalSetting) {
      this.intervalSetting = intervalMs;
      this.poller.setTimings({ ...this.poller.timings, intervalMs });
    }
    if (this.deps.settings.projectId === this.deps.store.projectId) return;
    this.log.info(`project changed: ${this.deps.store.projectId ?? '(none)'} → ${this.deps.settings.projectId ?? '(none)'}`);
    for (const tracked of this.deps.store.all()) this.poller.unwatch(tracked.id);
    this.deps.store.load(this.deps.settings.projectId);
    this.watchUnfinished();
  }

  /** Any answer the key got through is proof it works again: polling resumes. */
  private resumeIfPaused(): void {
    if (this.poller.isPaused) this.poller.resume();
  }

  private async onKeyChanged(): Promise<void> {
    if (await this.deps.keys.get()) {
      this.log.info('API key changed: polling resumes');
      // Reads in flight carry the old key: their answers say nothing about the new one.
      this.poller.restartInFlight();
      this.poller.resume();
    } else {
      this.poller.pause();
    }
  }
}
