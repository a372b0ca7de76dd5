// The agent jobs linked to a project's signals, read once per draw of the Reader Signals view
// instead of once per node: each signal's newest job, and the ids of every linked job (a change to
// any other job changes nothing the view shows). Pure: no vscode.
import type { SignalJob } from './signalJobs';

export interface SignalJobIndex {
  /** The newest job addressing each signal, as `SignalJobs.jobFor` finds it. */
  readonly bySignal: ReadonlyMap<string, SignalJob>;
  /** Every linked job, for deciding whether a job's change redraws the view. */
  readonly jobIds: ReadonlySet<string>;
}

/** `links` newest first, as `SignalJobs.all` keeps them: the first link naming a signal wins. */
export function indexSignalJobs(links: readonly SignalJob[]): SignalJobIndex {
  const bySignal = new Map<string, SignalJob>();
  for (const link of links) for (const id of link.signalIds) if (!bySignal.has(id)) bySignal.set(id, link);
  return { bySignal, jobIds: new Set(links.map((link) => link.jobId)) };
}
