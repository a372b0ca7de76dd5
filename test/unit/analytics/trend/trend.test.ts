// The trend's figures and the panel's trend (src/analytics/trend/trendSeries.ts, trend.ts): one request
// per bucket not kept, three at a time at most; settled buckets kept for every window, today's for
// 15 minutes; the cost said before a draw of more than four requests; the hour never overspent.
import assert from 'node:assert/strict';
import { Trend, type TrendAsk } from '../../../../src/analytics/trend/trend';
import { isSettled, trendBuckets } from '../../../../src/analytics/trend/trendBuckets';
import { TREND_CONCURRENCY, TrendCutShort, TrendSeries, type TrendSubject } from '../../../../src/analytics/trend/trendSeries';
import type { Metric } from '../../../../src/shared/protocol';
import { MemoryTrendStore } from '../../../support/memoryTrendStore';
import { addDays } from '../../../../src/util/days';
import { trendToCsv, trendToJson } from '../../../../src/analytics/exportFormats';
import { BucketRows } from '../../../../src/analytics/trend/bucketRows';
import type { VisitorsSnapshot } from '../../../../src/analytics/visitorsSnapshot';
import { trendTotals } from '../../../../src/analytics/trend/trendTotals';
import { createApiClient, type Grant } from '../../../../src/api';
import { HourGate } from '../../../../src/sync/hourGate';
import { memoryLedger } from '../../../support/memoryLedger';
import { startSimulator } from '../../../simulator/server';
import { grantOf, unlimited } from '../../../support/grants';

const l10n = {
  t: (message: string | { message: string }, ...args: unknown[]) =>
    (typeof message === 'string' ? message : message.message).replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])),
} as never;
const NOW = Date.parse('2026-11-25T12:00:00Z');
const TODAY = '2026-11-25';

/** A shared store of one process: what one series keeps, another finds. */
class Kept extends MemoryTrendStore {
  get trends() {
    return this.state.trends;
  }
}

/** The API: a bucket's figures from its first day, counting the requests and how many run at once. */
class Api {
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

function buckets(from: string, to: string) {
  const plan = trendBuckets(from, to, TODAY);
  assert.ok(plan.ok);
  return plan.buckets;
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

function daySnapshot(projectId: string, range: { dateFrom: string; dateTo: string }, rows: [string, number, number, number][]): VisitorsSnapshot {
  const all = rows.map(([path, human, ai, total]) => ({ path, human, ai, total }));
  const totals = all.reduce((sum, r) => ({ human: sum.human + r.human, ai: sum.ai + r.ai, total: sum.total + r.total }), { human: 0, ai: 0, total: 0 });
  return { key: { projectId, ...range }, totals, rows: all, fetchedAt: 0, pages: 1, capped: false };
}

describe('the panel’s trend (src/analytics/trend/trend.ts)', () => {
  const ask = (from: string, compare = false): TrendAsk => ({
    projectId: 'p',
    metric: 'visitors',
    range: { from, to: TODAY, dateFrom: from, dateTo: addDays(TODAY, 1) },
    compare,
  });

  /** The hour's real gate over a ledger that holds `100 - left` requests sent 40 minutes ago; every request is reserved in it before it is sent. */
  function hour(left: number) {
    const ledger = memoryLedger(() => NOW);
    ledger.sent(100 - left, NOW - 40 * 60_000);
    const gate = new HourGate(ledger.account, { showMessage: async () => undefined }, l10n, () => NOW);
    return {
      gate,
      ledger,
      times: {
        get length() {
          return ledger.account.analyticsTimes()?.length ?? 0;
        },
      },
    };
  }

  function setup(left = 100) {
    const api = new Api();
    const series = new TrendSeries({ kept: new Kept(), fetchTotals: api.fetchTotals, now: () => NOW });
    const { gate, times, ledger } = hour(left);
    const trend = new Trend({ series, l10n, today: () => TODAY, gate });
    return { api, trend, times, ledger };
  }

  it('draws four requests or fewer at once, and says the cost of more before asking anything', async () => {
    const { api, trend } = setup();
    await trend.load(ask('2026-11-22'));
    assert.equal(api.requests.length, 4);
    const ready = trend.view(ask('2026-11-22'));
    assert.equal(ready?.status, 'ready');
    assert.equal(ready?.cost, '4 requests for 4 points.');

    const month = ask('2026-10-27');
    await trend.load(month);
    assert.equal(api.requests.length, 4, 'nothing asked before Draw');
    const confirm = trend.view(month);
    assert.equal(confirm?.status, 'confirm');
    assert.match(
      confirm?.message ?? '',
      /^Drawing the trend takes about 26 analytics requests, of the 96 left this hour on this machine’s count \(teammates on other machines also spend it\)\./,
    );
    await trend.load(month, { approve: true });
    assert.equal(api.requests.length, 4 + 26, 'the four days drawn before are kept');
    assert.equal(trend.view(month)?.cost, '26 requests for 30 points; 4 kept from before.');
  });

  it('a second draw of the same trend while the first is on its way waits for it: nothing is asked twice', async () => {
    const { api, trend } = setup();
    const month = ask('2026-10-27');
    await Promise.all([trend.load(month, { approve: true }), trend.load(month), trend.load(month)]);
    assert.equal(api.requests.length, 30);
    assert.equal(trend.view(month)?.status, 'ready');
  });

  it('a partly drawn trend is not drawn on by a later table action or Refresh, even once the hour has room again: only Draw fetches the rest', async () => {
    const { api, trend, ledger } = setup(12);
    const month = ask('2026-10-27');
    await trend.load(month, { approve: true });
    assert.equal(api.requests.length, 12);
    // The hour frees up (the requests of 40 minutes ago leave it): what the panel's table actions do next.
    ledger.state.ledger = {};
    await trend.load(month); // Previous from memory, Next, page size, Retry, metric back, Compare off
    await trend.load(month, { refresh: true }); // Refresh
    assert.equal(api.requests.length, 12, 'nothing sent for the trend without a new Draw');
    assert.match(trend.view(month)?.message ?? '', /18 points are not fetched yet/);
    await trend.load(month, { approve: true });
    assert.equal(api.requests.length, 30, 'Draw fetches the 18 left');
  });

  it('draws the previous period point for point when comparing', async () => {
    const { trend } = setup();
    const week = ask('2026-11-19', true);
    await trend.load(week, { approve: true });
    const drawn = trend.view(week);
    assert.equal(drawn?.points.length, 7);
    assert.equal(drawn?.previous?.length, 7);
    assert.equal(drawn?.previous?.[6].to, '2026-11-18');
    assert.equal(drawn?.unit, 'day');
  });

  it('when the hour cannot pay for all of it, offers the newest points that fit, draws them, and names the true wait for the rest', async () => {
    const { api, trend, times } = setup(12);
    const month = ask('2026-10-27');
    await trend.load(month);
    const question = trend.view(month);
    assert.equal(question?.status, 'confirm', 'not refused: it offers what fits');
    // 88 requests sent 40 minutes ago: all 30 are free once 18 of them have left the hour, in 20 minutes (not "1 s").
    assert.match(
      question?.message ?? '',
      /needs about 30 analytics requests; 12 are left this hour on this machine’s count .*all 30 are free in 20 min\..*draws the newest points that fit/,
    );
    await trend.load(month, { approve: true });
    assert.equal(api.requests.length, 12, 'exactly what was left');
    assert.equal(times.length, 100, 'the hour is spent, not overspent');
    assert.deepEqual(
      api.requests
        .map((r) => r.dateFrom)
        .sort()
        .slice(0, 1),
      ['2026-11-14'],
      'the newest 12 days: 14 to 25 November',
    );
    const drawn = trend.view(month);
    assert.equal(drawn?.status, 'ready');
    assert.equal(drawn?.points.filter((p) => p.missing).length, 18);
    assert.ok(
      drawn?.points.slice(0, 18).every((p) => p.missing),
      'the oldest are the ones not fetched',
    );
    assert.match(drawn?.message ?? '', /^18 points are not fetched yet: .* the 18 they need are free in 20 min\./);
  });

  it('with nothing left it says so, with the wait until its requests are free, and sends nothing', async () => {
    const { api, trend } = setup(0);
    const week = ask('2026-11-19', true);
    await trend.load(week, { approve: true });
    const view = trend.view(week);
    assert.equal(view?.status, 'failed');
    assert.match(view?.message ?? '', /needs about 14 analytics requests, and none are left this hour .*; all 14 are free in 20 min\./);
    assert.equal(api.requests.length, 0);
  });

  it('estimates a page’s trend bucket by bucket, from what is kept of buckets alike, and names the page when it asks', async () => {
    const { api, trend } = setup();
    const perBucket: string[] = [];
    const page = {
      ...ask('2026-11-23'),
      path: '/quickstart',
      pagesPerBucket: (b: { dateFrom: string }) => (perBucket.push(b.dateFrom), b.dateFrom === TODAY ? 1 : 3),
    };
    await trend.load(page);
    assert.equal(api.requests.length, 0, 'two days of three pages and today of one is more than four requests: asked first');
    assert.deepEqual([...new Set(perBucket)].sort(), ['2026-11-23', '2026-11-24', TODAY], 'each bucket estimated on its own');
    const view = trend.view(page);
    assert.equal(view?.status, 'confirm');
    assert.match(
      view?.message ?? '',
      /^\/quickstart’s trend, which reads every path of each day \(pages of 250 paths\), takes about 7 analytics requests, of the 100/,
    );
    await trend.load(page, { approve: true });
    assert.equal(trend.view(page)?.status, 'ready');
    assert.equal(trend.view(ask('2026-11-23'))?.status, 'loading', 'the site’s trend of the same days is another trend');
    // A path whose right-to-left override would make it read backwards is named with the override escaped.
    const reversed = { ...page, path: '/quick\u202Etrats' };
    assert.match(trend.view(reversed)?.message ?? '', /^\/quick\\u202etrats’s trend/);
  });

  it('a page’s draw whose points read more pages than estimated stops at what the hour has left, even before the ledger counts them', async () => {
    let sent = 0;
    // Four pages a day, each taken a ticket for first; the ledger counts none of them (their answers are still on the way).
    const { gate } = hour(2);
    const series = new TrendSeries({
      kept: new Kept(),
      now: () => NOW,
      fetchTotals: async (_p, _s, _r, { grant }) => {
        for (let page = 0; page < 4; page++) {
          if (!(await grant.reserve())) throw new TrendCutShort();
          sent++;
        }
        return { human: 1, ai: 1, total: 1 };
      },
    });
    const trend = new Trend({ series, l10n, today: () => TODAY, gate });
    const page = { ...ask('2026-11-23'), path: '/quickstart', pagesPerBucket: () => 1 };
    await trend.load(page, { approve: true }); // about 3 requests, 2 left: the writer said Draw to what fits
    assert.equal(sent, 2, 'no more than the 2 the hour had left');
    assert.match(trend.view(page)?.message ?? '', /^3 points are not fetched yet/);
  });

  it('a page’s trend of which no day alike is kept is said to cost "at least" a page a day, and waits for Draw even when that is few', async () => {
    const { api, trend } = setup();
    const page = { ...ask('2026-11-24'), path: '/quickstart', pagesPerBucket: () => undefined };
    await trend.load(page);
    assert.equal(api.requests.length, 0, 'two days, but a guess: asked first');
    const view = trend.view(page);
    assert.equal(view?.status, 'confirm');
    assert.match(view?.message ?? '', /takes at least 2 analytics requests, of the 100 left/);
  });

  it('draws by identity: a draw that ends after the user moved on updates only its own trend, and a bucket two draws need is asked once', async () => {
    const { api, trend } = setup();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = api.fetchTotals;
    api.fetchTotals = async (...args) => {
      await held;
      return slow(...args);
    };
    const a = ask('2026-11-22');
    const b = { ...ask('2026-11-22'), metric: 'views' as const };
    const c = ask('2026-11-24');
    const drawingA = trend.load(a);
    const drawingC = trend.load(c); // the same days 24 and 25 as A, on their way once
    const drawingB = trend.load(b);
    release();
    await Promise.all([drawingA, drawingB, drawingC]);
    assert.equal(trend.view(a)?.status, 'ready');
    assert.equal(trend.view(b)?.status, 'ready', 'B is drawn, though A ended around it');
    assert.equal(trend.view(c)?.status, 'ready');
    const visits = api.requests
      .filter((r) => r.metric === 'visitors')
      .map((r) => r.dateFrom)
      .sort();
    assert.deepEqual(visits, ['2026-11-22', '2026-11-23', '2026-11-24', TODAY], 'each bucket of the site’s visitors asked once');
  });

  it('has no trend for all time, a future range or more than a year of weeks', () => {
    const { trend } = setup();
    const none = trend.view({
      projectId: 'p',
      metric: 'visitors',
      range: { from: undefined, to: undefined, dateFrom: undefined, dateTo: undefined },
      compare: false,
    });
    assert.deepEqual([none?.status, none?.message], ['unavailable', 'All time has no first day to draw from: choose a range to see its trend.']);
    assert.equal(trend.view(ask('2020-01-01'))?.status, 'unavailable');
  });
});

describe('Export Trend’s formats (src/analytics/exportFormats.ts)', () => {
  const point = (from: string, to: string, total: number, extra: Partial<{ partial: boolean; open: boolean }> = {}) => ({
    from,
    to,
    partial: false,
    open: false,
    human: total,
    ai: 1,
    total,
    ...extra,
  });
  const trend = {
    projectId: 'p',
    metric: 'visitors' as const,
    unit: 'week' as const,
    range: { label: 'Last 90 days', from: '2026-08-28', to: TODAY },
    points: [point('2026-08-28', '2026-08-30', 5, { partial: true }), point('2026-11-23', TODAY, 9, { partial: true, open: true })],
    previous: undefined,
  };

  it('writes one CSV row a bucket, with the previous period beside it when compared', () => {
    assert.equal(
      trendToCsv(trend),
      'from,to,partial,open,human,ai,total\r\n2026-08-28,2026-08-30,true,false,5,1,5\r\n2026-11-23,2026-11-25,true,true,9,1,9\r\n',
    );
    const compared = trendToCsv({
      ...trend,
      previous: [point('2026-05-30', '2026-06-01', 4, { partial: true }), point('2026-08-25', '2026-08-27', 7, { partial: true })],
    });
    assert.equal(
      compared.split('\r\n')[0],
      'from,to,partial,open,human,ai,total,previous_from,previous_to,previous_partial,previous_open,previous_human,previous_ai,previous_total',
    );
    assert.equal(compared.split('\r\n')[2], '2026-11-23,2026-11-25,true,true,9,1,9,2026-08-25,2026-08-27,true,false,7,1,7');
  });

  it('writes the JSON with its range, unit and metric, and null for no previous period', () => {
    const json = JSON.parse(trendToJson(trend, '2026-11-25T12:00:00.000Z')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['projectId', 'metric', 'unit', 'range', 'points', 'previous', 'exportedAt']);
    assert.equal(json.previous, null);
    assert.equal((json.points as unknown[]).length, 2);
  });
});
