// The pending reviews of agent jobs (src/review), as every window shares them: the `reviews` area of
// the shared state (its schema, ReviewRecord, is in sharedSchema.ts; its entry in syncState.ts's
// table). Per job: each comment is a last-writer-wins register under an id unique to the window that
// wrote it (a deletion is a null value, a tombstone that outranks the copies written before it); the
// round the comments are drawn on, the time of a send whose answer was lost and the send under way
// (the mark that keeps a review in flight once across windows) are registers too; the claims to send
// it are registers under the claim's id, so every window's claim is seen (src/review/reviewModel.ts).
// Two windows adding comments keep both; editing, sending or deleting the same comment keeps the
// later change. No vscode import: unit-tested like the rest.
import { eitherOf, type ReviewRecord, type ReviewSending, type SharedReviewComment, type Stamp, unknownFields, type Versioned } from './sharedSchema';

export type { ReviewRecord, ReviewSending, SharedReviewComment };

/** project id → job id → its review. */
export type SharedReviews = Record<string, Record<string, ReviewRecord>>;

function compare(a: Stamp, b: Stamp): number {
  return a.t !== b.t ? a.t - b.t : a.w < b.w ? -1 : a.w > b.w ? 1 : 0;
}

/** The later write; two with the same stamp are told apart by their values, so no order of merging matters. */
function later<T>(a: Versioned<T> | undefined, b: Versioned<T> | undefined): Versioned<T> | undefined {
  if (!a) return b;
  if (!b) return a;
  const order = compare(a.s, b.s);
  return order > 0 ? a : order < 0 ? b : eitherOf(a, b);
}

/** Two copies of a job's review, every change of both kept (commutative, associative, idempotent). */
export function mergeReview(a: ReviewRecord, b: ReviewRecord): ReviewRecord {
  const c = byId(a.c, b.c);
  const tip = later(a.tip, b.tip);
  const lost = later(a.lost, b.lost);
  const sending = later(a.sending, b.sending);
  const claims = a.claims || b.claims ? byId(a.claims ?? {}, b.claims ?? {}) : undefined;
  return {
    ...unknownFields(a, b, ['c', 'tip', 'lost', 'sending', 'claims']),
    c,
    ...(tip && { tip }),
    ...(lost && { lost }),
    ...(sending && { sending }),
    ...(claims && { claims }),
  };
}

/** Two records of registers by id: every id of both, each the later write. */
function byId<T>(a: Record<string, Versioned<T>>, b: Record<string, Versioned<T>>): Record<string, Versioned<T>> {
  const merged = { ...a };
  for (const [id, value] of Object.entries(b)) merged[id] = later(merged[id], value) ?? value;
  return merged;
}

/**
 * How long a claim to send a review is kept: a send is over well within it (its window counts a claim
 * older than ten minutes as over), so a pruned claim that another window's file brings back counts
 * for nothing.
 */
export const CLAIM_KEPT_MS = 60 * 60_000;

/**
 * Drops claims to send older than `claimsBefore` (ms), deleted comments once older than `before` (ms), and the review of a job the shared state
 * no longer holds at all (`hasJob`: its tombstone was pruned; a job merely stopped keeps its
 * review, which comes back if it is tracked again). Run after every file is merged.
 */
export function pruneReviews(reviews: SharedReviews, before: number, hasJob: (project: string, job: string) => boolean, claimsBefore = before): void {
  for (const [project, jobs] of Object.entries(reviews)) {
    for (const [job, record] of Object.entries(jobs)) {
      if (!hasJob(project, job)) {
        delete jobs[job];
        continue;
      }
      for (const [id, comment] of Object.entries(record.c)) if (comment.v === null && comment.s.t < before) delete record.c[id];
      for (const [id, claim] of Object.entries(record.claims ?? {})) if (claim.s.t < claimsBefore) delete record.claims![id];
      if (record.claims && !Object.keys(record.claims).length) delete record.claims;
    }
    if (!Object.keys(jobs).length) delete reviews[project];
  }
}

/** Every stamp of the area, for the hybrid clock. */
export function* reviewStamps(reviews: SharedReviews): Iterable<Stamp> {
  for (const jobs of Object.values(reviews)) {
    for (const record of Object.values(jobs)) {
      for (const comment of Object.values(record.c)) yield comment.s;
      if (record.tip) yield record.tip.s;
      if (record.lost) yield record.lost.s;
      if (record.sending) yield record.sending.s;
      for (const claim of Object.values(record.claims ?? {})) yield claim.s;
    }
  }
}

/** One change to a job's review, stamped by `next` (the window's hybrid clock). */
export type ReviewChange =
  | { comment: string; value: SharedReviewComment | null }
  | { tip: string }
  | { lost: number | null }
  | { sending: ReviewSending | null }
  | { claim: string; value: ReviewSending | null };

export function applyReviewChange(reviews: SharedReviews, project: string, job: string, change: ReviewChange, next: () => Stamp): void {
  const record = ((reviews[project] ??= {})[job] ??= { c: {} });
  if ('comment' in change) record.c[change.comment] = { v: change.value, s: next() };
  else if ('claim' in change) (record.claims ??= {})[change.claim] = { v: change.value, s: next() };
  else if ('tip' in change) record.tip = { v: change.tip, s: next() };
  else if ('sending' in change) record.sending = { v: change.sending, s: next() };
  else record.lost = { v: change.lost, s: next() };
}
