// Which signals each agent job addresses, so the inbox can say "job active" or "PR ready" beside
// a signal, and "Did it help?" knows what to compare. Kept in the shared store (src/sync/), one
// register per job, so two windows linking two signals at once keep both; versions before it kept
// a globalState list per project, brought in once (read, merged, never deleted).
import * as vscode from 'vscode';
import type { TrackedJob } from '../jobs/jobStore';
import type { WindowSync } from '../sync/windowSync';
import { background, type BackgroundLog } from '../util/background';
import { Disposable } from '../util/lifecycle';
import { finishLinks, linkJob, type SignalJob } from './signalLinkState';

export type { SignalJob } from './signalLinkState';

/** Where versions before the shared store kept each project's links. */

export class SignalJobs extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the links changed, here or in another window (or the first read of the store): the badges redraw. */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly sync: Pick<WindowSync, 'links' | 'writeAgain'>,
    private readonly log: BackgroundLog,
  ) {
    super();
    this.register(sync.links.onDidChange(() => this.emitter.fire()));
  }

  /** The project's links, the newest linked first. */
  all(projectId: string): SignalJob[] {
    return Object.values(this.sync.links.value[projectId] ?? {})
      .map(({ v }) => ({ ...v, path: v.path }))
      .sort((a, b) => (b.linkedAt ?? 0) - (a.linkedAt ?? 0) || (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : 0));
  }

  /**
   * Links the job at once in this window. The job was already sent, so a failed write to the
   * shared store never reaches the caller (who would report the send as failed): it is tried again
   * with a bounded backoff and, if that gives up, logged.
   */
  remember(projectId: string, job: SignalJob): void {
    const written = linkJob(this.sync.links, projectId, { ...job, linkedAt: Date.now() });
    background(
      written.catch(() => this.sync.writeAgain()),
      this.log,
      'sharing the signal link with the other windows',
    );
  }

  /** Notes when linked jobs finish with a pull request (the start of "Did it help?"'s clock). */
  async noteFinished(projectId: string, isDone: (jobId: string) => boolean, now: Date): Promise<void> {
    if (!this.all(projectId).some((j) => !j.finishedAt && isDone(j.jobId))) return;
    await finishLinks(this.sync.links, projectId, isDone, now.toISOString());
  }

  /** The newest job addressing this signal. */
  jobFor(projectId: string, signalId: string): SignalJob | undefined {
    return this.all(projectId).find((j) => j.signalIds.includes(signalId));
  }
}

/** Where a linked job stands, from the tracked job's last state: what the logic compares (never the badge's words). */
type LinkedJobState = 'asked' | 'active' | 'prReady' | 'doneNoPullRequest' | 'failed';

export function linkedJobState(tracked: TrackedJob | undefined): LinkedJobState | undefined {
  const job = tracked?.job;
  if (!tracked) return undefined;
  if (!job) return 'asked';
  if (job.status === 'active') return 'active';
  // No pull request is not "no changes": the agent may have committed directly (src/jobs/jobOutcome.ts).
  if (job.status === 'completed') return job.prLink ? 'prReady' : 'doneNoPullRequest';
  if (job.status === 'failed') return 'failed';
  return undefined;
}

/** "job active", "PR ready", …: what a signal shows beside it, in the editor's language. */
export function jobBadge(tracked: TrackedJob | undefined): string | undefined {
  const state = linkedJobState(tracked);
  if (state === undefined) return undefined;
  const badges: Record<LinkedJobState, string> = {
    asked: vscode.l10n.t('job asked'),
    active: vscode.l10n.t('job active'),
    prReady: vscode.l10n.t('PR ready'),
    doneNoPullRequest: vscode.l10n.t('job done, no PR'),
    failed: vscode.l10n.t('job failed'),
  };
  return badges[state];
}
