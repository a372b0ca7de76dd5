// The answers of the reader-signals endpoints, paged exactly as the OpenAPI says:
// feedback/by-page has no paging (limit only, `hasMore`), feedback and searches have opaque cursors,
// assistant a ULID cursor (the last id seen), views limit/offset like visitors.

import { errorReply, jsonReply, type Reply } from './http';
import type { SignalsRouteName } from './routes';
import type { SignalsDataSet } from './signals';
import type { VisitorsDataSet } from './visitors';
import { pageOf } from './visitors';
import { checkAnalyticsQuery, type AnalyticsQuery, type AnalyticsQuerySpec, type Checked } from './validate';

export const SIGNALS_QUERY: Record<SignalsRouteName, AnalyticsQuerySpec> = {
  feedbackByPage: { defaultLimit: 10, maxLimit: 100, paging: 'none', filters: true },
  feedback: { defaultLimit: 50, maxLimit: 100, paging: 'cursor', filters: true },
  assistant: { defaultLimit: 100, maxLimit: 1000, paging: 'ulidCursor' },
  searches: { defaultLimit: 50, maxLimit: 100, paging: 'cursor' },
  views: { defaultLimit: 50, maxLimit: 250, paging: 'offset' },
};

export function checkSignalsQuery(name: SignalsRouteName, params: URLSearchParams): Checked<AnalyticsQuery> {
  return checkAnalyticsQuery(params, SIGNALS_QUERY[name]);
}

/** The answer to a checked query (the rate-limit slot is already taken). */
export function answerSignals(name: SignalsRouteName, query: AnalyticsQuery, signals: SignalsDataSet, visitors: VisitorsDataSet): Reply {
  const { fromMs, toMs, limit } = query;
  switch (name) {
    case 'views': {
      const page = pageOf(visitors.queryViews(fromMs, toMs), limit, query.offset);
      return jsonReply(200, { totals: page.totals, views: page.visitors, hasMore: page.hasMore });
    }
    case 'feedbackByPage': {
      const rows = signals.byPage(filterFeedback(signals, query));
      return jsonReply(200, { feedback: rows.slice(0, limit), hasMore: rows.length > limit });
    }
    case 'feedback': {
      const start = readCursor(query.cursor);
      if (start === undefined) return badCursor();
      const items = filterFeedback(signals, query);
      const end = start + limit;
      return jsonReply(200, { feedback: items.slice(start, end), nextCursor: end < items.length ? cursorOf(end) : null, hasMore: end < items.length });
    }
    case 'searches': {
      const start = readCursor(query.cursor);
      if (start === undefined) return badCursor();
      const { rows, totalSearches } = signals.searchesIn(fromMs, toMs);
      const end = start + limit;
      return jsonReply(200, { searches: rows.slice(start, end), totalSearches, nextCursor: end < rows.length ? cursorOf(end) : null });
    }
    case 'assistant': {
      // Newest first; the cursor is the id of the last turn seen, and ULIDs sort by time.
      const turns = signals.turnsIn(fromMs, toMs);
      const cursor = query.cursor;
      const start = cursor === undefined ? 0 : firstAfter(turns, cursor);
      const page = turns.slice(start, start + limit);
      const more = start + limit < turns.length;
      return jsonReply(200, { conversations: page, nextCursor: more ? (page.at(-1)?.id ?? null) : null, hasMore: more });
    }
  }
}

export function answerThread(signals: SignalsDataSet, threadId: string): Reply {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(threadId)) return errorReply(400, 'Invalid thread ID', ['threadId must be a ULID']);
  const thread = signals.thread(threadId);
  return thread ? jsonReply(200, thread) : errorReply(404, 'Thread not found');
}

function filterFeedback(signals: SignalsDataSet, { fromMs, toMs, source, statuses }: AnalyticsQuery) {
  return signals
    .feedbackIn(fromMs, toMs)
    .filter((item) => (source === undefined || item.source === source) && (statuses === undefined || statuses.includes(item.status)));
}

/** Index of the first turn older than the cursor's (the list is id descending). */
function firstAfter(turns: readonly { id: string }[], cursor: string): number {
  let low = 0;
  let high = turns.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((turns[mid]?.id ?? '') >= cursor) low = mid + 1;
    else high = mid;
  }
  return low;
}

function cursorOf(offset: number): string {
  return Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
}

/** 0 without a cursor; undefined for one this server did not make. */
function readCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

function badCursor(): Reply {
  return errorReply(400, 'Invalid query parameters', ['cursor is not valid']);
}
