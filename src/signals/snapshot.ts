// One snapshot of every reader signal for a date range, fetched with as few requests as the page
// sizes allow, and small enough to keep across reloads. Pure: no vscode; the API is passed in.
// Every list is read by the one paging rule (src/api/paging.ts) at the endpoint table's page
// size and depth cap, so it costs at most:
//   feedback/by-page   1 request (no paging: the 100 pages with the most feedback)
//   feedback           20 (pages of 100), only status=pending: the comments waiting for a writer
//   assistant          10 (pages of 1,000); only the unanswered turns are kept
//   searches           5 (pages of 100: the 500 most searched terms)
//   views              VIEW_PAGES (pages of 250: the 1,000 most viewed pages)
// Gaps worth a writer's time are among the most searched terms and the most read pages, so the
// depth limits cut the long tail, never the top; the snapshot says when a list was cut short.
import { addDays, localToday } from '../util/days';
import type { ApiClient, Grant } from '../api/client';
import { ENDPOINTS } from '../api/endpoints';
import type { ApiError } from '../api/errors';
import { countingSent, type CutShort, type ListSpec, type PageQuery, readPages } from '../api/paging';
import type { FeedbackByPageRow } from '../api/signalsSchemas';
import { normalizeSitePath } from '../docs/sitePaths';

/** The range every signal covers: the last 30 days, today included. */
const RANGE_DAYS = 30;
export const SEARCH_PAGES = ENDPOINTS.getSearches.maxPages;
/** The views the signals rank pages by: the 1,000 most viewed pages are where gaps matter. */
export const VIEW_PAGES = 4;
/** The snapshot's lists, as its notes name them. */
export type SignalsList = 'byPage' | 'pending' | 'questions' | 'searches' | 'views';
/** The most requests one snapshot can take (every list at its depth cap). */
export const MOST_REQUESTS = 1 + ENDPOINTS.getFeedback.maxPages + ENDPOINTS.getAssistant.maxPages + SEARCH_PAGES + VIEW_PAGES;
/** Reader text kept per item; the prompt quotes less, and says how much it left out. */
const MAX_KEPT_TEXT = 2_000;
/**
 * The flagged code block's text kept per code-snippet item. With at most 2,000 pending items
 * (20 pages of 100), a kept snapshot holds at most 2,000 × (2,000 + 2,000) characters of reader
 * and snippet text; a longer block is matched by its kept beginning (src/codeFeedback/blockMatching.ts).
 */
const MAX_KEPT_CODE = 2_000;

export interface KeptText {
  text: string;
  /** The full length, when longer than `text`. */
  fullLength?: number;
}

export interface PendingComment {
  id: string;
  path: string;
  comment: KeptText;
  createdAt: string | undefined;
  source: string;
  /** The API's review status (the snapshot reads pending ones; absent in snapshots kept by older versions). */
  status?: string;
  /** The code block a `code_snippet` item is about (absent on other sources, and in snapshots kept by older versions). */
  snippet?: CodeSnippet;
}

/** The code block a reader flagged, as the feedback carries it: its text (cut to MAX_KEPT_CODE), and its fence's language and file name. */
export interface CodeSnippet {
  code: KeptText;
  lang?: string;
  filename?: string;
}

export interface UnansweredQuestion {
  id: string;
  timestamp: string;
  query: KeptText;
  /** The site path the question was asked on, when the API captured one. */
  path: string | undefined;
  category: string | undefined;
}

export interface ViewCounts {
  path: string;
  human: number;
  ai: number;
  total: number;
}

/** A search term's row; `topClickedPage` is a site path, null when no result was clicked. */
export interface SearchSignal {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string | undefined;
}

export interface SnapshotRange {
  /** Inclusive, YYYY-MM-DD. */
  dateFrom: string;
  /** Exclusive, YYYY-MM-DD. */
  dateTo: string;
}

export interface SignalsSnapshot {
  version: 1;
  projectId: string;
  range: SnapshotRange;
  /** ISO date-time. */
  fetchedAt: string;
  byPage: FeedbackByPageRow[];
  byPageHasMore: boolean;
  pending: PendingComment[];
  questions: UnansweredQuestion[];
  /** Assistant turns in the range, answered or not. */
  turnCount: number;
  searches: SearchSignal[];
  totalSearches: number;
  /** False when SEARCH_PAGES stopped the paging. */
  searchesComplete: boolean;
  views: ViewCounts[];
  viewsTotals: { human: number; ai: number; total: number };
  viewsComplete: boolean;
  /** The lists cut short, and why (absent in snapshots kept by older versions). */
  cutShort?: Partial<Record<SignalsList, CutShort>>;
  /** The API address it was fetched from, set when it is kept (absent in snapshots kept by older versions: the default address's). */
  apiBaseUrl?: string;
  /** Requests this snapshot took, and the fewest the page sizes allow for the same rows. */
  requests: number;
  minimum: number;
}

export class SnapshotStopped extends Error {
  constructor(
    readonly reason: 'notGranted' | 'error',
    readonly requests: number,
    readonly apiError?: ApiError,
  ) {
    super(
      reason === 'notGranted'
        ? 'Not granted: the organisation’s hour has no room for the rest of the signals, so none was kept.'
        : (apiError?.message ?? 'The snapshot failed.'),
    );
  }
}

interface FetchOptions {
  signal?: AbortSignal;
  /**
   * The grant for these requests (hour/hourGate.ts), one reservation a request. When it reserves no
   * more the snapshot stops (SnapshotStopped, nothing kept), or with `partial` the lists read so far
   * are kept, the rest cut short ('notGranted').
   */
  grant: Grant;
  /** A user's fetch: keep what fit in the grant. */
  partial?: boolean;
  /** The path the site is served under (`/docs`), read off every page path and URL the API reports (src/docs/sitePaths.ts). */
  basePath?: string;
  now?: () => number;
}

export function currentRange(today = localToday()): SnapshotRange {
  return { dateFrom: addDays(today, -(RANGE_DAYS - 1)), dateTo: addDays(today, 1) };
}

/** The fewest requests that fetch these many rows at the largest page sizes. */
export function minimumRequests(rows: { pending: number; turns: number; searches: number; views: number }): number {
  const pages = (n: number, size: number) => Math.max(1, Math.ceil(n / size));
  return (
    1 +
    pages(rows.pending, ENDPOINTS.getFeedback.pageSize) +
    pages(rows.turns, ENDPOINTS.getAssistant.pageSize) +
    pages(rows.searches, ENDPOINTS.getSearches.pageSize) +
    pages(rows.views, ENDPOINTS.getViews.pageSize)
  );
}

export async function fetchSnapshot(api: ApiClient, projectId: string, range: SnapshotRange, options: FetchOptions): Promise<SignalsSnapshot> {
  let requests = 0;
  const { signal, grant } = options;
  const pagePath = (value: string) => normalizeSitePath(value, options.basePath);
  const cutShort: Partial<Record<SignalsList, CutShort>> = {};
  const dates = { dateFrom: range.dateFrom, dateTo: range.dateTo };
  /** One list by the paging rule, each request counted, its cut recorded under `list`. */
  const read = async <P extends object, R>(
    list: SignalsList,
    spec: ListSpec<P, R>,
    fetchPage: (query: PageQuery, signal?: AbortSignal) => Promise<P>,
    maxPages?: number,
  ) => {
    const result = await readPages(
      spec,
      countingSent(fetchPage, () => requests++),
      { signal, maxPages },
    );
    // Out of the grant: a background refresh keeps nothing rather than half a snapshot.
    if (result.cutShort?.reason === 'notGranted' && !options.partial) throw new SnapshotStopped('notGranted', requests);
    if (result.cutShort) cutShort[list] = result.cutShort;
    return result;
  };
  const query = (page: PageQuery, filters: { status?: string } = {}) => ({ ...dates, ...filters, ...page });

  const byPage = await read('byPage', ENDPOINTS.getFeedbackByPage, (page, signal) => api.getFeedbackByPage(projectId, query(page), { signal, grant }));

  const feedback = await read('pending', ENDPOINTS.getFeedback, (page, signal) =>
    api.getFeedback(projectId, query(page, { status: 'pending' }), { signal, grant }),
  );
  const pending: PendingComment[] = [];
  for (const item of feedback.rows) {
    if (!item.comment?.trim()) continue;
    const comment: PendingComment = {
      id: item.id,
      path: pagePath(item.path),
      comment: keep(item.comment),
      createdAt: item.createdAt ?? undefined,
      source: item.source,
      status: item.status,
    };
    if (item.code?.trim())
      comment.snippet = { code: keep(item.code, MAX_KEPT_CODE), ...(item.lang && { lang: item.lang }), ...(item.filename && { filename: item.filename }) };
    pending.push(comment);
  }

  const turns = await read('questions', ENDPOINTS.getAssistant, (page, signal) => api.getAssistant(projectId, query(page), { signal, grant }));
  const questions: UnansweredQuestion[] = [];
  for (const turn of turns.rows) {
    if (turn.resolutionStatus !== 'unanswered') continue;
    questions.push({
      id: turn.id,
      timestamp: turn.timestamp,
      query: keep(turn.query),
      path: turn.pageUrl ? pagePath(turn.pageUrl) : undefined,
      category: turn.queryCategory ?? undefined,
    });
  }

  const searchPages = await read('searches', ENDPOINTS.getSearches, (page, signal) => api.getSearches(projectId, query(page), { signal, grant }));
  const searches: SearchSignal[] = searchPages.rows.map((row) => ({
    searchQuery: row.searchQuery,
    hits: row.hits,
    ctr: row.ctr,
    topClickedPage: row.topClickedPage ? pagePath(row.topClickedPage) : null,
    lastSearchedAt: row.lastSearchedAt,
  }));

  const viewPages = await read('views', ENDPOINTS.getViews, (page, signal) => api.getViews(projectId, query(page), { signal, grant }), VIEW_PAGES);
  const views: ViewCounts[] = viewPages.rows.map((row) => ({ path: pagePath(row.path), human: row.human, ai: row.ai, total: row.total }));

  return {
    version: 1,
    projectId,
    range,
    fetchedAt: new Date(options.now?.() ?? Date.now()).toISOString(),
    byPage: byPage.rows.map((row) => ({ ...row, path: pagePath(row.path) })),
    byPageHasMore: cutShort.byPage?.reason === 'cap',
    pending,
    questions,
    turnCount: turns.rows.length,
    searches,
    totalSearches: searchPages.first?.totalSearches ?? 0,
    searchesComplete: !cutShort.searches,
    views,
    viewsTotals: viewPages.first?.totals ?? { human: 0, ai: 0, total: 0 },
    viewsComplete: !cutShort.views,
    ...(Object.keys(cutShort).length && { cutShort }),
    requests,
    minimum: minimumRequests({ pending: feedback.rows.length, turns: turns.rows.length, searches: searches.length, views: views.length }),
  };
}

function keep(text: string, max = MAX_KEPT_TEXT): KeptText {
  return text.length > max ? { text: text.slice(0, max), fullLength: text.length } : { text };
}

/** A snapshot read back from storage, or undefined when it is not one this version wrote. */
export function parseStoredSnapshot(value: unknown): SignalsSnapshot | undefined {
  const v = value as Partial<SignalsSnapshot> | null | undefined;
  if (v?.version !== 1 || typeof v.projectId !== 'string' || typeof v.fetchedAt !== 'string') return undefined;
  if (!Array.isArray(v.byPage) || !Array.isArray(v.pending) || !Array.isArray(v.questions) || !Array.isArray(v.searches) || !Array.isArray(v.views))
    return undefined;
  // A cut by the hour was stored as 'budget' before the refusal had one name: read it as 'notGranted'.
  for (const cut of Object.values(v.cutShort ?? {}) as { reason: string }[]) if (cut.reason === 'budget') cut.reason = 'notGranted';
  return v as SignalsSnapshot;
}
