// The pending reviews of agent jobs (src/review), as every window shares them: one self-contained
// area of the shared state, with its own schema, merge, pruning and changes, so that it can move
// into another state format whole. Per job: each comment is a last-writer-wins register under an
// id unique to the window that wrote it (a deletion is a null value, a tombstone that outranks the
// copies written before it); the round the comments are drawn on and the time of a send whose
// answer was lost are registers too. Two windows adding comments keep both; editing, sending or
// deleting the same comment keeps the later change. No vscode import: unit-tested like the rest.
import * as z from 'zod/mini';

/** A hybrid-clock stamp and a register, as syncState.ts has them (written out: that module imports this one). */
interface Stamp {
  t: number;
  w: string;
}

interface Versioned<T> {
  v: T;
  s: Stamp;
}

/** One comment of a review on the agent's branch. */
export interface SharedReviewComment {
  /** The file's path in the repository (POSIX), in the commit below. */
  path: string;
  /** The commit of the agent's branch the comment was written on (its round). */
  commit: string;
  /** 1-based, inclusive, in that commit's version of the file. */
  startLine: number;
  endLine: number;
  /** Those lines as that commit has them: the quote of the prompt. */
  lines: string[];
  /** The writer's words (Markdown). */
  body: string;
  /** When it was written (ms since the epoch). */
  createdAt: number;
  /** When it went to the agent in a review (ms); absent while it is pending. */
  sentAt?: number;
}

export interface ReviewRecord {
  /** Comment id → the comment, or null once deleted. */
  c: Record<string, Versioned<SharedReviewComment | null>>;
  /** The newest commit of the agent's branch a window has shown (Review Changes): the round the comments are drawn on. */
  tip?: Versioned<string>;
  /** When a send of the review lost its answer (ms), or null: the review is still pending, and says it may have arrived. */
  lost?: Versioned<number | null>;
}

/** project id → job id → its review. */
export type SharedReviews = Record<string, Record<string, ReviewRecord>>;

const StampSchema = z.object({ t: z.number(), w: z.string() });
const CommentSchema = z.object({
  path: z.string(),
  commit: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  lines: z.array(z.string()),
  body: z.string(),
  createdAt: z.number(),
  sentAt: z.optional(z.number()),
});
/** The area in a window's file; absent from files written before reviews were shared. */
export const ReviewsSchema = z._default(
  z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({
        c: z.record(z.string(), z.object({ v: z.nullable(CommentSchema), s: StampSchema })),
        tip: z.optional(z.object({ v: z.string(), s: StampSchema })),
        lost: z.optional(z.object({ v: z.nullable(z.number()), s: StampSchema })),
      }),
    ),
  ),
  {},
);

function compare(a: Stamp, b: Stamp): number {
  return a.t !== b.t ? a.t - b.t : a.w < b.w ? -1 : a.w > b.w ? 1 : 0;
}

function later<T>(a: Versioned<T> | undefined, b: Versioned<T> | undefined): Versioned<T> | undefined {
  if (!a) return b;
  if (!b) return a;
  return compare(a.s, b.s) >= 0 ? a : b;
}

function mergeRecord(a: ReviewRecord, b: ReviewRecord): ReviewRecord {
  const c = { ...a.c };
  for (const [id, comment] of Object.entries(b.c)) c[id] = later(c[id], comment)!;
  const tip = later(a.tip, b.tip);
  const lost = later(a.lost, b.lost);
  return { c, ...(tip && { tip }), ...(lost && { lost }) };
}

/** Keeps every change of both copies (commutative, associative, idempotent). */
export function mergeReviews(a: SharedReviews | undefined, b: SharedReviews | undefined): SharedReviews {
  const out: SharedReviews = { ...a };
  for (const [project, jobs] of Object.entries(b ?? {})) {
    const merged = { ...out[project] };
    for (const [job, record] of Object.entries(jobs)) merged[job] = merged[job] ? mergeRecord(merged[job], record) : record;
    out[project] = merged;
  }
  return out;
}

/**
 * Drops deleted comments once older than `before` (ms), and the review of a job the shared state
 * no longer holds at all (`hasJob`: its tombstone was pruned; a job merely stopped keeps its
 * review, which comes back if it is tracked again). Run after every file is merged (pruneState).
 */
export function pruneReviews(reviews: SharedReviews, before: number, hasJob: (project: string, job: string) => boolean): void {
  for (const [project, jobs] of Object.entries(reviews)) {
    for (const [job, record] of Object.entries(jobs)) {
      if (!hasJob(project, job)) {
        delete jobs[job];
        continue;
      }
      for (const [id, comment] of Object.entries(record.c)) if (comment.v === null && comment.s.t < before) delete record.c[id];
    }
    if (!Object.keys(jobs).length) delete reviews[project];
  }
}

/** Every stamp of the area, for the hybrid clock. */
export function reviewStamps(reviews: SharedReviews | undefined): Stamp[] {
  return Object.values(reviews ?? {}).flatMap((jobs) => Object.values(jobs).flatMap((r) => [...Object.values(r.c).map((c) => c.s), ...(r.tip ? [r.tip.s] : []), ...(r.lost ? [r.lost.s] : [])]));
}

/** One change to a job's review, stamped by `next` (the window's hybrid clock). */
export type ReviewChange = { comment: string; value: SharedReviewComment | null } | { tip: string } | { lost: number | null };

export function applyReviewChange(reviews: SharedReviews, project: string, job: string, change: ReviewChange, next: () => Stamp): void {
  const record = ((reviews[project] ??= {})[job] ??= { c: {} });
  if ('comment' in change) record.c[change.comment] = { v: change.value, s: next() };
  else if ('tip' in change) record.tip = { v: change.tip, s: next() };
  else record.lost = { v: change.lost, s: next() };
}
