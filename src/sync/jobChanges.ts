// A tracked job's changes as the shared state's jobs area holds them (syncState.ts): each field a
// last-writer-wins register, the prompts a union, "stop tracking" a tombstone that hides the prompts
// sent before it. No vscode import.
import type { JobRecord, Stamp, Versioned } from './sharedSchema';
import { compareStamps } from './stampMerge';

/** The removal (if any) that hides prompts sent before it: history starts again on re-tracking. */
export function visiblePrompts(job: JobRecord): { text: string; sentAt: string }[] {
  const removedAt = lastRemoval(job);
  return Object.values(job.p)
    .filter((p) => compareStamps(p.s, removedAt) > 0)
    .sort((x, y) => compareStamps(x.s, y.s))
    .map(({ text, sentAt }) => ({ text, sentAt }));
}

export function lastRemoval(job: JobRecord): Stamp {
  const stoppedAt = job.f.stoppedAt as Versioned<unknown> | undefined;
  return stoppedAt?.s ?? { t: -1, w: '' };
}

/** A change to one job, applied with fresh stamps (see JobStore.upsert for how it is derived). */
export interface JobChange {
  track?: boolean;
  fields?: Record<string, unknown>;
  addPrompts?: readonly { text: string; sentAt: string }[];
}

export function applyJobChange(
  state: { jobs: Record<string, Record<string, JobRecord>> },
  project: string,
  jobId: string,
  change: JobChange,
  clock: { next(): Stamp },
): void {
  const jobs = (state.jobs[project] ??= {});
  const current = jobs[jobId];
  const s = () => clock.next();
  // A field a newer version keeps on the job stays as it was.
  const record: JobRecord = current ? { ...current, f: { ...current.f }, p: { ...current.p } } : { tracked: { v: true, s: s() }, f: {}, p: {} };
  if (change.track !== undefined && (current === undefined || record.tracked.v !== change.track)) {
    const stamp = s();
    record.tracked = { v: change.track, s: stamp };
    if (!change.track) record.f.stoppedAt = { v: true, s: stamp };
  }
  for (const [name, value] of Object.entries(change.fields ?? {})) record.f[name] = { v: value ?? null, s: s() };
  for (const prompt of change.addPrompts ?? []) {
    const stamp = s();
    record.p[`${stamp.w}.${stamp.t}`] = { ...prompt, s: stamp };
  }
  jobs[jobId] = record;
}
