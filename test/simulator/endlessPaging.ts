// Servers whose paging never ends (fault `pagingNeverEnds`), the ways a real one can: what a mock
// answering the OpenAPI's examples does (the same next cursor on every page), a cursor that
// changes for ever over rows that never run out, `hasMore` true over empty pages, and pages that
// repeat the same rows whatever the offset or cursor. Every list route answers in its own shape,
// valid by the spec, so only the paging misbehaves.

import { jsonReply, type Reply } from './http';
import type { Route } from './routes';
import type { EndlessPaging } from './types';

type ListRoute = 'visitors' | 'views' | 'feedback' | 'feedbackByPage' | 'assistant' | 'searches';
const OFFSET: ReadonlySet<string> = new Set(['visitors', 'views']);
const CURSOR: ReadonlySet<string> = new Set(['feedback', 'assistant', 'searches']);

export function isListRoute(route: Route | undefined): route is Route & { name: ListRoute } {
  return route !== undefined && (OFFSET.has(route.name) || CURSOR.has(route.name) || route.name === 'feedbackByPage');
}

/**
 * The page for `how`; `served` counts the answers this route gave under the fault before this one
 * (the page index when the cursor does not move).
 */
export function endlessPage(route: ListRoute, how: EndlessPaging, params: URLSearchParams, served: number): Reply {
  const limit = Math.max(1, Math.min(Number(params.get('limit') ?? 50) || 50, 1000));
  const cursorIndex = /^e(\d+)$/.exec(params.get('cursor') ?? '')?.[1];
  // Which slice of never-ending rows this page holds: from the offset, the cursor, or the count.
  const index = OFFSET.has(route) ? Math.floor(Number(params.get('offset') ?? 0) / limit) : how === 'sameCursor' ? served : Number(cursorIndex ?? 0);
  const first = how === 'sameRows' ? 0 : index * limit;
  const count = how === 'emptyPages' ? 0 : limit;
  const rows = Array.from({ length: count }, (_, i) => rowOf(route, first + i));
  const nextCursor = how === 'sameCursor' ? 'e-same' : `e${index + 1}`;
  switch (route) {
    case 'visitors':
      return jsonReply(200, { totals: TOTALS, visitors: rows, hasMore: true });
    case 'views':
      return jsonReply(200, { totals: TOTALS, views: rows, hasMore: true });
    case 'feedbackByPage':
      return jsonReply(200, { feedback: rows, hasMore: true });
    case 'feedback':
      return jsonReply(200, { feedback: rows, nextCursor, hasMore: true });
    case 'assistant':
      return jsonReply(200, { conversations: rows, nextCursor, hasMore: true });
    case 'searches':
      return jsonReply(200, { searches: rows, totalSearches: 1_000_000, nextCursor });
  }
}

const TOTALS = { human: 1_000_000, ai: 1_000_000, total: 2_000_000 };
const AT = '2025-01-01T00:00:00.000Z';

function rowOf(route: ListRoute, n: number): Record<string, unknown> {
  switch (route) {
    case 'visitors':
    case 'views':
      return { path: `/endless/${n}`, human: 1, ai: 1, total: 2 };
    case 'feedbackByPage':
      return { path: `/endless/${n}`, thumbsUp: 1, thumbsDown: 1, code: 0, total: 2 };
    case 'feedback':
      return { id: `fb_endless_${n}`, path: `/endless/${n}`, comment: 'Again.', createdAt: AT, source: 'contextual', status: 'pending', helpful: false };
    case 'assistant':
      return {
        id: `01J${String(n).padStart(23, '0')}`,
        timestamp: AT,
        query: `question ${n}`,
        resolutionStatus: 'unanswered',
        queryCategory: null,
        pageUrl: null,
      };
    case 'searches':
      return { searchQuery: `term ${n}`, hits: 1, ctr: 0, topClickedPage: null, lastSearchedAt: AT };
  }
}
