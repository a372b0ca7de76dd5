// The one paging rule: every list the extension reads goes page after page through readPages, by
// its paging kind from the endpoint table, and every fetch ends. A server that misbehaves (the
// same cursor again, a cursor that changes for ever, `hasMore` with empty pages, the same rows at
// every offset) costs a few requests, never the organisation's hour. Pure: no vscode.
//
// A fetch stops at its natural end (no next cursor, `hasMore` false, or the one page of a list
// without paging), or else is cut short, which is not an error: the rows read so far come back
// with the reason, for the view to say.
//   cap            the depth cap (the table's maxPages, or less when the caller asks)
//   repeatedCursor the next cursor is one already sent
//   emptyPage      a page with no rows, although the API said there were more
//   noNewRows      a page whose rows were all seen before (by the table's rowId)
//   notGranted     the request's grant gave no reservation for the next one (hour/hourGate.ts): nothing
//                  more was sent (the ApiError kind of the same name, read as a cut, not a failure)
import type { ListQuery, Paging } from './endpoints';
import { isApiError } from './errors';

/**
 * The readers' default cap on a background fetch of the visitors (the setting readers.maxPages):
 * 40 pages is 10,000 paths, 40 of the 100 requests an hour. Here, below the settings hub and the
 * features that read it, so neither imports the other for it.
 */
export const DEFAULT_MAX_PAGES = 40;

type CutShortReason = 'cap' | 'repeatedCursor' | 'emptyPage' | 'noNewRows' | 'notGranted';

export interface CutShort {
  reason: CutShortReason;
  /** Pages read before it stopped. */
  pages: number;
}

/** What paging needs of a list: an endpoint table entry, or one with `rows` reading a page reshaped by its caller. */
export interface ListSpec<P, R> {
  paging: Paging;
  pageSize: number;
  maxPages: number;
  rows(page: P): readonly R[];
  rowId(row: R): string;
}

/** The fields a page answers its paging with (cursor lists: `nextCursor`, and some `hasMore`; the others `hasMore`). */
interface PagingFields {
  nextCursor?: string | null;
  hasMore?: boolean;
}

/** What a page request adds to the caller's query: the page size, and the offset or the cursor. */
export type PageQuery = Pick<ListQuery, 'limit' | 'offset' | 'cursor'>;

interface ReadPagesOptions<R = unknown> {
  /** Fewer pages than the table's cap (never more). */
  maxPages?: number;
  signal?: AbortSignal;
  /** After each page that brought rows: pages and rows so far. */
  onPage?: (pages: number, rows: number) => void;
  /** Asked before every request: true ends the fetch there, as a natural end (the caller has what it came for). */
  enough?: (rows: readonly R[]) => boolean;
}

interface Pages<P, R> {
  /** Every row read, each once (by rowId), in the API's order. */
  rows: R[];
  /** The first page (totals and counts that every page repeats); undefined when none was read. */
  first: P | undefined;
  /** Requests sent. */
  pages: number;
  cutShort?: CutShort;
}

export async function readPages<P extends PagingFields, R>(
  list: ListSpec<P, R>,
  fetchPage: (query: PageQuery, signal: AbortSignal | undefined) => Promise<P>,
  options: ReadPagesOptions<R> = {},
): Promise<Pages<P, R>> {
  const cap = Math.max(1, Math.min(options.maxPages ?? list.maxPages, list.maxPages));
  const seen = new Set<string>();
  const sentCursors = new Set<string>();
  const rows: R[] = [];
  let first: P | undefined;
  let pages = 0;
  let cursor: string | undefined;
  const end = (reason?: CutShortReason): Pages<P, R> => ({ rows, first, pages, ...(reason && { cutShort: { reason, pages } }) });

  for (;;) {
    if (options.enough?.(rows)) return end();
    options.signal?.throwIfAborted();
    const query: PageQuery = { limit: list.pageSize };
    if (list.paging === 'offset') query.offset = pages * list.pageSize;
    if (cursor !== undefined) query.cursor = cursor;
    let page: P;
    try {
      page = await fetchPage(query, options.signal);
    } catch (error) {
      // The gate refused this page before it was sent: what was read stands, cut short.
      if (isApiError(error) && error.kind === 'notGranted') return end('notGranted');
      throw error;
    }
    pages++;
    first ??= page;
    const pageRows = list.rows(page);
    let fresh = 0;
    for (const row of pageRows) {
      const id = list.rowId(row);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(row); // one by one: spreading a huge page into push() would overflow the stack
      fresh++;
    }
    if (pageRows.length) options.onPage?.(pages, rows.length);

    const next = list.paging === 'cursor' && page.hasMore !== false ? (page.nextCursor ?? undefined) : undefined;
    const more = list.paging === 'cursor' ? next !== undefined : page.hasMore === true;
    if (!more) return end();
    if (pageRows.length === 0) return end('emptyPage');
    if (fresh === 0) return end('noNewRows');
    if (next !== undefined) {
      if (sentCursors.has(next)) return end('repeatedCursor');
      sentCursors.add(next);
      cursor = next;
    }
    // A list without paging has said there is more than its one page: that is its cap.
    if (pages >= cap || list.paging === 'none') return end('cap');
  }
}

/**
 * `fetchPage`, calling `count` for every request that left this machine: a page the hour's gate
 * refused, or any other call stopped before sending (ApiError `reached: 'no'`), is not one.
 */
export function countingSent<A extends unknown[], P>(fetchPage: (...args: A) => Promise<P>, count: () => void): (...args: A) => Promise<P> {
  return async (...args) => {
    try {
      const page = await fetchPage(...args);
      count();
      return page;
    } catch (error) {
      if (!(isApiError(error) && error.reached === 'no')) count();
      throw error;
    }
  };
}
