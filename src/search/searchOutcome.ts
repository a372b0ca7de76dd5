// What the site's own search returning a term's results means for a writer: the results as kept
// (site paths by the one mapping, src/docs/sitePaths.ts, and short content), the rank of the page
// the writer expects, which gap it is (a content gap: nothing relevant; a findability gap: the page
// exists but ranks low), and a job's searches before and after its change. Pure: no vscode; every
// rule here is unit-tested.
import type { SearchResults } from '../api/searchSchemas';
import { normalizeSitePath } from '../docs/sitePaths';
import {
  CONTENT_HITS,
  MAX_HIT_CONTENT,
  MAX_HIT_PATH,
  MAX_KEPT_HITS,
  type SearchCheck,
  type SearchHit,
  type SearchReplay,
  type SearchTermReplay,
} from '../sync/searchState';

/** A page within the first FOUND_RANK results is found; below it, readers rarely see it (a findability gap). */
export const FOUND_RANK = 3;
/** How many results a check asks for: enough to see a page ranked 7th. */
export const CHECK_PAGE_SIZE = MAX_KEPT_HITS;

/**
 * The results as kept: each path normalised to a site path (without the site's base path, when it is
 * served under one) and cut, the content of the first few cut short.
 */
export function keptHits(results: SearchResults, basePath = ''): SearchHit[] {
  return results.slice(0, MAX_KEPT_HITS).map((result, i) => {
    const path = cut(result.path ? normalizeSitePath(result.path, basePath) : '', MAX_HIT_PATH);
    const content = i < CONTENT_HITS && result.content ? cut(result.content.replace(/\s+/g, ' ').trim(), MAX_HIT_CONTENT) : undefined;
    return content ? { p: path, c: content } : { p: path };
  });
}

/** The 1-based rank of `page` (a site path) among the check's results, or undefined. */
export function rankOf(check: Pick<SearchCheck, 'hits'>, page: string): number | undefined {
  const wanted = normalizeSitePath(page);
  const index = check.hits.findIndex((hit) => hit.p === wanted);
  return index < 0 ? undefined : index + 1;
}

/**
 * Which gap a term's results show:
 * - `nothing`: the search returns nothing (a content gap);
 * - with the page the writer expects: `found` in the first FOUND_RANK, `findability` lower or not in
 *   the results while the page exists in the workspace, `missing` when it does not exist (a content gap);
 * - `unnamed`: results, and no page expected: which gap it is needs the page readers should find.
 */
export type Gap =
  | { kind: 'nothing' }
  | { kind: 'found'; page: string; rank: number }
  | { kind: 'findability'; page: string; rank: number | undefined }
  | { kind: 'missing'; page: string }
  | { kind: 'unnamed'; results: number };

export function gapOf(check: Pick<SearchCheck, 'hits'>, expect: string | undefined, pageExists: boolean): Gap {
  if (!check.hits.length) return { kind: 'nothing' };
  if (!expect) return { kind: 'unnamed', results: check.hits.length };
  const page = normalizeSitePath(expect);
  const rank = rankOf(check, page);
  if (rank !== undefined && rank <= FOUND_RANK) return { kind: 'found', page, rank };
  if (rank !== undefined || pageExists) return { kind: 'findability', page, rank };
  return { kind: 'missing', page };
}

/** A content gap (nothing relevant to find) or a findability gap (the page is there, readers do not reach it). */
export function isContentGap(gap: Gap): boolean {
  return gap.kind === 'nothing' || gap.kind === 'missing';
}

/** Where a term stands on one search: the best rank of the pages looked for, else whether anything was found. */
export type Standing = { kind: 'finds'; page: string; rank: number } | { kind: 'nothing' } | { kind: 'other'; results: number };

export function standingOf(check: Pick<SearchCheck, 'hits'>, pages: readonly string[]): Standing {
  let best: { page: string; rank: number } | undefined;
  for (const page of pages) {
    const rank = rankOf(check, page);
    if (rank !== undefined && (!best || rank < best.rank)) best = { page: normalizeSitePath(page), rank };
  }
  if (best) return { kind: 'finds', ...best };
  return check.hits.length ? { kind: 'other', results: check.hits.length } : { kind: 'nothing' };
}

export interface TermOutcome {
  term: string;
  before: Standing;
  /** Undefined until the after was searched. */
  after: Standing | undefined;
}

/** A job's searches before and after its change, term by term, and the summary the row, the notification and Did It Help? say. */
export interface ReplayOutcome {
  /** The pages looked for: the page the writer expected, then those the live change changed. */
  pages: string[];
  terms: TermOutcome[];
  /** With an after: the terms that find one of the pages now, and the page most of them find with their ranks. */
  finds: TermOutcome[];
  page: string | undefined;
  ranks: { min: number; max: number } | undefined;
  /** With an after: the terms that still find nothing, and those that find other pages only. */
  nothing: TermOutcome[];
  other: TermOutcome[];
  /** Terms that found nothing before and now find something (any page): what changed for a job whose pages are not known. */
  newlyFound: TermOutcome[];
}

export function replayOutcome(replay: Pick<SearchReplay, 'expect' | 'terms' | 'live'>): ReplayOutcome {
  const pages = [...new Set([replay.expect, ...(replay.live?.pages ?? [])].flatMap((p) => (p ? [normalizeSitePath(p)] : [])))];
  const terms = Object.entries(replay.terms)
    .map(([term, r]: [string, SearchTermReplay]) => ({ term, before: standingOf(r.before, pages), after: r.after && standingOf(r.after, pages) }))
    .sort((a, b) => order(a.after) - order(b.after) || rankKey(a.after) - rankKey(b.after) || compare(a.term, b.term));
  const finds = terms.filter((t) => t.after?.kind === 'finds');
  const counts = new Map<string, number>();
  for (const t of finds) if (t.after?.kind === 'finds') counts.set(t.after.page, (counts.get(t.after.page) ?? 0) + 1);
  const page = [...counts].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]))[0]?.[0];
  const ranks = finds.flatMap((t) => (t.after?.kind === 'finds' && t.after.page === page ? [t.after.rank] : []));
  return {
    pages,
    terms,
    finds,
    page,
    ranks: ranks.length ? { min: Math.min(...ranks), max: Math.max(...ranks) } : undefined,
    nothing: terms.filter((t) => t.after?.kind === 'nothing'),
    other: terms.filter((t) => t.after?.kind === 'other'),
    newlyFound: terms.filter((t) => t.before.kind === 'nothing' && t.after !== undefined && t.after.kind !== 'nothing'),
  };
}

/** The terms to send back to the agent: those that do not find one of the pages after the change. */
export function misses(outcome: ReplayOutcome): TermOutcome[] {
  return outcome.terms.filter((t) => t.after !== undefined && t.after.kind !== 'finds');
}

/** The check of a term as a replay's term takes it: the paths only (a job's record stays small). */
export function pathsOnly(check: SearchCheck): SearchCheck {
  return { at: check.at, hits: check.hits.map((hit) => ({ p: hit.p })), ...(check.expect && { expect: check.expect }) };
}

const order = (s: Standing | undefined) => (s?.kind === 'finds' ? 0 : s?.kind === 'other' ? 1 : s?.kind === 'nothing' ? 2 : 3);
const rankKey = (s: Standing | undefined) => (s?.kind === 'finds' ? s.rank : 0);

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
