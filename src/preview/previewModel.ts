// The previews of the current project's agent jobs: what every window shares (the `previews` and
// `previewPlans` areas, src/sync/previewState.ts), the one deployment a click sends, and the reading
// of its status until it ends. The status is read by the status poller (src/poll/statusPoller.ts:
// a deadline per request, backoff with jitter, Retry-After, slower while no window of the project
// has the focus) and only by the window that leads the project (the poller lease), within a bound
// past which the row says the status did not end. Nothing is sent at start: a preview still
// building when a window opens is read again by the scheduler, a finished one never. A build's log
// is kept apart from the shared state (buildLogs.ts), written before the record that says what the
// build came to, and read when the writer asks for it: in any window, or from the platform again
// when this machine has none (a record of an earlier version, or a window that closed between the two).
import * as vscode from 'vscode';
import { type ApiClient, ApiError, FAMILIES, type UpdateStatus } from '../api';
import { StatusPoller } from '../poll/statusPoller';
import type { Logger } from '../log';
import type { SharedPreview } from '../sync/previewState';
import type { WindowSync } from '../sync/windowSync';
import { background } from '../util/background';
import { Disposable, timeout } from '../util/lifecycle';
import type { BuildLogs } from './buildLogs';
import { type BuildLog, deployed, isFollowed, keptLog, PREVIEW_STATUS_BOUND_MS, PREVIEW_TIMINGS, stageOf, withStatus } from './previewRecord';

/** A status read of one job's preview came back with something new: its stage, for the notices. */
interface PreviewChange {
  jobId: string;
  preview: SharedPreview;
}

/** A build's log when the writer asks for it: the kept one, or why there is none (still building and none yet; the platform's answer to reading it again). */
export type LogRead = { log: BuildLog } | { none: 'building' } | { error: ApiError };

/** What the previews use of the shared state: their areas, the reviews' (the tip Review Changes fetched), and the lease (who reads the status). */
export type PreviewSync = Pick<WindowSync, 'previews' | 'previewPlans' | 'reviews' | 'lease' | 'ready'>;

export class PreviewModel extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the project's previews or its plan changed here or in another window. */
  readonly onDidChange = this.emitter.event;
  private readonly stageEmitter = this.register(new vscode.EventEmitter<PreviewChange>());
  /** Fires when a job's preview changed stage (seen here first or read from another window). */
  readonly onDidChangeStage = this.stageEmitter.event;
  readonly poller: StatusPoller;
  /** The last error of a status read, per job (this window's; shown in the tooltip). */
  private readonly errors = new Map<string, ApiError>();
  private last = '';
  private stages = new Map<string, string>();
  private started = false;
  /** Status ID → what was last kept of its log here (its length and last line): a log is written when it changed. */
  private readonly keptLogs = new Map<string, string>();
  /** Status ID → a read of its log from the platform under way (one at a time). */
  private readonly reading = new Map<string, Promise<LogRead>>();

  constructor(
    private readonly sync: PreviewSync,
    private readonly api: ApiClient,
    private readonly project: () => string | undefined,
    private readonly log: Logger,
    deadlineMs: () => number,
    /** The builds' logs this machine keeps. */
    private readonly logs: BuildLogs,
  ) {
    super();
    this.poller = new StatusPoller(
      {
        fetch: (jobId, signal) => this.readStatus(jobId, signal),
        onResult: (jobId, result) => this.onStatus(jobId, result),
        deadlineMs: () => Math.min(deadlineMs(), FAMILIES.preview.deadlineMs ?? Number.POSITIVE_INFINITY),
        log: log.scoped('poller'),
      },
      PREVIEW_TIMINGS,
    );
    this.register({ dispose: () => this.poller.dispose() });
    for (const event of [sync.previews.onDidChange, sync.previewPlans.onDidChange, sync.lease.onDidChange]) this.register(event(() => this.check()));
    // After the shared store's first read: what is building is followed, nothing else is sent; the
    // logs of deployments no record names any more go.
    background(
      sync.ready.then(() => {
        if (this.isDisposed) return;
        this.started = true;
        this.check();
        return logs.prune(Object.values(sync.previews.value).flatMap((jobs) => Object.values(jobs).map((p) => p.v.statusId)));
      }),
      log,
      'following the previews still building',
    );
    this.register(timeout(0, () => this.check()));
  }

  get(jobId: string): SharedPreview | undefined {
    const project = this.project();
    return project ? this.sync.previews.value[project]?.[jobId]?.v : undefined;
  }

  errorOf(jobId: string): ApiError | undefined {
    return this.errors.get(jobId);
  }

  /** When the platform said the project's plan has no previews (ms), if it did and no preview went through since. */
  planRefusedAt(): number | undefined {
    const project = this.project();
    return project ? (this.sync.previewPlans.value[project]?.v ?? undefined) : undefined;
  }

  /**
   * The log of the job's build: as this machine keeps it; else, once the build ended, read again
   * from the platform (a status read, which the hour does not count) and kept.
   */
  async logOf(jobId: string): Promise<LogRead | undefined> {
    const preview = this.get(jobId);
    if (!preview) return undefined;
    const kept = await this.logs.read(preview.statusId);
    if (kept) return { log: kept };
    if (stageOf(preview) === 'building') return { none: 'building' };
    const { statusId } = preview;
    let read = this.reading.get(statusId);
    if (!read) {
      read = this.readLogAgain(statusId).finally(() => this.reading.delete(statusId));
      this.reading.set(statusId, read);
    }
    return read;
  }

  private async readLogAgain(statusId: string): Promise<LogRead> {
    try {
      const log = keptLog(statusId, await this.api.getUpdateStatus(statusId));
      background(this.logs.keep(log), this.log, `keeping the build log of ${statusId}`);
      return { log };
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError('invalidResponse', String(error));
      this.log.warn(`the build log of ${statusId} could not be read again: ${failure.message}`);
      return { error: failure };
    }
  }

  /** The branch's tip the writer last fetched (Review Changes), shared with the reviews. */
  tipOf(jobId: string): string | undefined {
    const project = this.project();
    return project ? this.sync.reviews.value[project]?.[jobId]?.tip?.v : undefined;
  }

  /**
   * One deployment of `branch` for the job: exactly one POST. Its answer is kept for every window
   * and its status followed; a 403 marks the project's plan as one without previews. Throws the
   * ApiError for the caller to word (the failure table's 'preview' context).
   */
  async deploy(jobId: string, branch: string): Promise<SharedPreview> {
    const project = this.project();
    if (!project) throw new ApiError('noProjectId', 'No Mintlify project ID is set for this workspace.');
    let preview: SharedPreview;
    try {
      preview = deployed(branch, await this.api.createPreview(project, branch), Date.now());
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'forbidden') await this.setPlan(project, Date.now());
      throw error;
    }
    this.errors.delete(jobId);
    const written = Promise.all([this.put(project, jobId, preview), this.sync.previewPlans.value[project]?.v ? this.setPlan(project, null) : undefined]);
    background(written, this.log, `keeping the preview of ${jobId}`);
    // The first read comes one interval after the deployment: it would only say "queued" sooner.
    this.poller.unwatch(jobId);
    this.follow();
    return preview;
  }

  /** Offers Preview Branch again for the project (the plan may have changed). */
  clearPlan(): Promise<void> {
    const project = this.project();
    return project ? this.setPlan(project, null) : Promise.resolve();
  }

  private setPlan(project: string, refusedAt: number | null): Promise<void> {
    return this.sync.previewPlans.change((plans, stamp) => (plans[project] = { v: refusedAt, s: stamp() }));
  }

  /** The job's preview, for every window. */
  private put(project: string, jobId: string, preview: SharedPreview): Promise<void> {
    return this.sync.previews.change((previews, stamp) => ((previews[project] ??= {})[jobId] = { v: preview, s: stamp() }));
  }

  private async readStatus(jobId: string, signal: AbortSignal): Promise<UpdateStatus> {
    const preview = this.get(jobId);
    if (!preview) throw new ApiError('cancelled', 'The preview is gone.');
    return this.api.getUpdateStatus(preview.statusId, { signal });
  }

  private onStatus(jobId: string, result: { value: unknown } | { error: ApiError }): 'continue' | 'stop' {
    const project = this.project();
    const before = this.get(jobId);
    if (!project || !before) return 'stop';
    const now = Date.now();
    if ('error' in result) {
      this.errors.set(jobId, result.error);
      this.log.warn(`preview of ${jobId}: reading its status failed: ${result.error.message}`);
      if (result.error.kind === 'notFound') return this.giveUp(project, jobId, before, now);
      this.emitter.fire();
      return isFollowed(before, now) ? 'continue' : this.giveUp(project, jobId, before, now);
    }
    this.errors.delete(jobId);
    const status = result.value as UpdateStatus;
    const after = withStatus(before, status, now);
    const log = keptLog(before.statusId, status);
    // The log first: a window that sees the build ended finds its log kept.
    background(
      this.keepLog(log).then(() => this.put(project, jobId, after)),
      this.log,
      `keeping the status of ${jobId}'s preview`,
    );
    if (stageOf(after) === 'failed') this.logFailure(jobId, after, log);
    if (stageOf(after) !== 'building') return 'stop';
    return isFollowed(after, now) ? 'continue' : this.giveUp(project, jobId, after, now);
  }

  /** The bound: the status is no longer read, and the row says it did not end. */
  private giveUp(project: string, jobId: string, preview: SharedPreview, now: number): 'stop' {
    if (preview.gaveUpAt !== undefined) return 'stop';
    this.log.warn(
      `preview of ${jobId}: its status did not end within ${PREVIEW_STATUS_BOUND_MS / 60_000} min of the deployment (last: ${preview.status}); it is no longer read`,
    );
    background(this.put(project, jobId, { ...preview, gaveUpAt: now }), this.log, `noting that ${jobId}'s preview is no longer followed`);
    return 'stop';
  }

  /** Keeps a log that changed since it was last kept here; a failed write is logged, and the log is read again when asked for. */
  private async keepLog(log: BuildLog): Promise<void> {
    const seen = `${log.total}\n${log.lines.at(-1) ?? ''}`;
    if (!log.total || this.keptLogs.get(log.statusId) === seen) return;
    try {
      await this.logs.keep(log);
      this.keptLogs.set(log.statusId, seen);
    } catch (error) {
      this.log.warn(`the build log of ${log.statusId} could not be kept: ${String(error)}`);
    }
  }

  private logFailure(jobId: string, preview: SharedPreview, log: BuildLog): void {
    this.log.warn(`preview of ${jobId} (${preview.branch}) failed to build: ${log.summary ?? 'no summary'}`);
    for (const line of log.lines) this.log.warn(`  ${line}`);
  }

  /** Reads what changed in the shared state: fires, follows what is building, tells of new stages. */
  private check(): void {
    const project = this.project();
    const previews = (project && this.sync.previews.value[project]) || {};
    const fingerprint = JSON.stringify([project, previews, project && this.sync.previewPlans.value[project]]);
    if (fingerprint !== this.last) {
      this.last = fingerprint;
      for (const [jobId, { v }] of Object.entries(previews)) {
        const stage = `${v.statusId}:${stageOf(v)}`;
        const was = this.stages.get(jobId);
        this.stages.set(jobId, stage);
        if (was !== undefined && was !== stage) this.stageEmitter.fire({ jobId, preview: v });
      }
      this.emitter.fire();
    }
    this.follow();
  }

  /** The poller watches every preview still building, counts from the last read of any window, and sends only from the leading window. */
  private follow(): void {
    const project = this.project();
    if (!project || !this.started) return this.poller.setStandby(true);
    const leader = this.sync.lease.isLeader(project);
    const previews = this.sync.previews.value[project] ?? {};
    const now = Date.now();
    for (const id of this.poller.watched()) if (!previews[id] || stageOf(previews[id].v) !== 'building') this.poller.unwatch(id);
    for (const [jobId, { v }] of Object.entries(previews)) {
      if (stageOf(v) !== 'building') continue;
      if (!isFollowed(v, now)) {
        if (leader) this.giveUp(project, jobId, v, now);
        continue;
      }
      if (!this.poller.isWatching(jobId)) this.poller.watch(jobId, { lastAt: v.checkedAt ?? v.requestedAt });
      this.poller.noteShared(jobId, v.checkedAt, v.requestedAt + PREVIEW_TIMINGS.fastPhaseMs);
    }
    this.poller.setFocused(this.sync.lease.projectFocused(project));
    this.poller.setStandby(!leader);
  }
}
