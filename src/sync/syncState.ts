// The state every window shares, as a state-based CRDT: two copies merge into one that keeps
// every change of both, whatever order they arrive in and however often (the merge is
// commutative, associative and idempotent). Each field of a job is a last-writer-wins register
// stamped by a hybrid clock; a job's prompt history is a union; "stop tracking" is a tombstone
// that a later "track" outranks; ledger entries are a union by id; Retry-After waits take the
// latest; an open trend bucket's figures take the latest fetch; of two salts the lowest wins; the
// pending reviews merge as reviewState.ts says. No vscode import: unit-tested with thousands of random interleavings.
import { mergeReviews, pruneReviews, reviewStamps, type SharedReviews } from './reviewState';

/** Wall-clock milliseconds, made monotonic per window, with the writer's id to break ties. */
export interface Stamp {
  t: number;
  w: string;
}

export interface Versioned<T> {
  v: T;
  s: Stamp;
}

export interface SharedPrompt {
  text: string;
  /** ISO date-time. */
  sentAt: string;
}

/** One job as every window knows it. Fields absent from `f` were never set. */
export interface JobRecord {
  /** true: tracked; false: tracking stopped (a tombstone, kept so the removal wins over older writes). */
  tracked: Versioned<boolean>;
  /** Per field: the server's job, checkedAt, notFound, unsentPrompt, trackedAt, fastUntil. */
  f: Record<string, Versioned<unknown>>;
  /** Prompt history, keyed by a unique id per sent prompt: a union, so no window's prompt is lost. */
  p: Record<string, SharedPrompt & { s: Stamp }>;
}

/** Which signals an agent job addresses (src/signals/signalJobs.ts), as every window shares it. */
export interface SharedSignalLink {
  jobId: string;
  signalIds: string[];
  path?: string;
  searches: string[];
  /** ISO date-times: when the job was asked, and when a window first saw it finish with a PR. */
  askedAt: string;
  finishedAt?: string;
  /** When it was linked (ms), which orders a signal's links newest first; negative for links kept by earlier versions. */
  linkedAt?: number;
}

export interface SyncState {
  /** project id → job id → record */
  jobs: Record<string, Record<string, JobRecord>>;
  /** project id → draft key (`create`, `job:<id>`) → what the user typed and has not sent. */
  drafts: Record<string, Record<string, Versioned<string | null>>>;
  /** project id → job id → the signals the job addresses: one register per job, so links to different jobs never overwrite each other. */
  links: Record<string, Record<string, Versioned<SharedSignalLink>>>;
  /**
   * project id → trend bucket (`<metric> <dateFrom> <dateTo>`) → its settled figures [human, AI,
   * total]: facts that no later request changes (trendBuckets.ts), so a union; bounded by pruneState.
   */
  trends: Record<string, Record<string, TrendFigures>>;
  /**
   * project id → trend bucket that includes today → its figures and when they were fetched: the
   * latest fetch wins. Dropped an hour after it; a trend takes them for 15 minutes (trendSeries.ts).
   */
  openTrends: Record<string, Record<string, OpenTrendFigures>>;
  /** project id → job id → the review of the agent's branch: its comments, pending and sent (reviewState.ts). */
  reviews: SharedReviews;
  /** bucket (`agent:<project>`, `analytics:<key hash>`) → entry id → when the request was sent. */
  ledger: Record<string, Record<string, number>>;
  /** endpoint family → no request before this time (ms since the epoch), from a 429's Retry-After. */
  waits: Record<string, number>;
  /**
   * The install's random salt for naming the analytics bucket (ledger.ts keyBucket), so the files
   * hold no fingerprint of the key. Two windows that created one at once agree on the lowest.
   */
  salt?: string;
}

export const HOUR_MS = 3_600_000;

/** A settled trend bucket's unique human, AI and total figures. */
export type TrendFigures = [human: number, ai: number, total: number];

/** An open trend bucket's figures and when they were fetched (ms since the epoch). */
export type OpenTrendFigures = [human: number, ai: number, total: number, fetchedAt: number];

/**
 * The settled trend buckets kept per project: a year of weeks and 90 days, both metrics, with
 * their previous periods, fit; past it the buckets of the oldest days go first (asked again if drawn).
 */
export const TRENDS_KEPT_PER_PROJECT = 600;

/**
 * How long the shared state keeps what no window shows any more: a stopped job's tombstone (and
 * its prompts), a cleared draft, the prompts of a job from before it was tracked again, and a
 * signal's link to a job asked (or finished) that long ago. Past it they are dropped, so the files
 * stay bounded by what the user tracks. A window that has been away longer than this (its file
 * is collected within a minute of it going) is the only one that could bring a tombstone's job back.
 */
export const SHARED_HISTORY_MAX_AGE_MS = 90 * 24 * HOUR_MS;

export function emptyState(): SyncState {
  return { jobs: {}, drafts: {}, links: {}, trends: {}, openTrends: {}, reviews: {}, ledger: {}, waits: {} };
}

export function compareStamps(a: Stamp, b: Stamp): number {
  if (a.t !== b.t) return a.t - b.t;
  return a.w < b.w ? -1 : a.w > b.w ? 1 : 0;
}

function later<T>(a: Versioned<T> | undefined, b: Versioned<T> | undefined): Versioned<T> | undefined {
  if (!a) return b;
  if (!b) return a;
  return compareStamps(a.s, b.s) >= 0 ? a : b;
}

function mergeRecordsBy<T>(a: Record<string, T>, b: Record<string, T>, pick: (x: T, y: T) => T): Record<string, T> {
  const out: Record<string, T> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? pick(out[k], v) : v;
  return out;
}

function mergeJob(a: JobRecord, b: JobRecord): JobRecord {
  return {
    tracked: later(a.tracked, b.tracked)!,
    f: mergeRecordsBy(a.f, b.f, (x, y) => later(x, y)!),
    p: mergeRecordsBy(a.p, b.p, (x, y) => (compareStamps(x.s, y.s) >= 0 ? x : y)),
  };
}

/** Keeps every change of both copies. Ledger entries older than an hour before `now` are dropped. */
export function mergeState(a: SyncState, b: SyncState, now?: number): SyncState {
  const ledger = mergeRecordsBy(a.ledger, b.ledger, (x, y) => ({ ...x, ...y }));
  if (now !== undefined) pruneLedger(ledger, now);
  return {
    jobs: mergeRecordsBy(a.jobs, b.jobs, (x, y) => mergeRecordsBy(x, y, mergeJob)),
    drafts: mergeRecordsBy(a.drafts, b.drafts, (x, y) => mergeRecordsBy(x, y, (m, n) => later(m, n)!)),
    // Files written before links were shared have none.
    links: mergeRecordsBy(a.links ?? {}, b.links ?? {}, (x, y) => mergeRecordsBy(x, y, (m, n) => later(m, n)!)),
    // Settled figures agree; should a late event make two differ, the larger total is the later answer.
    trends: mergeRecordsBy(a.trends ?? {}, b.trends ?? {}, (x, y) => mergeRecordsBy(x, y, (m, n) => (n[2] > m[2] ? n : m))),
    openTrends: mergeRecordsBy(a.openTrends ?? {}, b.openTrends ?? {}, (x, y) => mergeRecordsBy(x, y, laterFetch)),
    // Files written before reviews were shared have none.
    reviews: mergeReviews(a.reviews, b.reviews),
    ledger,
    waits: mergeRecordsBy(a.waits, b.waits, Math.max),
    ...lowestSalt(a.salt, b.salt),
  };
}

/** The later fetch; of two at the same instant, the larger figures (so either order gives the same). */
function laterFetch(m: OpenTrendFigures, n: OpenTrendFigures): OpenTrendFigures {
  for (const i of [3, 2, 0, 1] as const) if (m[i] !== n[i]) return n[i] > m[i] ? n : m;
  return m;
}

function lowestSalt(a: string | undefined, b: string | undefined): { salt?: string } {
  const salt = a === undefined ? b : b === undefined ? a : a < b ? a : b;
  return salt === undefined ? {} : { salt };
}

function pruneLedger(ledger: SyncState['ledger'], now: number): void {
  for (const [bucket, entries] of Object.entries(ledger)) {
    const kept = Object.fromEntries(Object.entries(entries).filter(([, at]) => at > now - HOUR_MS));
    if (Object.keys(kept).length) ledger[bucket] = kept;
    else delete ledger[bucket];
  }
}

/**
 * Drops what no window shows and that is older than SHARED_HISTORY_MAX_AGE_MS (see there). Run on
 * the state after every file of a read is merged, never between two files: a tombstone dropped
 * before merging an older copy of its job would let that copy bring the job back.
 */
export function pruneState(state: SyncState, now: number): void {
  const before = now - SHARED_HISTORY_MAX_AGE_MS;
  for (const jobs of Object.values(state.jobs)) {
    for (const [id, job] of Object.entries(jobs)) {
      if (!job.tracked.v && job.tracked.s.t < before) {
        delete jobs[id];
        continue;
      }
      const removedAt = lastRemoval(job);
      for (const [key, prompt] of Object.entries(job.p)) if (compareStamps(prompt.s, removedAt) <= 0 && prompt.s.t < before) delete job.p[key];
    }
  }
  for (const drafts of Object.values(state.drafts)) for (const [key, draft] of Object.entries(drafts)) if (draft.v === null && draft.s.t < before) delete drafts[key];
  for (const links of Object.values(state.links)) {
    for (const [id, link] of Object.entries(links)) {
      const last = Date.parse(link.v.finishedAt ?? link.v.askedAt);
      if (Math.max(Number.isNaN(last) ? 0 : last, link.s.t) < before) delete links[id];
    }
  }
  for (const [project, trends] of Object.entries(state.trends)) {
    const keys = Object.keys(trends);
    if (keys.length <= TRENDS_KEPT_PER_PROJECT) continue;
    // `<metric> <dateFrom> <dateTo>`: the oldest first days go first.
    const byAge = keys.sort((x, y) => (x.slice(x.indexOf(' ')) < y.slice(y.indexOf(' ')) ? -1 : 1));
    state.trends[project] = Object.fromEntries(byAge.slice(-TRENDS_KEPT_PER_PROJECT).map((key) => [key, trends[key]]));
  }
  pruneReviews(state.reviews, before, (project, job) => state.jobs[project]?.[job] !== undefined);
  for (const [project, open] of Object.entries(state.openTrends)) {
    for (const [key, figures] of Object.entries(open)) if (figures[3] <= now - HOUR_MS) delete open[key];
    if (!Object.keys(open).length) delete state.openTrends[project];
  }
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
    let max = this.last;
    const see = (s: Stamp) => (max = Math.max(max, s.t));
    for (const jobs of Object.values(state.jobs)) {
      for (const job of Object.values(jobs)) {
        see(job.tracked.s);
        for (const field of Object.values(job.f)) see(field.s);
        for (const prompt of Object.values(job.p)) see(prompt.s);
      }
    }
    for (const drafts of Object.values(state.drafts)) for (const draft of Object.values(drafts)) see(draft.s);
    for (const links of Object.values(state.links ?? {})) for (const link of Object.values(links)) see(link.s);
    for (const stamp of reviewStamps(state.reviews)) see(stamp);
    this.last = max;
  }
}

/** The removal (if any) that hides prompts sent before it: history starts again on re-tracking. */
export function visiblePrompts(job: JobRecord): SharedPrompt[] {
  const removedAt = lastRemoval(job);
  return Object.values(job.p)
    .filter((p) => compareStamps(p.s, removedAt) > 0)
    .sort((x, y) => compareStamps(x.s, y.s))
    .map(({ text, sentAt }) => ({ text, sentAt }));
}

function lastRemoval(job: JobRecord): Stamp {
  const stoppedAt = job.f.stoppedAt as Versioned<boolean> | undefined;
  return stoppedAt?.s ?? { t: -1, w: '' };
}

/** A change to one job, applied with fresh stamps (see JobStore.upsert for how it is derived). */
export interface JobChange {
  track?: boolean;
  fields?: Record<string, unknown>;
  addPrompts?: readonly SharedPrompt[];
}

export function applyJobChange(state: SyncState, project: string, jobId: string, change: JobChange, clock: HybridClock): void {
  const jobs = (state.jobs[project] ??= {});
  const current = jobs[jobId];
  const s = () => clock.next();
  const record: JobRecord = current ? { tracked: current.tracked, f: { ...current.f }, p: { ...current.p } } : { tracked: { v: true, s: s() }, f: {}, p: {} };
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

export function setDraft(state: SyncState, project: string, key: string, text: string | undefined, clock: HybridClock): void {
  (state.drafts[project] ??= {})[key] = { v: text ?? null, s: clock.next() };
}

export function setSignalLink(state: SyncState, project: string, link: SharedSignalLink, clock: HybridClock): void {
  (state.links[project] ??= {})[link.jobId] = { v: link, s: clock.next() };
}

/** Keeps trend buckets of a project: settled ones for good (no stamp: a settled figure never changes), open ones by their fetch time. */
export function keepTrends(state: SyncState, project: string, settled: Record<string, TrendFigures>, open: Record<string, OpenTrendFigures> = {}): void {
  if (Object.keys(settled).length) state.trends[project] = { ...state.trends[project], ...settled };
  if (Object.keys(open).length) state.openTrends[project] = mergeRecordsBy(state.openTrends[project] ?? {}, open, laterFetch);
}

export function draftOf(state: SyncState, project: string, key: string): string | undefined {
  return state.drafts[project]?.[key]?.v ?? undefined;
}
