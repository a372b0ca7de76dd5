// The signal-to-job links (signalJobs.ts) as the shared store holds them, and the lists kept in
// globalState by versions before it, turned into shared state. Pure: no vscode (unit-tested).
import { emptyState, type HybridClock, setSignalLink, type SharedSignalLink, type SyncState } from '../sync/syncState';

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
  /** When it was linked (ms since the epoch): the newest link of a signal is the one that counts. */
  linkedAt?: number;
}

export function isSignalJob(value: unknown): value is SignalJob {
  const v = value as Partial<SignalJob> | null;
  return typeof v?.jobId === 'string' && Array.isArray(v.signalIds) && v.signalIds.every((id) => typeof id === 'string') && typeof v.askedAt === 'string';
}

export function toShared(job: SignalJob): SharedSignalLink {
  return {
    jobId: job.jobId,
    signalIds: [...job.signalIds],
    ...(typeof job.path === 'string' && { path: job.path }),
    searches: Array.isArray(job.searches) ? job.searches.filter((s) => typeof s === 'string') : [],
    askedAt: job.askedAt,
    ...(typeof job.finishedAt === 'string' && { finishedAt: job.finishedAt }),
    ...(typeof job.linkedAt === 'number' && { linkedAt: job.linkedAt }),
  };
}

/**
 * Marks the project's linked jobs that `isDone` calls done as finished at `at` (an ISO date-time),
 * changing the stored link itself: every field of it stays, those a newer version added included,
 * so the stamp does not spread a stripped copy to every window. Returns how many it marked.
 */
export function markLinksFinished(state: SyncState, project: string, isDone: (jobId: string) => boolean, at: string, clock: HybridClock): number {
  const finished = Object.values(state.links[project] ?? {}).filter(({ v }) => !v.finishedAt && isDone(v.jobId));
  for (const { v } of finished) setSignalLink(state, project, { ...v, finishedAt: at }, clock);
  return finished.length;
}

/**
 * The old globalState lists as shared state, stamped at time 0 (like the legacy jobs, jobStore.ts)
 * so any change a window made since wins, and bringing them in again changes nothing.
 */
export function legacyLinks(lists: ReadonlyMap<string, readonly SignalJob[]>): SyncState {
  const state = emptyState();
  for (const [project, list] of lists) {
    const links: SyncState['links'][string] = {};
    // Newest first in the old list: after every link made since, in the same order.
    list.forEach((job, i) => (links[job.jobId] ??= { v: { ...toShared(job), linkedAt: -i }, s: { t: 0, w: `legacy.${String(i).padStart(6, '0')}` } }));
    state.links[project] = links;
  }
  return state;
}
