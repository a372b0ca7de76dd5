// The signal-to-job links (signalJobs.ts) as the shared store holds them, their writes through the
// links' area (src/sync/sharedArea.ts), and the lists kept in globalState by versions before it,
// turned into shared state. No vscode (unit-tested).
import type { SharedArea } from '../sync/sharedArea';
import type { SharedSignalLink } from '../sync/syncState';

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

function toShared(job: SignalJob): SharedSignalLink {
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

/** Links the job to its signals, for every window (the link's own register, stamped by the area). */
export function linkJob(links: SharedArea<'links'>, project: string, job: SignalJob): Promise<void> {
  return links.change((area, stamp) => ((area[project] ??= {})[job.jobId] = { v: toShared(job), s: stamp() }));
}

/**
 * Marks the project's linked jobs that `isDone` calls done as finished at `at` (an ISO date-time).
 * Each link is written as this version knows it; what a newer version added to it is kept by the
 * area (sharedArea.ts), so the stamp never spreads a stripped copy to every window.
 */
export function finishLinks(links: SharedArea<'links'>, project: string, isDone: (jobId: string) => boolean, at: string): Promise<void> {
  return links.change((area, stamp) => {
    for (const [id, { v }] of Object.entries(area[project] ?? {}))
      if (!v.finishedAt && isDone(v.jobId)) (area[project] ??= {})[id] = { v: toShared({ ...v, path: v.path, finishedAt: at }), s: stamp() };
  });
}
