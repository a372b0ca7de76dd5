// The trend's figures (src/analytics/trend/trendSeries.ts): one request per bucket not kept, three
// at a time at most; settled buckets kept for every window, today's for 15 minutes.
import assert from 'node:assert/strict';
import { isSettled, trendBuckets } from '../../../../src/analytics/trend/trendBuckets';
import { TREND_CONCURRENCY, TrendSeries } from '../../../../src/analytics/trend/trendSeries';
import { addDays } from '../../../../src/util/days';
import { BucketRows } from '../../../../src/analytics/trend/bucketRows';
import { trendTotals } from '../../../../src/analytics/trend/trendTotals';
import type { VisitorsSnapshot } from '../../../../src/analytics/visitorsSnapshot';
import { createApiClient } from '../../../../src/api';
import { startSimulator } from '../../../simulator/server';
import { grantOf, unlimited } from '../../../support/grants';
import { Api, Kept, l10n, NOW, TODAY } from './trendFixtures';

function buckets(from: string, to: string) {
  const plan = trendBuckets(from, to, TODAY);
  assert.ok(plan.ok);
  return plan.buckets;
}

function daySnapshot(projectId: string, range: { dateFrom: string; dateTo: string }, rows: [string, number, number, number][]): VisitorsSnapshot {
  const all = rows.map(([path, human, ai, total]) => ({ path, human, ai, total }));
  const totals = all.reduce((sum, r) => ({ human: sum.human + r.human, ai: sum.ai + r.ai, total: sum.total + r.total }), { human: 0, ai: 0, total: 0 });
  return { key: { projectId, ...range }, totals, rows: all, fetchedAt: 0, pages: 1, capped: false };
}

describe('trend figures (src/analytics/trend/trendSeries.ts)', () => {
  it('asks once per bucket, three at a time at most, and keeps the settled ones for every window', async () => {
    const kept = new Kept();
    const api = new Api();
    const series = new TrendSeries({ kept, fetchTotals: api.fetchTotals, now: () => NOW });
    const week = buckets('2026-11-19', TODAY);
    const first = await series.load('p', { metric: 'visitors' }, week, { grant: unlimited });
    assert.equal(first.requests, 7);
    assert.ok(api.mostAtOnce <= TREND_CONCURRENCY, `${api.mostAtOnce} at once`);
    assert.deepEqual(first.points[0], { from: '2026-11-19', to: '2026-11-19', partial: false, open: false, human: 190, ai: 19, total: 208 });
    assert.equal(Object.keys(kept.trends.p).length, 6, 'today is not kept for good');

    // Another window (another series on the same store) 5 minutes later: today too was kept, with its fetch time.
    const otherApi = new Api();
    const other = new TrendSeries({ kept, fetchTotals: otherApi.fetchTotals, now: () => NOW + 5 * 60_000 });
    const second = await other.load('p', { metric: 'visitors' }, week, { grant: unlimited });
    assert.deepEqual(otherApi.requests, []);
    assert.deepEqual({ requests: second.requests, kept: second.kept }, { requests: 0, kept: 7 });
    assert.deepEqual(second.points, first.points);
    // A window whose clock runs 20 minutes behind does not take today's fetch as fresh for 35 minutes.
    const behind = new TrendSeries({ kept, fetchTotals: otherApi.fetchTotals, now: () => NOW - 20 * 60_000 });
    assert.deepEqual(
      behind.missing('p', { metric: 'visitors' }, week).map((b) => b.dateFrom),
      [TODAY],
    );

    // This window again within 15 minutes: nothing; after them, today again (once, for every window); with Refresh, today at once.
    assert.equal((await series.load('p', { metric: 'visitors' }, week, { grant: unlimited })).requests, 0);
    const later = new TrendSeries({ kept, fetchTotals: api.fetchTotals, now: () => NOW + 15 * 60_000 });
    assert.equal((await later.load('p', { metric: 'visitors' }, week, { grant: unlimited })).requests, 1);
    assert.equal((await later.load('p', { metric: 'visitors' }, week, { refresh: true, grant: unlimited })).requests, 1);
    // Another metric is another series.
    assert.equal((await series.load('p', { metric: 'views' }, week, { grant: unlimited })).requests, 7);
  });

  it('the next day asks only the new day and the day that was today (no longer open, now settled)', async () => {
    const kept = new Kept();
    const api = new Api();
    await new TrendSeries({ kept, fetchTotals: api.fetchTotals, now: () => NOW }).load('p', { metric: 'visitors' }, buckets('2026-11-19', TODAY), {
      grant: unlimited,
    });
    api.requests = [];
    const tomorrow = addDays(TODAY, 1);
    const nextDay = new TrendSeries({ kept, fetchTotals: api.fetchTotals, now: () => NOW + 86_400_000 });
    const plan = trendBuckets('2026-11-20', tomorrow, tomorrow);
    assert.ok(plan.ok);
    const result = await nextDay.load('p', { metric: 'visitors' }, plan.buckets, { grant: unlimited });
    assert.deepEqual(
      api.requests.map((r) => r.dateFrom),
      [tomorrow, TODAY],
      'newest first',
    );
    assert.equal(result.kept, 5);
  });

  it('keeps what it fetched when a request fails or the hour runs out, so a second try asks only the rest', async () => {
    const kept = new Kept();
    const api = new Api();
    api.failOn = '2026-11-09'; // the second asked: newest first
    const series = new TrendSeries({ kept, fetchTotals: api.fetchTotals, now: () => NOW });
    const days = buckets('2026-11-01', '2026-11-10');
    await assert.rejects(series.load('p', { metric: 'visitors' }, days, { grant: unlimited }), /the server broke/);
    // The failure stops the draw (no request is started after it is known); every answer that came is kept.
    const keptAfterFailure = Object.keys(kept.trends.p).length;
    assert.ok(api.requests.length <= 1 + TREND_CONCURRENCY, `${api.requests.length} requests after a failure on the second day`);
    assert.equal(keptAfterFailure, api.requests.length - 1);
    api.failOn = undefined;
    const cut = await series.load('p', { metric: 'visitors' }, days, { grant: grantOf(2) });
    assert.deepEqual(
      { requests: cut.requests, missing: cut.missing },
      { requests: 2, missing: 10 - keptAfterFailure - 2 },
      'the grant gave out: the rest is missing, not a failure',
    );
    assert.ok(cut.points.filter((p) => p.missing).length === cut.missing);
    assert.equal(Object.keys(kept.trends.p).length, keptAfterFailure + 2);
    api.requests = [];
    const rest = await series.load('p', { metric: 'visitors' }, days, { grant: unlimited });
    assert.equal(rest.requests, 10 - keptAfterFailure - 2);
  });

  it('a second page’s trend over the same days asks only for the open days: the settled days’ rows were kept by the first', async () => {
    // 600 paths: each day's every path is up to three pages of 250, read over HTTP from the simulator.
    const sim = await startSimulator({ projects: ['p'], today: TODAY, now: () => NOW, analyticsLimitPerHour: 10_000, pathCount: 600 });
    try {
      const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_unit_test_key' });
      const rows = new BucketRows();
      const series = new TrendSeries({ kept: new Kept(), fetchTotals: trendTotals(api, rows, () => undefined, l10n), rows, now: () => NOW });
      const week = buckets('2026-11-19', TODAY);
      const paths = sim.visitorsFor('p', { dateFrom: '2026-11-19', dateTo: addDays(TODAY, 1) }).visitors.map((v) => v.path);
      const [first, second] = [paths[3], paths[400]];
      await series.load('p', { metric: 'visitors', path: first }, week, { grant: unlimited });
      const dayOf = (r: { query: Record<string, string | undefined> }) => r.query.dateFrom!;
      const pagesOf = (b: { dateFrom: string; dateTo: string }) => Math.max(1, Math.ceil(sim.visitorsFor('p', b).visitors.length / 250));
      assert.equal(
        sim.requests.length,
        week.reduce((sum, b) => sum + pagesOf(b), 0),
        'the first page’s trend read every page of paths of each day',
      );
      sim.clearRequests();

      // The open days (today; yesterday until the platform's day has ended) are all that is missing.
      const open = week.filter((b) => !isSettled(b, NOW)).map((b) => b.dateFrom);
      assert.ok(open.length > 0 && open.length < 7);
      assert.deepEqual(
        series.missing('p', { metric: 'visitors', path: second }, week).map((b) => b.dateFrom),
        open,
      );
      const drawn = await series.load('p', { metric: 'visitors', path: second }, week, { grant: unlimited });
      assert.deepEqual([...new Set(sim.requests.map(dayOf))].sort(), open);
      assert.equal(
        drawn.requests,
        week.filter((b) => open.includes(b.dateFrom)).reduce((sum, b) => sum + pagesOf(b), 0),
      );
      // Each day's figures are the simulator's row for the page, kept or read.
      week.forEach((bucket, i) => {
        const row = sim.visitorsFor('p', { dateFrom: bucket.dateFrom, dateTo: bucket.dateTo }).visitors.find((v) => v.path === second);
        const { human, ai, total } = drawn.points[i];
        assert.deepEqual({ human, ai, total }, { human: row?.human ?? 0, ai: row?.ai ?? 0, total: row?.total ?? 0 }, bucket.dateFrom);
      });
      assert.equal(
        rows.figures({ projectId: 'other', dateFrom: week[0].dateFrom, dateTo: week[0].dateTo }, first),
        undefined,
        'another project’s days are not this one’s',
      );
    } finally {
      await sim.close();
    }
  });

  it('estimates a bucket by the most pages a kept bucket of as many days took', () => {
    const rows = new BucketRows();
    const day = (d: number, pages: number) => ({ ...daySnapshot('p', { dateFrom: `2026-11-0${d}`, dateTo: `2026-11-0${d + 1}` }, [['/a', 1, 0, 1]]), pages });
    assert.equal(rows.pagesLike({ dateFrom: '2026-11-08', dateTo: '2026-11-09' }), undefined, 'nothing kept: nothing said');
    rows.keep(day(1, 2));
    rows.keep(day(2, 3));
    assert.equal(rows.pagesLike({ dateFrom: '2026-11-08', dateTo: '2026-11-09' }), 3);
    assert.equal(rows.pagesLike({ dateFrom: '2026-11-02', dateTo: '2026-11-09' }), undefined, 'a week is not a day');
  });

  it('keeps rows up to its bound, the least recently read bucket dropped first; a capped bucket does not answer for a page beyond its rows', () => {
    const rows = new BucketRows(5);
    const range = (d: number) => ({ dateFrom: `2026-11-0${d}`, dateTo: `2026-11-0${d + 1}` });
    rows.keep(
      daySnapshot('p', range(1), [
        ['/a', 1, 0, 1],
        ['/b', 1, 0, 1],
      ]),
    );
    rows.keep(
      daySnapshot('p', range(2), [
        ['/a', 2, 0, 2],
        ['/b', 2, 0, 2],
      ]),
    );
    assert.deepEqual(rows.figures({ projectId: 'p', ...range(1) }, '/a'), [1, 0, 1], 'day 1 read: now the most recent');
    rows.keep(
      daySnapshot('p', range(3), [
        ['/a', 3, 0, 3],
        ['/b', 3, 0, 3],
      ]),
    );
    assert.equal(rows.figures({ projectId: 'p', ...range(2) }, '/a'), undefined, 'day 2, the least recently read, went to stay within 5 rows');
    assert.deepEqual(rows.figures({ projectId: 'p', ...range(1) }, '/a'), [1, 0, 1]);
    assert.deepEqual(rows.figures({ projectId: 'p', ...range(3) }, '/a'), [3, 0, 3]);
    rows.keep({ ...daySnapshot('p', range(4), [['/a', 4, 0, 4]]), capped: true });
    assert.deepEqual(rows.figures({ projectId: 'p', ...range(4) }, '/a'), [4, 0, 4]);
    assert.equal(rows.figures({ projectId: 'p', ...range(4) }, '/b'), undefined, 'beyond the rows read: unknown, not zero');
  });
});
