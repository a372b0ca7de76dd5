// The panel's and the export's visitors requests go through here (the readers' snapshot reads its
// pages with VISITORS_LIST, in visitorsSnapshot.ts). The platform allows 100 analytics requests per
// organisation per hour, so a page fetched once is kept in memory (going back to page 1 costs
// nothing; see LIVE_PAGE_MAX_AGE_MS for how long), a page already on its way is awaited instead of
// asked for twice, and an export pages by the one paging rule (src/api/paging.ts), so it ends
// whatever the server says.
// No vscode import: the unit tests run this against fakes.
import type { CallOptions, Grant } from '../api/client';
import { ENDPOINTS } from '../api/endpoints';
import { ApiError } from '../api/errors';
import type { VisitorsQuery } from '../api/inputs';
import { type CutShort, type ListSpec, readPages } from '../api/paging';
import type { VisitorRow, VisitorsPage, VisitorTotals } from '../api/schemas';
import { localToday } from '../util/days';

/** ApiClient.getVisitors, or a fake of it. */
export type FetchVisitors = (projectId: string, query: VisitorsQuery, options: CallOptions) => Promise<VisitorsPage>;

/** What makes two pages interchangeable. */
export interface PageKey {
  projectId: string;
  dateFrom: string | undefined;
  dateTo: string | undefined;
  pageSize: number;
}

function keyId(key: PageKey): string {
  return JSON.stringify([key.projectId, key.dateFrom ?? null, key.dateTo ?? null, key.pageSize]);
}

export function offsetOf(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

export interface LoadedPage {
  page: VisitorsPage;
  /** Epoch milliseconds when the request for this page was sent. */
  fetchedAt: number;
  fromCache: boolean;
}

/**
 * Pages by key and page number, least recently used dropped first. 400 pages of 250 rows is a few
 * megabytes at most, and no one pages through more than that in one window.
 */
export class PageCache {
  private readonly pages = new Map<string, { page: VisitorsPage; fetchedAt: number }>();

  constructor(private readonly maxPages = 400) {}

  get size(): number {
    return this.pages.size;
  }

  get(key: PageKey, page: number): LoadedPage | undefined {
    const id = `${keyId(key)}#${page}`;
    const entry = this.pages.get(id);
    if (!entry) return undefined;
    // Map keeps insertion order: moving the entry to the end makes it the most recently used.
    this.pages.delete(id);
    this.pages.set(id, entry);
    return { ...entry, fromCache: true };
  }

  set(key: PageKey, page: number, value: VisitorsPage, fetchedAt: number): void {
    const id = `${keyId(key)}#${page}`;
    this.pages.delete(id);
    this.pages.set(id, { page: value, fetchedAt });
    for (const oldest of this.pages.keys()) {
      if (this.pages.size <= this.maxPages) break;
      this.pages.delete(oldest);
    }
  }

  delete(key: PageKey, page: number): void {
    this.pages.delete(`${keyId(key)}#${page}`);
  }

  /** Forgets every page of one key (Refresh); other ranges and page sizes stay. */
  clear(key: PageKey): void {
    const prefix = `${keyId(key)}#`;
    for (const id of [...this.pages.keys()]) if (id.startsWith(prefix)) this.pages.delete(id);
  }
}

/**
 * How long a page of a range that includes today stays in memory: its figures still grow, so after
 * 15 minutes the next look fetches it again. A range that ended before today cannot change and is
 * kept until the window reloads. (All time has no end, so it counts as including today.)
 */
export const LIVE_PAGE_MAX_AGE_MS = 15 * 60_000;

/** One request on its way, shared by everyone who asked for that page while it is. */
interface Flight {
  promise: Promise<LoadedPage>;
  controller: AbortController;
  /** Askers still waiting; when the last one gives up (its signal aborts), the request is aborted. */
  waiters: number;
}

/** The panel's pages: from memory when fetched lately enough, else one request shared by all who ask. */
export class VisitorsPager {
  private readonly inFlight = new Map<string, Flight>();
  private readonly lifetime = new AbortController();

  constructor(
    private readonly fetchPage: FetchVisitors,
    private readonly cache = new PageCache(),
    private readonly now: () => number = Date.now,
  ) {}

  /** The page if it is in memory and not expired; never a request. */
  cached(key: PageKey, page: number): LoadedPage | undefined {
    const hit = this.cache.get(key, page);
    if (!hit) return undefined;
    if (this.includesToday(key) && this.now() - hit.fetchedAt >= LIVE_PAGE_MAX_AGE_MS) {
      this.cache.delete(key, page);
      return undefined;
    }
    return hit;
  }

  /**
   * The page from memory, or from the API. `refresh` forgets every page of this key first; a request
   * for this very page that is already on its way is fresh enough and is awaited, not repeated.
   * A failed request is forgotten at once, so the next ask starts afresh; so is one that everyone
   * waiting for gave up on (their `signal`s aborted: the panel closed), and it is aborted too.
   */
  load(key: PageKey, page: number, { refresh = false, signal }: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<LoadedPage> {
    if (refresh) this.cache.clear(key);
    const hit = this.cached(key, page);
    if (hit) return Promise.resolve(hit);
    if (signal?.aborted) return Promise.reject(cancelled());
    const id = `${keyId(key)}#${page}`;
    let flight = this.inFlight.get(id);
    if (!flight) {
      const controller = new AbortController();
      const started: Flight = { controller, waiters: 0, promise: this.fetch(key, page, AbortSignal.any([this.lifetime.signal, controller.signal])) };
      const forget = () => {
        if (this.inFlight.get(id) === started) this.inFlight.delete(id);
      };
      void started.promise.then(forget, forget);
      this.inFlight.set(id, started);
      flight = started;
    }
    return this.wait(id, flight, signal);
  }

  /** How many requests are on their way (for tests and the benchmark). */
  get pending(): number {
    return this.inFlight.size;
  }

  private wait(id: string, flight: Flight, signal: AbortSignal | undefined): Promise<LoadedPage> {
    flight.waiters++;
    // Someone who cannot give up keeps the request alive until it ends by itself (its deadline).
    if (!signal) return flight.promise;
    return new Promise<LoadedPage>((resolve, reject) => {
      const giveUp = () => {
        reject(cancelled());
        if (--flight.waiters > 0) return;
        flight.controller.abort();
        if (this.inFlight.get(id) === flight) this.inFlight.delete(id);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', giveUp);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', giveUp);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private includesToday(key: PageKey): boolean {
    // dateTo is exclusive: a range whose day after is later than today includes today.
    return key.dateTo === undefined || key.dateTo > localToday(new Date(this.now()));
  }

  private async fetch(key: PageKey, page: number, signal: AbortSignal): Promise<LoadedPage> {
    // The fetcher asks the hour's gate for this one request (registerAnalytics.ts pageFetcher).
    const fetchedAt = this.now();
    const value = await this.fetchPage(
      key.projectId,
      { dateFrom: key.dateFrom, dateTo: key.dateTo, limit: key.pageSize, offset: offsetOf(page, key.pageSize) },
      { signal },
    );
    this.cache.set(key, page, value, fetchedAt);
    return { page: value, fetchedAt, fromCache: false };
  }

  /** Cancels whatever is still on its way; the window is closing. */
  dispose(): void {
    this.lifetime.abort();
  }
}

function cancelled(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.');
}

// ---- Export: every page of a range --------------------------------------------------------------

export const EXPORT_PAGE_SIZE = ENDPOINTS.getVisitors.pageSize;

/** Visitors and views page alike (the table's offset lists of 250); a page is read in the visitors shape. */
export const VISITORS_LIST: ListSpec<VisitorsPage, VisitorRow> = { ...ENDPOINTS.getVisitors, rows: (page) => page.visitors };

export interface AllVisitors {
  /** Site-wide totals for the range (every page carries the same). */
  totals: VisitorTotals;
  rows: VisitorRow[];
  pages: number;
  /** Set when the export stopped before the API's last page (the paging rule's reasons). */
  cutShort?: CutShort;
}

interface FetchAllOptions {
  signal?: AbortSignal;
  /** After each page: how many pages and rows so far. */
  onPage?: (pages: number, rows: number) => void;
  /** Fewer pages than the table's cap. */
  maxPages?: number;
  /** The grant for these requests (hour/hourGate.ts): when it reserves no more, the fetch is cut short ('notGranted'). */
  grant?: Grant;
}

/**
 * Every page of a range, one after another, by the paging rule. Sequential on purpose: the rate
 * limit is per hour, so parallel requests would not finish sooner, only fail together.
 */
export async function fetchAllVisitors(
  fetchPage: FetchVisitors,
  projectId: string,
  range: { dateFrom: string | undefined; dateTo: string | undefined },
  options: FetchAllOptions = {},
): Promise<AllVisitors> {
  const { grant } = options;
  const all = await readPages(
    VISITORS_LIST,
    (page, signal) => fetchPage(projectId, { dateFrom: range.dateFrom, dateTo: range.dateTo, ...page }, { signal, grant }),
    options,
  );
  return { totals: all.first?.totals ?? { human: 0, ai: 0, total: 0 }, rows: all.rows, pages: all.pages, ...(all.cutShort && { cutShort: all.cutShort }) };
}
