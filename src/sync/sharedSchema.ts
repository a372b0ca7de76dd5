// The pieces of the state every window shares, described once: each is a zod/mini schema, and its
// TypeScript type is inferred from it (z.infer), so the file format and the code cannot drift apart.
// Every object is a loose object and every tuple takes a rest: a field or an element that a newer
// version of the extension adds is kept, in memory and in the file written back, by a version that
// does not know it. The areas themselves (which pieces make up the state, and how each merges) are
// the table in syncState.ts. No vscode import.
import * as z from 'zod/mini';

/**
 * Which areas and fields the writer of a file knew: raised by one whenever an area or a field is
 * added (see CONTRIBUTING.md, "a shared area"). 1: files written before the number existed.
 */
export const SCHEMA_VERSION = 7;

/** A window's presence in its own file: read by the lease (lease.ts), never carried into another window's file. */
export const Presence = z.object({
  window: z.string(),
  project: z.nullable(z.string()),
  focused: z.boolean(),
  /** Increases with every beat. */
  beat: z.number(),
  /** The window's own clock at its last beat, and when it started. */
  beatAt: z.number(),
  since: z.number(),
  /** Written as the window closes: others take over at once. */
  closed: z.optional(z.boolean()),
});
export type Presence = z.infer<typeof Presence>;

/** Wall-clock milliseconds, made monotonic per window, with the writer's id to break ties. */
export const Stamp = z.looseObject({ t: z.number(), w: z.string() });
export type Stamp = z.infer<typeof Stamp>;

/** A last-writer-wins register: its value and the stamp of the write. */
export function versioned<T extends z.ZodMiniType>(value: T) {
  return z.looseObject({ v: value, s: Stamp });
}
export type Versioned<T> = { v: T; s: Stamp } & { [field: string]: unknown };

const SharedPrompt = z.looseObject({ text: z.string(), /** ISO date-time. */ sentAt: z.string(), s: Stamp });

/** One job as every window knows it. Fields absent from `f` were never set. */
export const JobRecord = z.looseObject({
  /** true: tracked; false: tracking stopped (a tombstone, kept so the removal wins over older writes). */
  tracked: versioned(z.boolean()),
  /** Per field: the server's job, checkedAt, notFound, unsentPrompt, trackedAt, fastUntil. */
  f: z.record(z.string(), versioned(z.unknown())),
  /** Prompt history, keyed by a unique id per sent prompt: a union, so no window's prompt is lost. */
  p: z.record(z.string(), SharedPrompt),
});
export type JobRecord = z.infer<typeof JobRecord>;

/** Which signals an agent job addresses (src/signals/signalJobs.ts), as every window shares it. */
export const SharedSignalLink = z.looseObject({
  jobId: z.string(),
  signalIds: z.array(z.string()),
  path: z.optional(z.string()),
  searches: z.array(z.string()),
  /** ISO date-times: when the job was asked, and when a window first saw it finish with a PR. */
  askedAt: z.string(),
  finishedAt: z.optional(z.string()),
  /** When it was linked (ms), which orders a signal's links newest first; negative for links kept by earlier versions. */
  linkedAt: z.optional(z.number()),
});
export type SharedSignalLink = z.infer<typeof SharedSignalLink>;

/** One comment of a pending review on the agent's branch (src/review). */
export const SharedReviewComment = z.looseObject({
  /** The file's path in the repository (POSIX), in the commit below. */
  path: z.string(),
  /** The commit of the agent's branch the comment was written on (its round). */
  commit: z.string(),
  /** 1-based, inclusive, in that commit's version of the file. */
  startLine: z.number(),
  endLine: z.number(),
  /** Those lines as that commit has them: the quote of the prompt. */
  lines: z.array(z.string()),
  /** The writer's words (Markdown). */
  body: z.string(),
  /** When it was written (ms since the epoch). */
  createdAt: z.number(),
  /** When it went to the agent in a review (ms); absent while it is pending. */
  sentAt: z.optional(z.number()),
});
export type SharedReviewComment = z.infer<typeof SharedReviewComment>;

/** A send of a review under way: the window sending it, when it began (ms), and the send's own id. */
export const ReviewSending = z.looseObject({ window: z.string(), at: z.number(), id: z.string() });
export type ReviewSending = z.infer<typeof ReviewSending>;

/** A job's review: its comments (null once deleted: a tombstone), the round they are drawn on, a send whose answer was lost. */
export const ReviewRecord = z.looseObject({
  /** Comment id (unique to the window that wrote it) → the comment, or null once deleted. */
  c: z.record(z.string(), versioned(z.nullable(SharedReviewComment))),
  /** The newest commit of the agent's branch a window has shown (Review Changes): the round the comments are drawn on. */
  tip: z.optional(versioned(z.string())),
  /** When a send of the review lost its answer (ms), or null: the review is still pending, and says it may have arrived. */
  lost: z.optional(versioned(z.nullable(z.number()))),
  /** A send under way (one at a time across windows), or null once its answer or its loss is known. */
  sending: z.optional(versioned(z.nullable(ReviewSending))),
  /**
   * Every window's claim to send the review, by the claim's id (null once it ended): read back after
   * a claim is written, each window sees every other's, not only the later one as in `sending`.
   */
  claims: z.optional(z.record(z.string(), versioned(z.nullable(ReviewSending)))),
});
export type ReviewRecord = z.infer<typeof ReviewRecord>;

/** A job's preview deployment (src/preview): what was deployed, where, and what became of it, as every window knows it. */
export const SharedPreview = z.looseObject({
  /** The branch deployed (the job's `source.ref`). */
  branch: z.string(),
  /** The deployment's status ID and preview URL, as the platform answered them (API values: text). */
  statusId: z.string(),
  previewUrl: z.optional(z.string()),
  /** When the deployment was asked for (ms). */
  requestedAt: z.number(),
  /** queued, in_progress, success, failure (the platform's), or a word it added later. */
  status: z.string(),
  /** The build's summary, cut to what the shared file keeps (previewState.ts boundPreview). */
  summary: z.optional(z.string()),
  /**
   * The build's logs, as versions before schema 7 kept them here. No longer written: a build's log is
   * kept beside the shared folder (src/preview/buildLogs.ts), and a record read with one drops it.
   */
  logs: z.optional(z.array(z.string())),
  /** The commit the platform built, and its files: each list cut to what the shared file keeps (previewState.ts boundPreview). */
  sha: z.optional(z.string()),
  files: z.optional(z.looseObject({ added: z.array(z.string()), modified: z.array(z.string()), removed: z.array(z.string()) })),
  /** How many of the commit's files the lists above leave out (absent: none). */
  filesLeftOut: z.optional(z.number()),
  screenshotLight: z.optional(z.string()),
  screenshotDark: z.optional(z.string()),
  /** When a window last read the status (ms), and when the status stopped being read before it ended (the bound). */
  checkedAt: z.optional(z.number()),
  gaveUpAt: z.optional(z.number()),
});
export type SharedPreview = z.infer<typeof SharedPreview>;

/** The last Ask the Agent to Fix the Build sent for a job: for which build (its status ID), when (ms), and whether its answer was lost. */
const BuildFixSent = z.looseObject({ statusId: z.string(), at: z.number(), lost: z.optional(z.boolean()) });

/** Ask the Agent to Fix the Build of a job's failed preview (src/preview), sent from one window at a time: as a review's send (ReviewRecord). */
export const BuildFixRecord = z.looseObject({
  /** The send under way, or null once its outcome is known. */
  sending: z.optional(versioned(z.nullable(ReviewSending))),
  /** Every window's claim to send it, by the claim's id (null once it ended). */
  claims: z.optional(z.record(z.string(), versioned(z.nullable(ReviewSending)))),
  sent: z.optional(versioned(z.nullable(BuildFixSent))),
});
export type BuildFixRecord = z.infer<typeof BuildFixRecord>;
/** One result of the site's search as kept (src/search): its site path and, for the first few, the start of its content. */
export const SearchHit = z.looseObject({ p: z.string(), c: z.optional(z.string()) });
export type SearchHit = z.infer<typeof SearchHit>;

/** What the site's search returned for a term (its results, best first), when (ms), and the page the writer expected, if named. */
export const SearchCheck = z.looseObject({ at: z.number(), hits: z.array(SearchHit), expect: z.optional(z.string()) });
export type SearchCheck = z.infer<typeof SearchCheck>;

/** A term of a job's searches: its results when the job was asked (the before) and once its change was live (the after). */
export const SearchTermReplay = z.looseObject({ before: SearchCheck, after: z.optional(SearchCheck) });
export type SearchTermReplay = z.infer<typeof SearchTermReplay>;

/** The searches readers gave up on that a job addresses, before its change and after it went live (src/search). */
export const SearchReplay = z.looseObject({
  /** The site's domain identifier they were searched on. */
  domain: z.string(),
  /** The page the writer expected them to find, if named. */
  expect: z.optional(z.string()),
  /** When the job was asked (ms): a merge before it is an older change's. */
  askedAt: z.number(),
  terms: z.record(z.string(), SearchTermReplay),
  /** The change that went live: its merge commit, when (ms), and the site paths of the pages it changed. */
  live: z.optional(z.looseObject({ commit: z.string(), at: z.number(), pages: z.array(z.string()) })),
  /** When the after was searched (ms). */
  afterAt: z.optional(z.number()),
});
export type SearchReplay = z.infer<typeof SearchReplay>;

// Elements a newer version adds after the figures are kept (the rest), and carried with the tuple,
// which every merge takes whole; the type names the elements this version reads and writes.

/** A settled trend bucket's unique human, AI and total figures. */
export type TrendFigures = [human: number, ai: number, total: number];
export const TrendFigures = z.tuple([z.number(), z.number(), z.number()], z.unknown()) as unknown as z.ZodMiniType<TrendFigures>;

/** An open trend bucket's figures and when they were fetched (ms since the epoch). */
export type OpenTrendFigures = [human: number, ai: number, total: number, fetchedAt: number];
export const OpenTrendFigures = z.tuple([z.number(), z.number(), z.number(), z.number()], z.unknown()) as unknown as z.ZodMiniType<OpenTrendFigures>;

/** project id → key → value: the shape of most areas. */
export function perProject<T extends z.ZodMiniType>(value: T) {
  return z._default(z.record(z.string(), z.record(z.string(), value)), () => ({}));
}

/** Key order does not matter: the same value always gives the same text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Of two copies that no rule tells apart, the same one whatever the order: the greater by canonical
 * text. Used for ties, and for whatever this version does not know (an area or a field a newer
 * version wrote): such a value is carried whole, never pieced together from two copies.
 */
export function eitherOf<T>(a: T, b: T): T {
  if (a === b) return a;
  return canonical(a) >= canonical(b) ? a : b;
}

/** The fields of `a` and `b` that are not in `known`, each merged by eitherOf: what a newer version added. */
export function unknownFields(a: object, b: object, known: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const source of [a, b] as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(source)) {
      if (known.includes(key) || value === undefined) continue;
      out[key] = key in out ? eitherOf(out[key], value) : value;
    }
  }
  return out;
}
