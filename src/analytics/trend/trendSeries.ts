// The trend's figures: one `limit=1` request per bucket (its totals are the bucket's figures), no
// more than three at a time; for one page's trend (Show Trend), every page of each bucket's range,
// in which the page's row is found. A settled bucket (trendBuckets.ts) is kept for good in the shared
// store, per project, metric and bucket, where every window finds it; a bucket that includes today
// is kept there with its fetch time, and taken for as long as the panel keeps today's pages (15
// minutes), in any window. So after the first look a trend costs what its open bucket costs, once
// a quarter hour however many windows draw it. A page's trend also finds its row
// in the settled buckets' rows another page's trend read (bucketRows.ts), so the second page's trend
// over the same days costs only its open buckets. No vscode import: unit-tested.
import type { Grant } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Metric, TrendPoint } from '../../shared/protocol';
import type { OpenTrendFigures, TrendFigures } from '../../sync/syncState';
import type { BucketRows } from './bucketRows';
import { isSettled, type TrendBucket } from './trendBuckets';
import { LIVE_PAGE_MAX_AGE_MS } from '../visitorsQuery';

/** Requests of one trend in flight at once: enough to draw quickly, few enough not to crowd the API. */
export const TREND_CONCURRENCY = 3;

/** Where buckets are kept for every window (the shared state's trends: src/sync/sharedTrends.ts): settled ones for good, open ones with their fetch time. */
export interface KeptTrendStore {
  keptTrends(project: string): Readonly<Record<string, TrendFigures>>;
  openTrends(project: string): Readonly<Record<string, OpenTrendFigures>>;
  keepTrends(project: string, settled: Record<string, TrendFigures>, open: Record<string, OpenTrendFigures>): void;
  /** Notes that a draw took these kept buckets: past its bound, a kind bounded by use loses the least recently used first. */
  useTrends?(project: string, keys: readonly string[]): void;
}

/** What a trend counts: the site's visitors or view events, or one page's unique visitors. */
export interface TrendSubject {
  metric: Metric;
  /** A site path: that page's row in each bucket (visitors only). */
  path?: string;
}

/**
 * One bucket's figures: the site's (`limit=1`, one request) or one page's (every page of the range;
 * a `settled` bucket's rows are kept in the BucketRows the series reads). Every request it sends
 * is reserved by `grant`; it throws TrendCutShort when the grant gives no more.
 */
export type FetchTotals = (
  projectId: string,
  subject: TrendSubject,
  range: { dateFrom: string; dateTo: string },
  options: { signal: AbortSignal | undefined; grant: Grant; settled: boolean },
) => Promise<{ human: number; ai: number; total: number }>;

interface TrendResult {
  /** One a bucket, in the order asked; a bucket the grant did not reach is `missing` (figures 0). */
  points: TrendPoint[];
  /** Requests sent for this draw. */
  requests: number;
  /** Points drawn from what was kept. */
  kept: number;
  /** Buckets not fetched: the grant (the hour) gave out first. */
  missing: number;
}

/** The grant gave no reservation for a bucket's (next) request: the bucket is not fetched. */
export class TrendCutShort extends Error {
  override readonly name = 'TrendCutShort';
  constructor() {
    super("the hour's grant gave out before this bucket was fetched");
  }
}

/** The shared store's name of a bucket: `<metric> <dateFrom> <dateTo>`, or `page:<encoded path> …` for one page's. */
export function trendKey(subject: TrendSubject, bucket: Pick<TrendBucket, 'dateFrom' | 'dateTo'>): string {
  return `${subject.path === undefined ? subject.metric : `page:${encodeURIComponent(subject.path)}`} ${bucket.dateFrom} ${bucket.dateTo}`;
}

export class TrendSeries {
  private readonly now: () => number;
  /** Buckets on their way, by project and key: two draws that need the same bucket share one fetch. */
  private readonly inFlight = new Map<string, Promise<{ human: number; ai: number; total: number }>>();

  constructor(private readonly deps: { kept: KeptTrendStore; fetchTotals: FetchTotals; rows?: Pick<BucketRows, 'figures'>; now?: () => number }) {
    this.now = deps.now ?? Date.now;
  }

  /** The buckets that would take a request now. */
  missing(projectId: string, subject: TrendSubject, buckets: readonly TrendBucket[], refresh = false): TrendBucket[] {
    return buckets.filter((bucket) => !this.known(projectId, subject, bucket, refresh));
  }

  /**
   * Every bucket's figures: kept ones without a request, the rest fetched (three at a time, newest
   * first) reserved by `grant`; those it did not reach come back `missing`. What was fetched is
   * kept even when another request fails, so trying again costs only what is still missing.
   * `refresh` asks again for every bucket not settled yet: today's, and yesterday's in the hour after
   * its end at UTC (isSettled).
   */
  async load(
    projectId: string,
    subject: TrendSubject,
    buckets: readonly TrendBucket[],
    options: { signal?: AbortSignal; grant: Grant; refresh?: boolean },
  ): Promise<TrendResult> {
    const { signal, refresh = false } = options;
    const figures = new Map<TrendBucket, TrendFigures>();
    const todo: TrendBucket[] = [];
    for (const bucket of buckets) {
      const known = this.known(projectId, subject, bucket, refresh);
      if (known) figures.set(bucket, known);
      else todo.push(bucket);
    }
    if (figures.size)
      this.deps.kept.useTrends?.(
        projectId,
        [...figures.keys()].map((bucket) => trendKey(subject, bucket)),
      );
    // Newest first: when the hour gives out, the points left out are the oldest.
    todo.sort((a, b) => (a.dateFrom < b.dateFrom ? 1 : a.dateFrom > b.dateFrom ? -1 : 0));
    const settled: Record<string, TrendFigures> = {};
    const open: Record<string, OpenTrendFigures> = {};
    const fetched = todo.length;
    let requests = 0;
    // Every reservation the grant gives this draw is a request of the draw.
    const grant: Grant = {
      reserve: async () => {
        const reservation = await options.grant.reserve();
        if (reservation) requests++;
        return reservation;
      },
    };
    let stop = false;
    const worker = async () => {
      // A failed request (or the grant giving out) stops the draw: the next would most likely end the same way.
      for (let bucket = todo.shift(); bucket && !stop; bucket = todo.shift()) {
        if (signal?.aborted) throw new ApiError('cancelled', 'The request was cancelled.');
        const settledNow = isSettled(bucket, this.now());
        let totals: { human: number; ai: number; total: number };
        try {
          totals = await this.fetchOnce(projectId, subject, bucket, () =>
            this.deps.fetchTotals(projectId, subject, { dateFrom: bucket.dateFrom, dateTo: bucket.dateTo }, { signal, grant, settled: settledNow }),
          );
        } catch (error) {
          stop = true;
          if (error instanceof TrendCutShort) return;
          throw error;
        }
        const value: TrendFigures = [totals.human, totals.ai, totals.total];
        figures.set(bucket, value);
        if (settledNow) settled[trendKey(subject, bucket)] = value;
        else open[trendKey(subject, bucket)] = [...value, this.now()];
      }
    };
    const ends = await Promise.allSettled(Array.from({ length: Math.min(TREND_CONCURRENCY, todo.length) }, worker));
    if (Object.keys(settled).length || Object.keys(open).length) this.deps.kept.keepTrends(projectId, settled, open);
    const rejected = ends.find((end): end is PromiseRejectedResult => end.status === 'rejected');
    if (rejected) throw rejected.reason instanceof Error ? rejected.reason : new Error(String(rejected.reason));
    return {
      points: buckets.map((bucket) => {
        const [human, ai, total] = figures.get(bucket) ?? [0, 0, 0];
        return {
          from: bucket.from,
          to: bucket.to,
          partial: bucket.partial,
          open: bucket.open,
          human,
          ai,
          total,
          ...(!figures.has(bucket) && { missing: true }),
        };
      }),
      requests,
      kept: buckets.length - fetched,
      missing: buckets.length - figures.size,
    };
  }

  /**
   * One fetch of a bucket however many draws want it at once: a later one awaits the one on its way;
   * should that one's grant give out first, this draw fetches with its own.
   */
  private async fetchOnce(
    projectId: string,
    subject: TrendSubject,
    bucket: TrendBucket,
    fetch: () => Promise<{ human: number; ai: number; total: number }>,
  ): Promise<{ human: number; ai: number; total: number }> {
    const id = JSON.stringify([projectId, trendKey(subject, bucket)]);
    const pending = this.inFlight.get(id);
    if (pending) {
      try {
        return await pending;
      } catch (error) {
        if (!(error instanceof TrendCutShort)) throw error;
      }
    }
    const started = fetch();
    this.inFlight.set(id, started);
    const forget = () => {
      if (this.inFlight.get(id) === started) this.inFlight.delete(id);
    };
    started.then(forget, forget);
    return started;
  }

  /** A bucket's figures without a request: settled and kept (or in a page's kept rows), or fetched by any window in the last 15 minutes (not on Refresh). */
  private known(projectId: string, subject: TrendSubject, bucket: TrendBucket, refresh: boolean): TrendFigures | undefined {
    const key = trendKey(subject, bucket);
    if (isSettled(bucket, this.now())) {
      const value =
        this.deps.kept.keptTrends(projectId)[key] ??
        (subject.path === undefined ? undefined : this.deps.rows?.figures({ projectId, dateFrom: bucket.dateFrom, dateTo: bucket.dateTo }, subject.path));
      if (value) return value;
    }
    const open = refresh ? undefined : this.deps.kept.openTrends(projectId)[key];
    // Within 15 minutes either way: a window whose clock runs far ahead does not keep its fetch fresh here.
    return open && Math.abs(this.now() - open[3]) < LIVE_PAGE_MAX_AGE_MS ? [open[0], open[1], open[2]] : undefined;
  }
}
