// The site's own search as every window shares it (src/search): the `searchChecks` area (the site's
// domain identifier → term → what its search returned, when: a term's results are kept for a day
// and shared by every window) and the `searchJobs` area (project → job → the terms it addresses, with
// their results before the job and after its change went live). Both are bounded: a check is kept a
// day and at most MAX_KEPT_CHECKS of them in all; a job's replay goes with its job, at most
// MAX_REPLAY_TERMS terms, each result a path cut to MAX_HIT_PATH characters. Their schemas are in
// sharedSchema.ts, their entries in syncState.ts's table. No vscode import.
import { eitherOf, type SearchCheck, type SearchReplay, type Stamp, type Versioned } from './sharedSchema';
import { HOUR_MS } from '../util/clock';

export type { SearchCheck, SearchHit, SearchReplay, SearchTermReplay } from './sharedSchema';

/** How long a term's results are kept (and reused instead of searched again). */
export const CHECK_KEPT_MS = 24 * HOUR_MS;
/** The most checks kept, all sites together (the newest). */
export const MAX_KEPT_CHECKS = 100;
/** The most results kept of one search, the characters of a result's path, and the results whose content is kept (that many characters). */
export const MAX_KEPT_HITS = 10;
export const MAX_HIT_PATH = 160;
export const CONTENT_HITS = 3;
export const MAX_HIT_CONTENT = 120;
/** The most terms a job's replay holds (the evidence block quotes at most this many searches: src/signals/evidencePrompt.ts). */
export const MAX_REPLAY_TERMS = 8;

/** domain → term → check. */
export type SharedSearchChecks = Record<string, Record<string, SearchCheck>>;
/** project id → job id → its replay. */
type SharedSearchJobs = Record<string, Record<string, Versioned<SearchReplay>>>;

/** The later check; two at the same instant are told apart by their values. */
export function laterCheck(a: SearchCheck, b: SearchCheck): SearchCheck {
  return a.at !== b.at ? (a.at > b.at ? a : b) : eitherOf(a, b);
}

/** Drops the checks older than a day, then all but the MAX_KEPT_CHECKS newest (ties by domain and term, so every window keeps the same). */
export function pruneChecks(checks: SharedSearchChecks, now: number): void {
  const kept: { domain: string; term: string; at: number }[] = [];
  for (const [domain, terms] of Object.entries(checks)) {
    for (const [term, check] of Object.entries(terms)) {
      if (check.at <= now - CHECK_KEPT_MS) delete terms[term];
      else kept.push({ domain, term, at: check.at });
    }
  }
  kept.sort((a, b) => b.at - a.at || compare(a.domain, b.domain) || compare(a.term, b.term));
  for (const { domain, term } of kept.slice(MAX_KEPT_CHECKS)) delete checks[domain]?.[term];
  for (const [domain, terms] of Object.entries(checks)) if (!Object.keys(terms).length) delete checks[domain];
}

/** A job's replay goes with the job (kept while the shared state holds the job, its tombstone included). */
export function pruneSearchJobs(jobs: SharedSearchJobs, hasJob: (project: string, job: string) => boolean): void {
  for (const [project, replays] of Object.entries(jobs)) {
    for (const job of Object.keys(replays)) if (!hasJob(project, job)) delete replays[job];
    if (!Object.keys(replays).length) delete jobs[project];
  }
}

export function* searchJobStamps(jobs: SharedSearchJobs): Iterable<Stamp> {
  for (const replays of Object.values(jobs)) for (const replay of Object.values(replays)) yield replay.s;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
