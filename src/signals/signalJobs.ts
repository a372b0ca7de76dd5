// Which signals each agent job addresses, so the inbox can say "job active" or "PR ready" beside
// a signal, and "Did it help?" knows what to compare. Kept in globalState per project.
import * as vscode from 'vscode';
import type { TrackedJob } from '../jobs/jobStore';

export interface SignalJob {
  jobId: string;
  signalIds: string[];
  /** The page it addresses, and the search terms, for the before/after comparison. */
  path: string | undefined;
  searches: string[];
  /** ISO date-time the job was asked. */
  askedAt: string;
  /** ISO date-time this window first saw the job completed with a pull request. */
  finishedAt?: string;
}

const key = (projectId: string) => `mintlifyAgent.signals.jobs/${projectId}`;

export class SignalJobs {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly state: vscode.Memento) {}

  all(projectId: string): SignalJob[] {
    const stored = this.state.get<unknown>(key(projectId));
    return Array.isArray(stored) ? (stored as SignalJob[]).filter((j) => typeof j?.jobId === 'string' && Array.isArray(j.signalIds)) : [];
  }

  async remember(projectId: string, job: SignalJob): Promise<void> {
    const others = this.all(projectId).filter((j) => j.jobId !== job.jobId);
    await this.state.update(key(projectId), [job, ...others].slice(0, 200));
    this.emitter.fire();
  }

  /** Notes when linked jobs finish with a pull request (the start of "Did it help?"'s clock). */
  async noteFinished(projectId: string, isDone: (jobId: string) => boolean, now: Date): Promise<void> {
    const all = this.all(projectId);
    let changed = false;
    const next = all.map((j) => {
      if (j.finishedAt || !isDone(j.jobId)) return j;
      changed = true;
      return { ...j, finishedAt: now.toISOString() };
    });
    if (!changed) return;
    await this.state.update(key(projectId), next);
    this.emitter.fire();
  }

  /** The newest job addressing this signal. */
  jobFor(projectId: string, signalId: string): SignalJob | undefined {
    return this.all(projectId).find((j) => j.signalIds.includes(signalId));
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** "job active", "PR ready", …: what a signal shows beside it, from the tracked job's last state. */
export function jobBadge(tracked: TrackedJob | undefined): string | undefined {
  const job = tracked?.job;
  if (!tracked) return undefined;
  if (!job) return vscode.l10n.t('job asked');
  if (job.status === 'active') return vscode.l10n.t('job active');
  if (job.status === 'completed' && job.prLink) return vscode.l10n.t('PR ready');
  if (job.status === 'completed') return vscode.l10n.t('job done, no changes');
  if (job.status === 'failed') return vscode.l10n.t('job failed');
  return undefined;
}
