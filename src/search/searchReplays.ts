// The before and after of the jobs started or followed up from searches readers gave up on: the
// before is recorded when the prompt reaches the job; once the job's change is live (its branch's
// merge in the workspace's git, as Did It Help? finds it, and the deploy given its time: the platform
// gives no status for the deploy a merge starts), its terms are searched again once, fresh (N terms,
// N requests), by the one window that leads the project, and the after is shared with every window.
// Looking for the merge is local git only (no fetch): it runs when a job, the searches or the
// workspace's git change, and every few minutes while the window has the focus.
import * as vscode from 'vscode';
import type { AgentJob } from '../api';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { SearchCheck, SearchReplay } from '../sync/searchState';
import type { WindowSync } from '../sync/windowSync';
import { background } from '../util/background';
import { Disposable } from '../util/lifecycle';
import type { SearchChecks } from './searchChecks';
import { isThisRound, withAfter, withBefore } from './searchReplay';

/** How often a waiting job's merge is looked for while the window has the focus, and the least time between two looks at one job. */
const LOOK_EVERY_MS = 3 * 60_000;
const LOOK_GAP_MS = 5_000;
/** After a replay failed (a 429, the key refused), the next try waits this long or for a new key. */
const RETRY_AFTER_FAILURE_MS = 10 * 60_000;

/** The change that went live: its merge commit, when (ms), and the site paths of the docs pages it touched. */
type LiveChange = NonNullable<SearchReplay['live']>;

interface SearchReplaysDeps {
  sync: Pick<WindowSync, 'searchJobs' | 'lease' | 'ready'>;
  checks: SearchChecks;
  jobs: Pick<JobStore, 'get' | 'onDidChange'>;
  project: () => string | undefined;
  /** The site's domain identifier, when the assistant key is set too; undefined: no replay. */
  searchable: () => string | undefined;
  /** How long after the merge the site is taken as deployed (the setting). */
  deployWaitMs: () => number;
  /** The job's change as the workspace's git shows it, or undefined (not merged, no clone, not trusted). */
  liveChange: (job: AgentJob, signal: AbortSignal) => Promise<LiveChange | undefined>;
  log: Logger;
}

/** A replay this window searched: the job and its record with the after. */
export interface Replayed {
  projectId: string;
  jobId: string;
  replay: SearchReplay;
  requests: number;
}

export class SearchReplays extends Disposable {
  private readonly replayedEmitter = this.register(new vscode.EventEmitter<Replayed>());
  /** Fires when this window searched a job's after (its notification is said here). */
  readonly onDidReplay = this.replayedEmitter.event;
  private readonly failedEmitter = this.register(new vscode.EventEmitter<{ jobId: string; error: Error }>());
  /** Fires when a replay failed (the failure reporter words it). */
  readonly onDidFail = this.failedEmitter.event;
  /** Fires when any job's searches changed, here or in another window. */
  readonly onDidChange: vscode.Event<void>;
  private readonly looking = new Map<string, Promise<void>>();
  private readonly lastLook = new Map<string, number>();
  private readonly failedAt = new Map<string, number>();
  private readonly stop = new AbortController();
  private wake: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(private readonly deps: SearchReplaysDeps) {
    super();
    this.onDidChange = deps.sync.searchJobs.onDidChange;
    const consider = () => this.considerAll();
    this.register(deps.sync.searchJobs.onDidChange(consider));
    this.register(deps.sync.lease.onDidChange(consider));
    this.register(deps.jobs.onDidChange(consider));
    this.register(vscode.window.onDidChangeWindowState((state) => state.focused && consider()));
    const timer = setInterval(() => vscode.window.state.focused && consider(), LOOK_EVERY_MS);
    this.register({ dispose: () => (clearInterval(timer), clearTimeout(this.wake?.timer), this.stop.abort()) });
    background(deps.sync.ready.then(consider), deps.log, 'looking for the searches to replay');
  }

  /** The job's searches, before and after, as every window shares them. */
  get(projectId: string, jobId: string): SearchReplay | undefined {
    return this.deps.sync.searchJobs.value[projectId]?.[jobId]?.v;
  }

  /** Every job's searches of the project. */
  all(projectId: string): [string, SearchReplay][] {
    return Object.entries(this.deps.sync.searchJobs.value[projectId] ?? {}).map(([id, { v }]) => [id, v]);
  }

  /** Records the before of a prompt that reached the job: these terms' checks (as searched for the prompt). */
  async record(projectId: string, jobId: string, domain: string, checks: ReadonlyMap<string, SearchCheck>, expect?: string): Promise<void> {
    if (!checks.size) return;
    this.failedAt.delete(jobId);
    await this.deps.sync.searchJobs.change((area, stamp) => {
      const previous = area[projectId]?.[jobId]?.v;
      (area[projectId] ??= {})[jobId] = { v: withBefore(previous, { domain, checks, expect, at: Date.now() }), s: stamp() };
    });
  }

  /** A new key or site: failed replays may be tried again at once. */
  retryFailed(): void {
    this.failedAt.clear();
    this.considerAll();
  }

  /** Looks at every job waiting for its after (bounded per job); replays those whose change is live. */
  considerAll(): void {
    const project = this.deps.project();
    if (!project || this.isDisposed || !this.deps.searchable() || !this.deps.sync.lease.isLeader(project)) return;
    const now = Date.now();
    for (const [jobId, replay] of this.all(project)) {
      if (replay.afterAt !== undefined || this.looking.has(jobId)) continue;
      if (now - (this.failedAt.get(jobId) ?? 0) < RETRY_AFTER_FAILURE_MS) continue;
      const job = this.deps.jobs.get(jobId)?.job;
      if (job?.status !== 'completed' || !job.prLink) continue;
      // Looked at a moment ago: looked at again once the gap has passed, so the news that came meanwhile is not missed.
      const next = (this.lastLook.get(jobId) ?? 0) + LOOK_GAP_MS;
      if (now < next) {
        this.wakeAt(next);
        continue;
      }
      this.lastLook.set(jobId, now);
      const look = this.look(project, jobId, job).finally(() => this.looking.delete(jobId));
      this.looking.set(jobId, look);
      background(look, this.deps.log, `replaying the searches of job ${jobId}`);
    }
  }

  /** Considers every job again at `at` (the earliest time asked for wins). */
  private wakeAt(at: number): void {
    if (this.isDisposed || (this.wake && this.wake.at <= at)) return;
    clearTimeout(this.wake?.timer);
    const timer = setTimeout(
      () => {
        this.wake = undefined;
        this.considerAll();
      },
      Math.max(0, at - Date.now()) + 50,
    );
    this.wake = { at, timer };
  }

  private async look(project: string, jobId: string, job: AgentJob): Promise<void> {
    const live = await this.deps.liveChange(job, this.stop.signal).catch((error: unknown) => {
      this.deps.log.warn(`job ${jobId}: the merge lookup failed: ${String(error)}`);
      return undefined;
    });
    const replay = this.get(project, jobId);
    if (!live || !replay || replay.afterAt !== undefined || !isThisRound(replay, live.at)) return;
    const due = live.at + this.deps.deployWaitMs();
    if (Date.now() < due) {
      // The deploy is given its time; looked at again then.
      this.lastLook.delete(jobId);
      this.wakeAt(due);
      return;
    }
    const domain = this.deps.searchable();
    if (!domain || domain !== replay.domain) return;
    const terms = Object.keys(replay.terms);
    const run = await this.deps.checks.check(terms, { fresh: true, signal: this.stop.signal });
    if (run.error) {
      this.failedAt.set(jobId, Date.now());
      if (!this.stop.signal.aborted) this.failedEmitter.fire({ jobId, error: run.error });
      return;
    }
    let written: SearchReplay | undefined;
    await this.deps.sync.searchJobs
      .change((area, stamp) => {
        const current = area[project]?.[jobId]?.v;
        // Another window's after, or a new round, arrived meanwhile: theirs stands.
        if (!current || current.afterAt !== undefined || current.askedAt !== replay.askedAt) return;
        written = withAfter(current, run.checks, live, Date.now());
        (area[project] ??= {})[jobId] = { v: written, s: stamp() };
      })
      .catch((error: unknown) => this.deps.log.warn(`job ${jobId}: the searches' after could not be shared: ${String(error)}`));
    this.deps.log.info(`job ${jobId}: ${terms.length} searches replayed after ${live.commit.slice(0, 12)} went live (${run.requests} requests)`);
    if (written) this.replayedEmitter.fire({ projectId: project, jobId, replay: written, requests: run.requests });
  }
}
