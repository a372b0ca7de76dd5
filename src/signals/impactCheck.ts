// The counts behind "Did it help?" for one window: the page's contextual votes (feedback,
// source=contextual), the assistant questions asked on it, and the searches of the terms the job
// addressed. Only on request, each list by the one paging rule (src/api/paging.ts): at most the
// table's depth caps (20 + 10 + 5 requests) per window, each request reserved by the hour's grant.
// Pure: no vscode; the API is passed in.
import type { ApiClient, Grant } from '../api/client';
import { ENDPOINTS } from '../api/endpoints';
import { countingSent, type CutShort, type PageQuery, readPages } from '../api/paging';
import type { WindowCounts } from './didItHelp';
import { normalizeSitePath } from '../docs/sitePaths';

/** The most requests one window can take. */
export const WINDOW_MOST_REQUESTS = ENDPOINTS.getFeedback.maxPages + ENDPOINTS.getAssistant.maxPages + ENDPOINTS.getSearches.maxPages;

/** The window's lists the paging rule cut short: its counts cover the rows read. */
export type WindowCuts = Partial<Record<'votes' | 'questions' | 'searches', CutShort>>;

interface WindowOptions {
  signal?: AbortSignal;
  /** The grant (hour/hourGate.ts): when it reserves no more, the window's lists are cut short ('notGranted'). */
  grant: Grant;
}

export async function countWindow(
  api: ApiClient,
  projectId: string,
  target: { path: string; searches: readonly string[] },
  window: { dateFrom: string; dateTo: string },
  { signal, grant }: WindowOptions,
): Promise<WindowCounts & { requests: number; cutShort: WindowCuts }> {
  const counts = { votesUp: 0, votesDown: 0, questions: 0, unanswered: 0, searches: 0, searchClicks: 0, requests: 0, cutShort: {} as WindowCuts };
  const query = (page: PageQuery) => ({ ...window, ...page });
  const counted = countingSent(
    <P>(fetch: () => Promise<P>) => fetch(),
    () => counts.requests++,
  );
  const options = { signal };

  const votes = await readPages(
    ENDPOINTS.getFeedback,
    (page) => counted(() => api.getFeedback(projectId, { ...query(page), source: 'contextual' }, { signal, grant })),
    options,
  );
  for (const item of votes.rows) {
    if (normalizeSitePath(item.path) !== target.path || item.helpful === undefined) continue;
    if (item.helpful) counts.votesUp++;
    else counts.votesDown++;
  }

  const turns = await readPages(ENDPOINTS.getAssistant, (page) => counted(() => api.getAssistant(projectId, query(page), { signal, grant })), options);
  for (const turn of turns.rows) {
    if (!turn.pageUrl || normalizeSitePath(turn.pageUrl) !== target.path) continue;
    counts.questions++;
    if (turn.resolutionStatus === 'unanswered') counts.unanswered++;
  }

  // Only until every addressed term is found: no request when the job addressed none.
  const wanted = new Set(target.searches);
  const searches = await readPages(ENDPOINTS.getSearches, (page) => counted(() => api.getSearches(projectId, query(page), { signal, grant })), {
    ...options,
    enough: (rows) => rows.filter((row) => wanted.has(row.searchQuery)).length === wanted.size,
  });
  for (const row of searches.rows) {
    if (!wanted.has(row.searchQuery)) continue;
    counts.searches += row.hits;
    counts.searchClicks += Math.round(row.hits * row.ctr);
  }

  if (votes.cutShort) counts.cutShort.votes = votes.cutShort;
  if (turns.cutShort) counts.cutShort.questions = turns.cutShort;
  if (searches.cutShort) counts.cutShort.searches = searches.cutShort;
  return counts;
}
