// One snapshot of every reader signal for a date range, fetched with as few requests as the page
// sizes allow, and small enough to keep across reloads. Pure: no vscode; the API is passed in.
//
// What it costs (each endpoint at its largest page):
//   feedback/by-page   1 request (no paging; at most 100 pages, `byPageHasMore` says when there are more)
//   feedback           ceil(pending items / 100), only status=pending: the comments waiting for a writer
//   assistant          ceil(turns / 1000); only the unanswered turns are kept
//   searches           ceil(terms / 100), at most SEARCH_PAGES (the 500 most searched terms)
//   views              ceil(pages / 250), at most VIEW_PAGES (the 1,000 most viewed pages)
// Gaps worth a writer's time are among the most searched terms and the most read pages, so the
// depth limits cut the long tail, never the top; the snapshot says when it did.
import { addDays, localToday } from '../util/days';
import type { ApiError } from '../api/errors';
import type { ApiClient } from '../api/client';
import type { FeedbackByPageRow } from '../api/signalsSchemas';
import { normalizeSitePath } from '../docs/sitePaths';

/** The range every signal covers: the last 30 days, today included. */
const RANGE_DAYS = 30;
export const SEARCH_PAGES = 5;
export const VIEW_PAGES = 4;
export const PAGE_SIZE = { feedback: 100, assistant: 1000, searches: 100, views: 250, byPage: 100 } as const;
/** Reader text kept per item; the prompt quotes less, and says how much it left out. */
const MAX_KEPT_TEXT = 2_000;

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
  /** Requests this snapshot took, and the fewest the page sizes allow for the same rows. */
  requests: number;
  minimum: number;
}

export class SnapshotStopped extends Error {
  constructor(
    readonly reason: 'budget' | 'error',
    readonly requests: number,
    readonly apiError?: ApiError,
  ) {
    super(reason === 'budget' ? 'The request budget for signals is used up.' : (apiError?.message ?? 'The snapshot failed.'));
  }
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Asked before every request; false stops the snapshot (nothing is kept). */
  mayRequest?: () => boolean;
  /** Called after every request that was sent. */
  onRequest?: () => void;
  now?: () => number;
}

export function currentRange(today = localToday()): SnapshotRange {
  return { dateFrom: addDays(today, -(RANGE_DAYS - 1)), dateTo: addDays(today, 1) };
}

/** The fewest requests that fetch these many rows at the largest page sizes. */
export function minimumRequests(rows: { pending: number; turns: number; searches: number; views: number }): number {
  const pages = (n: number, size: number) => Math.max(1, Math.ceil(n / size));
  return 1 + pages(rows.pending, PAGE_SIZE.feedback) + pages(rows.turns, PAGE_SIZE.assistant) + pages(rows.searches, PAGE_SIZE.searches) + pages(rows.views, PAGE_SIZE.views);
}

export async function fetchSnapshot(api: ApiClient, projectId: string, range: SnapshotRange, options: FetchOptions = {}): Promise<SignalsSnapshot> {
  let requests = 0;
  const { signal } = options;
  const request = async <T>(send: () => Promise<T>): Promise<T> => {
    if (options.mayRequest && !options.mayRequest()) throw new SnapshotStopped('budget', requests);
    requests++;
    try {
      return await send();
    } finally {
      options.onRequest?.();
    }
  };
  const dates = { dateFrom: range.dateFrom, dateTo: range.dateTo };

  const byPage = await request(() => api.getFeedbackByPage(projectId, { ...dates, limit: PAGE_SIZE.byPage }, { signal }));

  const pending: PendingComment[] = [];
  let pendingItems = 0;
  for (let cursor: string | undefined; ; ) {
    const page = await request(() => api.getFeedback(projectId, { ...dates, status: 'pending', limit: PAGE_SIZE.feedback, ...(cursor && { cursor }) }, { signal }));
    pendingItems += page.feedback.length;
    for (const item of page.feedback) {
      if (item.comment?.trim()) pending.push({ id: item.id, path: normalizeSitePath(item.path), comment: keep(item.comment), createdAt: item.createdAt ?? undefined, source: item.source });
    }
    cursor = page.nextCursor ?? undefined;
    if (!cursor || page.feedback.length === 0) break;
  }

  const questions: UnansweredQuestion[] = [];
  let turnCount = 0;
  for (let cursor: string | undefined; ; ) {
    const page = await request(() => api.getAssistant(projectId, { ...dates, limit: PAGE_SIZE.assistant, ...(cursor && { cursor }) }, { signal }));
    turnCount += page.conversations.length;
    for (const turn of page.conversations) {
      if (turn.resolutionStatus !== 'unanswered') continue;
      questions.push({
        id: turn.id,
        timestamp: turn.timestamp,
        query: keep(turn.query),
        path: turn.pageUrl ? normalizeSitePath(turn.pageUrl) : undefined,
        category: turn.queryCategory ?? undefined,
      });
    }
    cursor = page.nextCursor ?? undefined;
    if (!cursor || page.conversations.length === 0) break;
  }

  const searches: SearchSignal[] = [];
  let totalSearches = 0;
  let searchesComplete = false;
  for (let cursor: string | undefined, n = 0; n < SEARCH_PAGES; n++) {
    const page = await request(() => api.getSearches(projectId, { ...dates, limit: PAGE_SIZE.searches, ...(cursor && { cursor }) }, { signal }));
    totalSearches = page.totalSearches;
    searches.push(
      ...page.searches.map((row) => ({
        searchQuery: row.searchQuery,
        hits: row.hits,
        ctr: row.ctr,
        topClickedPage: row.topClickedPage ? normalizeSitePath(row.topClickedPage) : null,
        lastSearchedAt: row.lastSearchedAt,
      })),
    );
    cursor = page.nextCursor ?? undefined;
    if (!cursor || page.searches.length === 0) {
      searchesComplete = true;
      break;
    }
  }

  const views: ViewCounts[] = [];
  let viewsTotals = { human: 0, ai: 0, total: 0 };
  let viewsComplete = false;
  for (let n = 0; n < VIEW_PAGES; n++) {
    const offset = n * PAGE_SIZE.views;
    const page = await request(() => api.getViews(projectId, { ...dates, limit: PAGE_SIZE.views, offset }, { signal }));
    viewsTotals = page.totals;
    views.push(...page.views.map((row) => ({ path: normalizeSitePath(row.path), human: row.human, ai: row.ai, total: row.total })));
    if (!page.hasMore || page.views.length === 0) {
      viewsComplete = true;
      break;
    }
  }

  return {
    version: 1,
    projectId,
    range,
    fetchedAt: new Date(options.now?.() ?? Date.now()).toISOString(),
    byPage: byPage.feedback.map((row) => ({ ...row, path: normalizeSitePath(row.path) })),
    byPageHasMore: byPage.hasMore,
    pending,
    questions,
    turnCount,
    searches,
    totalSearches,
    searchesComplete,
    views,
    viewsTotals,
    viewsComplete,
    requests,
    minimum: minimumRequests({ pending: pendingItems, turns: turnCount, searches: searches.length, views: views.length }),
  };
}

function keep(text: string): KeptText {
  return text.length > MAX_KEPT_TEXT ? { text: text.slice(0, MAX_KEPT_TEXT), fullLength: text.length } : { text };
}

/** A snapshot read back from storage, or undefined when it is not one this version wrote. */
export function parseStoredSnapshot(value: unknown): SignalsSnapshot | undefined {
  const v = value as Partial<SignalsSnapshot> | null | undefined;
  if (v?.version !== 1 || typeof v.projectId !== 'string' || typeof v.fetchedAt !== 'string') return undefined;
  if (!Array.isArray(v.byPage) || !Array.isArray(v.pending) || !Array.isArray(v.questions) || !Array.isArray(v.searches) || !Array.isArray(v.views)) return undefined;
  return v as SignalsSnapshot;
}
