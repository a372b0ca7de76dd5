// What the trend's unit tests share (trend.test.ts, trendSeries.test.ts): the clock, a words-only
// l10n, a shared store of one process, and an API that counts its requests.
import type { Grant } from '../../../../src/api';
import { TrendCutShort, type TrendSubject } from '../../../../src/analytics/trend/trendSeries';
import type { Metric } from '../../../../src/shared/protocol';
import { MemoryTrendStore } from '../../../support/memoryTrendStore';

export const l10n = {
  t: (message: string | { message: string }, ...args: unknown[]) =>
    (typeof message === 'string' ? message : message.message).replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])),
} as never;
export const NOW = Date.parse('2026-11-25T12:00:00Z');
export const TODAY = '2026-11-25';

/** A shared store of one process: what one series keeps, another finds. */
export class Kept extends MemoryTrendStore {
  get trends() {
    return this.state.trends;
  }
}

/** The API: a bucket's figures from its first day, counting the requests and how many run at once. */
export class Api {
  requests: { metric: Metric; dateFrom: string; dateTo: string }[] = [];
  running = 0;
  mostAtOnce = 0;
  failOn: string | undefined;
  /** As FetchTotals must: a reservation of the grant before the request, TrendCutShort when it gives none. */
  fetchTotals = async (_project: string, { metric }: TrendSubject, range: { dateFrom: string; dateTo: string }, { grant }: { grant: Grant }) => {
    const reservation = await grant.reserve();
    if (!reservation) throw new TrendCutShort();
    reservation.end(true);
    this.requests.push({ metric, ...range });
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.running);
    await new Promise((resolve) => setImmediate(resolve));
    this.running--;
    if (range.dateFrom === this.failOn) throw new Error('the server broke');
    const day = Number(range.dateFrom.slice(8));
    return { human: day * 10, ai: day, total: day * 10 + day - 1 };
  };
}
