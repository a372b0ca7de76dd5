// The state every window shares, as a state-based CRDT: two copies merge into one that keeps
// every change of both, whatever order they arrive in and however often (every area's merge is
// commutative, associative and idempotent: test/unit/sync/syncState.test.ts checks each on random
// states). Each field of a job is a last-writer-wins register stamped by a hybrid clock; a job's
// prompt history is a union; "stop tracking" is a tombstone that a later "track" outranks; ledger
// entries are a union by id; Retry-After waits take the latest; an open trend bucket's figures take
// the latest fetch; of two salts the lowest wins. Ties are broken by the values themselves, so no
// order of merging can matter. What a newer version added (an area, a field) is kept whole and
// written back as it came (sharedSchema.ts). No vscode import: unit-tested with thousands of random
// interleavings.
//
// An area is one entry of AREAS below: `schema` (with a default, usually `perProject(…)`: files
// written before the area have none; a `z.looseObject` for every object, so a later version's fields
// survive this one), `merge` (a last-writer-wins register is `later`, a union `mergeRecordsBy`; ties
// broken with `eitherOf`, never by argument order), and if it needs them `prune` (its bound, run after
// every file of a read is merged) and `stamps` (if it holds `Stamp`s). The file's schema, the
// SyncState type, the empty state and the merge follow from the entry. Never change an area's or a
// field's shape: add a new one (an older version keeps what it does not know, but cannot read a shape
// it knows changed), and raise SCHEMA_VERSION by one.
import * as z from 'zod/mini';
import {
  BuildFixRecord,
  eitherOf,
  JobRecord,
  OpenTrendFigures,
  perProject,
  ReviewRecord,
  SearchCheck,
  SearchReplay,
  SharedPreview,
  SharedSignalLink,
  type Stamp,
  TrendFigures,
  unknownFields,
  versioned,
  type Versioned,
} from './sharedSchema';
import { boundByUse, inScope, pruneTrendAreas } from './trendBounds';
import { CLAIM_KEPT_MS, mergeReview, pruneReviews, reviewStamps } from './reviewState';
import { buildFixStamps, mergeBuildFix, planStamps, previewStamps, pruneBuildFixes, prunePreviews } from './previewState';
import { laterCheck, pruneChecks, pruneSearchJobs, searchJobStamps } from './searchState';
import { HOUR_MS } from '../util/clock';
import { lastRemoval } from './jobChanges';
import { pruneWaits } from '../hour/sharedWaits';
import { compareStamps, everyValue, later, laterFetch, mergeProjects, mergeRecordsBy } from './stampMerge';

export { compareStamps } from './stampMerge';

export type { JobRecord, OpenTrendFigures, SharedSignalLink, Stamp, TrendFigures } from './sharedSchema';

/**
 * How long the shared state keeps what no window shows any more: a stopped job's tombstone (and
 * its prompts), a cleared draft, the prompts of a job from before it was tracked again, and a
 * signal's link to a job no longer tracked, asked (or finished) that long ago. Past it they are
 * dropped, so the files stay bounded by what the user tracks. A window that has been away longer
 * than this (its file is collected within a minute of it going) is the only one that could bring
 * a tombstone's job back.
 */
export const SHARED_HISTORY_MAX_AGE_MS = 90 * 24 * HOUR_MS;

/** What pruning needs besides the state: the time, and the API address whose trends are kept (all when undefined). */
interface PruneContext {
  now: number;
  apiBaseUrl?: string;
}

/** An area's bound sees the whole state (a link is kept while its job is tracked): typed loosely here, SyncState in each bound. */
type PruneOf<T> = (value: T, context: PruneContext & { state: Record<string, unknown> }) => void;

/**
 * One area of the shared state: its schema (the file's, with a default for files written before it
 * existed), its merge, and optionally its bound (`prune`, run on the whole state after every file of
 * a read is merged) and the stamps it holds (which the hybrid clock must exceed).
 */
interface Area<S extends z.ZodMiniType> {
  schema: S;
  merge: (a: z.output<S>, b: z.output<S>) => z.output<S>;
  prune?: PruneOf<z.output<S>>;
  stamps?: (value: z.output<S>) => Iterable<Stamp>;
}

function area<S extends z.ZodMiniType>(definition: Area<S>): Area<S> {
  return definition;
}

/**
 * The areas, each in one place: adding one is one entry here (see CONTRIBUTING.md). The file's
 * schema, the SyncState type, the empty state, the merge, the pruning and the clock all follow.
 */
const AREAS = {
  /** project id → job id → record */
  jobs: area({
    schema: perProject(JobRecord),
    merge: (a, b) => mergeProjects(a, b, mergeJob),
    prune: pruneJobs,
    stamps: function* (jobs) {
      for (const job of everyValue(jobs)) {
        yield job.tracked.s;
        for (const field of Object.values(job.f)) yield field.s;
        for (const prompt of Object.values(job.p)) yield prompt.s;
      }
    },
  }),
  /** project id → draft key (`create`, `job:<id>`) → what the user typed and has not sent. */
  drafts: area({
    schema: perProject(versioned(z.nullable(z.string()))),
    merge: (a, b) => mergeProjects(a, b, later),
    prune: (drafts, { now }): void => {
      for (const entries of Object.values(drafts))
        for (const [key, draft] of Object.entries(entries)) if (draft.v === null && draft.s.t < now - SHARED_HISTORY_MAX_AGE_MS) delete entries[key];
    },
    stamps: function* (drafts) {
      for (const draft of everyValue(drafts)) yield draft.s;
    },
  }),
  /** project id → job id → the signals the job addresses: one register per job, so links to different jobs never overwrite each other. */
  links: area({
    schema: perProject(versioned(SharedSignalLink)),
    merge: (a, b) => mergeProjects(a, b, later),
    prune: pruneLinks,
    stamps: function* (links) {
      for (const link of everyValue(links)) yield link.s;
    },
  }),
  /**
   * trend scope (trendBounds.ts: project and API address) → trend bucket (`<metric> <dateFrom>
   * <dateTo>`, `page:<path> …`) → its settled figures [human, AI, total]: facts that no later request
   * changes (trendBuckets.ts), so a union; bounded by kind (trendBounds.ts).
   */
  trends: area({
    // Settled figures agree; should a late event make two differ, the larger total is the later answer.
    schema: perProject(TrendFigures),
    merge: (a, b) => mergeProjects(a, b, (m, n) => (m[2] !== n[2] ? (n[2] > m[2] ? n : m) : eitherOf(m, n))),
    prune: pruneTrends,
  }),
  /** trend scope → bucket of a kind bounded by use (trendBounds.ts) → when a window last kept or drew it (ms): the latest wins. */
  trendUse: area({
    schema: perProject(z.number()),
    merge: (a, b) => mergeProjects(a, b, Math.max),
    // Bounded with the trends they describe (pruneTrends).
  }),
  /**
   * trend scope → trend bucket that includes today → its figures and when they were fetched: the
   * latest fetch wins. Dropped an hour after it; a trend takes them for 15 minutes (trendSeries.ts).
   */
  openTrends: area({
    schema: perProject(OpenTrendFigures),
    merge: (a, b) => mergeProjects(a, b, laterFetch),
    prune: (openTrends, { now, apiBaseUrl }): void => {
      for (const [scope, open] of Object.entries(openTrends)) {
        for (const [key, figures] of Object.entries(open)) if (figures[3] <= now - HOUR_MS) delete open[key];
        if (!Object.keys(open).length || (apiBaseUrl !== undefined && !inScope(scope, apiBaseUrl))) delete openTrends[scope];
      }
    },
  }),
  /** project id → job id → the pending review of the agent's branch: its comments, pending and sent (reviewState.ts). */
  reviews: area({
    schema: perProject(ReviewRecord),
    merge: (a, b) => mergeProjects(a, b, mergeReview),
    // Deleted comments after the shared history's age, claims to send after an hour; a job's review with the job (kept while its tombstone is).
    prune: (reviews, { now, state }): void =>
      pruneReviews(reviews, now - SHARED_HISTORY_MAX_AGE_MS, (project, job) => (state as SyncState).jobs[project]?.[job] !== undefined, now - CLAIM_KEPT_MS),
    stamps: reviewStamps,
  }),
  /** project id → job id → the preview deployed of its branch, with its job (previewState.ts). */
  previews: area({
    schema: perProject(versioned(SharedPreview)),
    merge: (a, b) => mergeProjects(a, b, later),
    prune: (previews, { state }) => prunePreviews(previews, (p, j) => (state as SyncState).jobs[p]?.[j] !== undefined),
    stamps: previewStamps,
  }),
  /** project id → when the platform said its plan has no previews (403), or null once one went through. */
  previewPlans: area({
    schema: z._default(z.record(z.string(), versioned(z.nullable(z.number()))), () => ({})),
    merge: (a, b) => mergeRecordsBy(a, b, later),
    stamps: planStamps,
  }),
  /** project id → job id → Ask the Agent to Fix the Build of its preview: sent from one window at a time (previewState.ts), with its job; claims after an hour. */
  buildFixes: area({
    schema: perProject(BuildFixRecord),
    merge: (a, b) => mergeProjects(a, b, mergeBuildFix),
    prune: (fixes, { now, state }): void => pruneBuildFixes(fixes, now - CLAIM_KEPT_MS, (p, j) => (state as SyncState).jobs[p]?.[j] !== undefined),
    stamps: buildFixStamps,
  }),
  /**
   * the site's domain identifier → search term → what the site's search returned for it, when: the
   * later check wins; kept a day, at most searchState.ts MAX_KEPT_CHECKS in all (src/search).
   */
  searchChecks: area({
    schema: perProject(SearchCheck),
    merge: (a, b) => mergeProjects(a, b, laterCheck),
    prune: (checks, { now }): void => pruneChecks(checks, now),
  }),
  /** project id → job id → the searches it addresses, before its change and after it went live (src/search), with its job. */
  searchJobs: area({
    schema: perProject(versioned(SearchReplay)),
    merge: (a, b) => mergeProjects(a, b, later),
    prune: (jobs, { state }): void => pruneSearchJobs(jobs, (p, j) => (state as SyncState).jobs[p]?.[j] !== undefined),
    stamps: searchJobStamps,
  }),
  /** bucket (`agent:<project>`, `analytics:<key hash>`, `preview:<key hash>`) → entry id → when the request was sent. */
  ledger: area({
    schema: perProject(z.number()),
    merge: (a, b) => mergeProjects(a, b, Math.max),
    prune: (ledger, { now }): void => pruneLedger(ledger, now),
  }),
  /**
   * bucket → entry id → when: reservations of the ledger that were released, never sent (hourAccount.ts).
   * A tombstone beside the ledger rather than a deletion, since every window's file carries the entry.
   */
  released: area({
    schema: perProject(z.number()),
    merge: (a, b) => mergeProjects(a, b, Math.max),
    prune: (released, { now }): void => pruneLedger(released, now),
  }),
  /** endpoint family → no request before this time (ms since the epoch), from a 429's Retry-After; capped and expiring (sharedWaits.ts). */
  waits: area({
    schema: z._default(z.record(z.string(), z.number()), () => ({})),
    merge: (a, b) => mergeRecordsBy(a, b, Math.max),
    prune: (waits, { now }): void => pruneWaits(waits, now),
  }),
  /**
   * The install's random salt for naming the analytics bucket (ledger.ts keyBucket), so the files
   * hold no fingerprint of the key. Two windows that created one at once agree on the lowest.
   */
  salt: area({
    schema: z.optional(z.string()),
    merge: (a, b) => (a === undefined ? b : b === undefined ? a : a < b ? a : b),
  }),
};

type Areas = typeof AREAS;
export type AreaName = keyof Areas;
const AREA_NAMES = Object.keys(AREAS) as AreaName[];

/** The state's schema: every area, and whatever other areas a newer version wrote (kept as they are). */
export const SyncStateSchema = z.looseObject(
  Object.fromEntries(AREA_NAMES.map((name) => [name, AREAS[name].schema])) as { [K in AreaName]: Areas[K]['schema'] },
);
export type SyncState = z.infer<typeof SyncStateSchema>;

/** The known areas' names, and each one's schema (the shared store parses a newer version's file area by area). */
export const KNOWN_AREAS: ReadonlyMap<string, z.ZodMiniType> = new Map(AREA_NAMES.map((name) => [name, AREAS[name].schema]));

/** Two copies of one area, merged as two files are (the area's own merge in AREAS). */
export function mergeArea<N extends AreaName>(name: N, a: SyncState[N], b: SyncState[N]): SyncState[N] {
  return (AREAS[name].merge as unknown as (x: SyncState[N], y: SyncState[N]) => SyncState[N])(a, b);
}

export function emptyState(): SyncState {
  return z.parse(SyncStateSchema, {});
}

function mergeJob(a: JobRecord, b: JobRecord): JobRecord {
  return {
    ...unknownFields(a, b, ['tracked', 'f', 'p']),
    tracked: later(a.tracked, b.tracked),
    f: mergeRecordsBy(a.f, b.f, later),
    p: mergeRecordsBy(a.p, b.p, later),
  };
}

/**
 * Keeps every change of both copies, every area a newer version wrote included (carried whole).
 * Ledger entries older than an hour before `now` are dropped.
 */
export function mergeState(a: SyncState, b: SyncState, now?: number): SyncState {
  const out: Record<string, unknown> = unknownFields(a, b, AREA_NAMES);
  const empty = emptyState();
  for (const name of AREA_NAMES) {
    const merge = AREAS[name].merge as (x: unknown, y: unknown) => unknown;
    // Files written before an area existed have none.
    const value = merge(a[name] ?? empty[name], b[name] ?? empty[name]);
    if (value !== undefined) out[name] = value;
  }
  const state = out as SyncState;
  if (now !== undefined) {
    pruneLedger(state.ledger, now);
    pruneLedger(state.released, now);
  }
  return state;
}

function pruneLedger(ledger: SyncState['ledger'], now: number): void {
  for (const [bucket, entries] of Object.entries(ledger)) {
    const kept = Object.fromEntries(Object.entries(entries).filter(([, at]) => at > now - HOUR_MS));
    if (Object.keys(kept).length) ledger[bucket] = kept;
    else delete ledger[bucket];
  }
}

/**
 * Bounds every area (each its own way, see AREAS). Run on the state after every file of a read is
 * merged, never between two files: a tombstone dropped before merging an older copy of its job
 * would let that copy bring the job back.
 */
export function pruneState(state: SyncState, context: PruneContext | number): void {
  const ctx = typeof context === 'number' ? { now: context } : context;
  for (const name of AREA_NAMES) (AREAS[name].prune as PruneOf<unknown> | undefined)?.(state[name], { ...ctx, state });
}

function pruneJobs(jobs: Record<string, Record<string, JobRecord>>, { now }: PruneContext): void {
  const before = now - SHARED_HISTORY_MAX_AGE_MS;
  for (const records of Object.values(jobs)) {
    for (const [id, job] of Object.entries(records)) {
      if (!job.tracked.v && job.tracked.s.t < before) {
        delete records[id];
        continue;
      }
      const removedAt = lastRemoval(job);
      for (const [key, prompt] of Object.entries(job.p)) if (compareStamps(prompt.s, removedAt) <= 0 && prompt.s.t < before) delete job.p[key];
    }
  }
}

/** A link stays while its job is tracked (Did It Help? compares from it); after that, for the history's age. */
function pruneLinks(links: Record<string, Record<string, Versioned<SharedSignalLink>>>, context: PruneContext & { state: Record<string, unknown> }): void {
  const { now } = context;
  const jobs = (context.state as SyncState).jobs;
  const before = now - SHARED_HISTORY_MAX_AGE_MS;
  for (const [project, entries] of Object.entries(links)) {
    for (const [id, link] of Object.entries(entries)) {
      if (jobs[project]?.[id]?.tracked.v) continue;
      const last = Date.parse(link.v.finishedAt ?? link.v.askedAt);
      if (Math.max(Number.isNaN(last) ? 0 : last, link.s.t) < before) delete entries[id];
    }
  }
}

function pruneTrends(_trends: unknown, context: PruneContext & { state: Record<string, unknown> }): void {
  const state = context.state as SyncState;
  pruneTrendAreas(state.trends, state.trendUse, context.apiBaseUrl);
}

/**
 * A hybrid logical clock: stamps follow the wall clock but always exceed every stamp this window
 * has seen, so a change made after reading another window's change outranks it even when the
 * other window's clock runs ahead. Two windows stamping in the same millisecond differ by id.
 */
export class HybridClock {
  private last = 0;

  constructor(
    readonly writer: string,
    private readonly now: () => number = Date.now,
  ) {}

  next(): Stamp {
    this.last = Math.max(this.now(), this.last + 1);
    return { t: this.last, w: this.writer };
  }

  /** Takes in the stamps of a state read from another window. */
  observe(state: SyncState): void {
    for (const name of AREA_NAMES) {
      const stamps = AREAS[name].stamps as ((value: unknown) => Iterable<Stamp>) | undefined;
      if (stamps && state[name] !== undefined) for (const s of stamps(state[name])) this.last = Math.max(this.last, s.t);
    }
  }
}

/**
 * Keeps trend buckets of a scope (trendBounds.ts trendScope): settled ones for good within their
 * kind's bound (no stamp: a settled figure never changes), open ones by their fetch time. `now`
 * notes the use of the kinds bounded by use.
 */
export function keepTrends(
  state: SyncState,
  scope: string,
  settled: Record<string, TrendFigures>,
  open: Record<string, OpenTrendFigures> = {},
  now = Date.now(),
): void {
  if (Object.keys(settled).length) state.trends[scope] = { ...state.trends[scope], ...settled };
  if (Object.keys(open).length) state.openTrends[scope] = mergeRecordsBy(state.openTrends[scope] ?? {}, open, laterFetch);
  useTrends(state, scope, Object.keys(settled), now);
}

/**
 * Notes that a window drew these kept buckets (the least recently used go first past their bound).
 * Returns whether anything changed: a use noted within the last `coarseMs` is not written again.
 */
export function useTrends(state: SyncState, scope: string, keys: readonly string[], now: number, coarseMs = 0): boolean {
  let changed = false;
  for (const key of keys) {
    if (!boundByUse(key) || !state.trends[scope]?.[key]) continue;
    const use = (state.trendUse[scope] ??= {});
    if (use[key] !== undefined && use[key] >= now - coarseMs) continue;
    use[key] = now;
    changed = true;
  }
  return changed;
}
