// The counts behind "Did it help?" for one window: the page's contextual votes (feedback,
// source=contextual), the assistant questions asked on it, and the searches of the terms the job
// addressed. Only on request: it costs ceil(votes/100) + ceil(turns/1000) + up to SEARCH_PAGES
// requests per window. Pure: no vscode; the API is passed in.
import type { ApiClient } from '../api/client';
import type { WindowCounts } from './didItHelp';
import { normalizeSitePath } from '../docs/sitePaths';
import { PAGE_SIZE, SEARCH_PAGES } from './snapshot';

export async function countWindow(
  api: ApiClient,
  projectId: string,
  target: { path: string; searches: readonly string[] },
  window: { dateFrom: string; dateTo: string },
  signal?: AbortSignal,
): Promise<WindowCounts & { requests: number }> {
  const counts = { votesUp: 0, votesDown: 0, questions: 0, unanswered: 0, searches: 0, searchClicks: 0, requests: 0 };
  for (let cursor: string | undefined; ; ) {
    const page = await api.getFeedback(projectId, { ...window, source: 'contextual', limit: PAGE_SIZE.feedback, ...(cursor && { cursor }) }, { signal });
    counts.requests++;
    for (const item of page.feedback) {
      if (normalizeSitePath(item.path) !== target.path || item.helpful === undefined) continue;
      if (item.helpful) counts.votesUp++;
      else counts.votesDown++;
    }
    cursor = page.nextCursor ?? undefined;
    if (!cursor || !page.feedback.length) break;
  }
  for (let cursor: string | undefined; ; ) {
    const page = await api.getAssistant(projectId, { ...window, limit: PAGE_SIZE.assistant, ...(cursor && { cursor }) }, { signal });
    counts.requests++;
    for (const turn of page.conversations) {
      if (!turn.pageUrl || normalizeSitePath(turn.pageUrl) !== target.path) continue;
      counts.questions++;
      if (turn.resolutionStatus === 'unanswered') counts.unanswered++;
    }
    cursor = page.nextCursor ?? undefined;
    if (!cursor || !page.conversations.length) break;
  }
  const wanted = new Set(target.searches);
  for (let cursor: string | undefined, n = 0; wanted.size && n < SEARCH_PAGES; n++) {
    const page = await api.getSearches(projectId, { ...window, limit: PAGE_SIZE.searches, ...(cursor && { cursor }) }, { signal });
    counts.requests++;
    for (const row of page.searches) {
      if (!wanted.delete(row.searchQuery)) continue;
      counts.searches += row.hits;
      counts.searchClicks += Math.round(row.hits * row.ctr);
    }
    cursor = page.nextCursor ?? undefined;
    if (!cursor || !page.searches.length) break;
  }
  return counts;
}
