// The preview deployments of agent jobs' branches (src/preview), as every window shares them: the
// `previews` area (project → job → the last deployment, a last-writer-wins register) and the
// `previewPlans` area (project → when the platform said the plan has no previews, or null once a
// deployment went through). Their schemas are in sharedSchema.ts, their entries in syncState.ts's
// table. No vscode import.
import type { SharedPreview, Stamp, Versioned } from './sharedSchema';

export type { SharedPreview };

/** project id → job id → its preview. */
export type SharedPreviews = Record<string, Record<string, Versioned<SharedPreview>>>;
/** project id → when the plan refused previews (ms), or null. */
export type SharedPreviewPlans = Record<string, Versioned<number | null>>;

/** A job's preview goes with the job (kept while the shared state holds the job, its tombstone included). */
export function prunePreviews(previews: SharedPreviews, hasJob: (project: string, job: string) => boolean): void {
  for (const [project, jobs] of Object.entries(previews)) {
    for (const job of Object.keys(jobs)) if (!hasJob(project, job)) delete jobs[job];
    if (!Object.keys(jobs).length) delete previews[project];
  }
}

export function* previewStamps(previews: SharedPreviews): Iterable<Stamp> {
  for (const jobs of Object.values(previews)) for (const preview of Object.values(jobs)) yield preview.s;
}

export function* planStamps(plans: SharedPreviewPlans): Iterable<Stamp> {
  for (const plan of Object.values(plans)) yield plan.s;
}
