// An export's pages: every page of its range by the one paging rule, kept across a 429. When the
// platform answers 429 mid-way (teammates spent the organisation's hour), the pages fetched so far
// stay here, the export waits the time the platform named, and goes on from the page after them
// by offset, each request still reserved by the export's own grant. Nothing fetched is fetched
// again, and nothing fetched is thrown away.
//
// What going on relies on, since the published spec does not say in what order rows come: that the
// API answers the same query over a range whose figures no longer change (settled: whole days that
// ended before today) with the same rows in the same order, so offset N on a later call holds the
// rows that followed the pages kept. Rows are kept once per path whatever the order. Over a range
// that includes today the figures move while the export waits, so a path can change page: the
// export still goes on (reading the range again would spend the hour twice and meet the same 429),
// and says its file was read in parts (`moved`). Every page carries the range's totals; totals
// that differ after a wait also mean the figures moved.
// No vscode import: unit-tested against the simulator.
import type { Grant } from '../api/client';
import { ApiError, isApiError } from '../api/errors';
import type { VisitorRow, VisitorsPage, VisitorTotals } from '../api/schemas';
import type { CutShort } from '../api/paging';
import type { Clock } from '../util/clock';
import { isSettled } from './trend/trendBuckets';
import { EXPORT_PAGE_SIZE, fetchAllVisitors, type FetchVisitors, VISITORS_LIST } from './visitorsQuery';

/** A 429 that names no wait: every window holds the family back this long (sync/requestLedger.ts), and so does the export. */
const UNNAMED_WAIT_MS = 60_000;

/** The shortest wait an export takes after a 429 (a `Retry-After: 0` included), so it never asks again in a loop. */
export const SHORTEST_WAIT_MS = 1_000;

/**
 * A wait after which fewer pages than this came through before the next 429 says the hour is still
 * contended (teammates take each slot as it frees): the next wait is then at least twice the last,
 * up to LONGEST_WAIT_MS, so an export does not meet a 429 for every page it gets.
 */
const PAGES_WORTH_A_WAIT = 4;
/** The longest a doubled wait grows (a wait the platform names may be longer: up to an hour, api/errors.ts). */
const LONGEST_WAIT_MS = 5 * 60_000;

/** Every row an export has fetched so far, each path once, in the API's order: what it keeps across a wait, and what Cancel may still write. */
export class ExportPages {
  readonly rows: VisitorRow[] = [];
  /** Pages fetched (each answered 200). */
  pages = 0;
  /** The range's totals, from the first page. */
  totals: VisitorTotals | undefined;
  /** How many times the export waited for the hour. */
  waits = 0;
  /** Its figures moved while it waited: the range includes today, or a page after a wait had other totals. */
  moved = false;
  private readonly seen = new Set<string>();

  /** One more page, its rows kept once per path. */
  add(page: VisitorsPage, afterWait: boolean): void {
    this.pages++;
    if (!this.totals) this.totals = page.totals;
    else if (afterWait && !sameTotals(this.totals, page.totals)) this.moved = true;
    for (const row of page.visitors) {
      if (this.seen.has(row.path)) continue;
      this.seen.add(row.path);
      this.rows.push(row); // one by one: spreading a huge page into push() would overflow the stack
    }
  }
}

export interface ExportPagesOptions {
  signal: AbortSignal;
  /** The export's grant: every request, the ones after a wait too, is reserved by it. */
  grant?: Grant;
  /** The clock the wait runs on. */
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** After each page: what is kept. */
  onPage?: (kept: ExportPages) => void;
  /** A 429: what is kept, and when (epoch ms) the export goes on. */
  onWait?: (kept: ExportPages, until: number) => void;
}

/**
 * Fetches every page of `range` into `kept`, waiting out each 429 and going on from the page after
 * the ones kept. Resolves with how the paging ended (cut short, or not); throws any other failure,
 * or ApiError 'cancelled' when `signal` aborts (mid-request or mid-wait), `kept` holding what was fetched.
 */
export async function fetchExportPages(
  fetchPage: FetchVisitors,
  projectId: string,
  range: { dateFrom: string | undefined; dateTo: string | undefined },
  kept: ExportPages,
  { signal, grant, clock, onPage, onWait }: ExportPagesOptions,
): Promise<{ cutShort?: CutShort }> {
  /** The last 429's wait, and the pages kept when it began. */
  let last: { ms: number; pages: number } | undefined;
  for (;;) {
    const from = kept.pages;
    const afterWait = kept.waits > 0;
    // The paging rule counts its pages from 0; the pages kept come first.
    const keeping: FetchVisitors = async (id, query, options) => {
      const page = await fetchPage(id, { ...query, offset: (query.offset ?? 0) + from * EXPORT_PAGE_SIZE }, options);
      kept.add(page, afterWait);
      return page;
    };
    try {
      const part = await fetchAllVisitors(keeping, projectId, range, {
        signal,
        grant,
        maxPages: Math.max(1, VISITORS_LIST.maxPages - from),
        onPage: () => onPage?.(kept),
      });
      return part.cutShort ? { cutShort: { ...part.cutShort, pages: kept.pages } } : {};
    } catch (error) {
      const named = waitOf(error);
      if (named === undefined || signal.aborted) throw error;
      let wait = named;
      // Only a 429 the platform sent counts; a refusal of this machine's shared wait sent nothing.
      if (isApiError(error) && error.status === 429) {
        if (last && kept.pages - last.pages < PAGES_WORTH_A_WAIT) wait = Math.max(named, Math.min(2 * last.ms, LONGEST_WAIT_MS));
        last = { ms: wait, pages: kept.pages };
      }
      kept.waits++;
      // Over a range that includes today, the pages after the wait are read at another moment.
      if (!rangeSettled(range, clock.now())) kept.moved = true;
      onWait?.(kept, clock.now() + wait);
      await sleep(clock, wait, signal);
    }
  }
}

/** Whole days that ended before today (here and at the platform): its figures never change. All time never is. */
export function rangeSettled(range: { dateTo: string | undefined }, now: number): boolean {
  return range.dateTo !== undefined && isSettled({ dateTo: range.dateTo }, now);
}

/** The wait a 429 named (or the one every window holds after it), or undefined for any other failure. */
function waitOf(error: unknown): number | undefined {
  if (!isApiError(error) || error.kind !== 'rateLimited') return undefined;
  return Math.max(SHORTEST_WAIT_MS, error.retryAfterMs ?? UNNAMED_WAIT_MS);
}

function sameTotals(a: VisitorTotals, b: VisitorTotals): boolean {
  return a.human === b.human && a.ai === b.ai && a.total === b.total;
}

/** `ms` on `clock`, ended early (ApiError 'cancelled') when `signal` aborts. */
function sleep(clock: ExportPagesOptions['clock'], ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clock.clearTimeout(timer);
      reject(new ApiError('cancelled', 'The export was cancelled while it waited.'));
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}
