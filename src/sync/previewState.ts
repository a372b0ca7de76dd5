// The preview deployments of agent jobs' branches (src/preview), as every window shares them: the
// `previews` area (project → job → the last deployment, a last-writer-wins register), the
// `previewPlans` area (project → when the platform said the plan has no previews, or null once a
// deployment went through) and the `buildFixes` area (project → job → Ask the Agent to Fix the
// Build: the send under way, every window's claim to send it, the last one sent). Their schemas are
// in sharedSchema.ts, their entries in syncState.ts's table. A record holds what every window needs
// to draw the row and act, bounded (boundPreview): a build's log lives beside the shared folder
// (src/preview/buildLogs.ts), since every window rewrites and re-reads the shared files. No vscode import.
import { type BuildFixRecord, type SharedPreview, type Stamp, unknownFields, type Versioned } from './sharedSchema';
import { later, mergeRecordsBy } from './stampMerge';

export type { BuildFixRecord, SharedPreview };

/** project id → job id → its preview. */
type SharedPreviews = Record<string, Record<string, Versioned<SharedPreview>>>;
/** project id → when the plan refused previews (ms), or null. */
type SharedPreviewPlans = Record<string, Versioned<number | null>>;
/** project id → job id → the fix of its build. */
export type SharedBuildFixes = Record<string, Record<string, BuildFixRecord>>;

/** The most paths each list of a build's files keeps (added, modified, removed), and the longest path kept. */
export const KEPT_FILES_PER_LIST = 50;
export const KEPT_FILE_PATH_CHARS = 500;
/** The longest summary a record keeps (the whole one is in the build's log). */
export const KEPT_SUMMARY_CHARS = 500;

/**
 * The record as the shared file keeps it: no log (a record of an earlier version loses its own), each
 * list of files cut to KEPT_FILES_PER_LIST paths (the number left out kept beside them), the summary
 * to KEPT_SUMMARY_CHARS. Idempotent: a bounded record comes back equal.
 */
export function boundPreview(preview: SharedPreview): SharedPreview {
  const { logs: _logs, ...bounded } = preview;
  if (bounded.summary !== undefined && bounded.summary.length > KEPT_SUMMARY_CHARS) bounded.summary = `${bounded.summary.slice(0, KEPT_SUMMARY_CHARS - 1)}…`;
  if (bounded.files) {
    let leftOut = bounded.filesLeftOut ?? 0;
    const cut = (paths: string[]) => {
      const kept = paths.filter((path) => path.length <= KEPT_FILE_PATH_CHARS).slice(0, KEPT_FILES_PER_LIST);
      leftOut += paths.length - kept.length;
      return kept;
    };
    bounded.files = { ...bounded.files, added: cut(bounded.files.added), modified: cut(bounded.files.modified), removed: cut(bounded.files.removed) };
    if (leftOut) bounded.filesLeftOut = leftOut;
  }
  return bounded;
}

/** A job's preview goes with the job (kept while the shared state holds the job, its tombstone included), bounded. */
export function prunePreviews(previews: SharedPreviews, hasJob: (project: string, job: string) => boolean): void {
  for (const [project, jobs] of Object.entries(previews)) {
    for (const [job, preview] of Object.entries(jobs)) {
      if (!hasJob(project, job)) delete jobs[job];
      else if (!isBounded(preview.v)) jobs[job] = { ...preview, v: boundPreview(preview.v) };
    }
    if (!Object.keys(jobs).length) delete previews[project];
  }
}

function isBounded(preview: SharedPreview): boolean {
  const files = preview.files;
  return (
    preview.logs === undefined &&
    (preview.summary?.length ?? 0) <= KEPT_SUMMARY_CHARS &&
    (!files ||
      [files.added, files.modified, files.removed].every(
        (paths) => paths.length <= KEPT_FILES_PER_LIST && paths.every((p) => p.length <= KEPT_FILE_PATH_CHARS),
      ))
  );
}

export function* previewStamps(previews: SharedPreviews): Iterable<Stamp> {
  for (const jobs of Object.values(previews)) for (const preview of Object.values(jobs)) yield preview.s;
}

export function* planStamps(plans: SharedPreviewPlans): Iterable<Stamp> {
  for (const plan of Object.values(plans)) yield plan.s;
}

/** Two copies of a job's fix: each register the later write, every claim of both (commutative, associative, idempotent). */
export function mergeBuildFix(a: BuildFixRecord, b: BuildFixRecord): BuildFixRecord {
  const either = <T extends { s: Stamp }>(x: T | undefined, y: T | undefined) => (x && y ? later(x, y) : (x ?? y));
  const sending = either(a.sending, b.sending);
  const sent = either(a.sent, b.sent);
  const claims = a.claims || b.claims ? mergeRecordsBy(a.claims ?? {}, b.claims ?? {}, later) : undefined;
  return { ...unknownFields(a, b, ['sending', 'claims', 'sent']), ...(sending && { sending }), ...(claims && { claims }), ...(sent && { sent }) };
}

/** Drops claims older than `claimsBefore` (ms), and the fix of a job the shared state no longer holds. */
export function pruneBuildFixes(fixes: SharedBuildFixes, claimsBefore: number, hasJob: (project: string, job: string) => boolean): void {
  for (const [project, jobs] of Object.entries(fixes)) {
    for (const [job, record] of Object.entries(jobs)) {
      if (!hasJob(project, job)) {
        delete jobs[job];
        continue;
      }
      for (const [id, claim] of Object.entries(record.claims ?? {})) if (claim.s.t < claimsBefore) delete record.claims![id];
      if (record.claims && !Object.keys(record.claims).length) delete record.claims;
    }
    if (!Object.keys(jobs).length) delete fixes[project];
  }
}

export function* buildFixStamps(fixes: SharedBuildFixes): Iterable<Stamp> {
  for (const jobs of Object.values(fixes))
    for (const record of Object.values(jobs)) {
      if (record.sending) yield record.sending.s;
      if (record.sent) yield record.sent.s;
      for (const claim of Object.values(record.claims ?? {})) yield claim.s;
    }
}
