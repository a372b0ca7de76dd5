// The panel's trend (src/analytics/trend/trend.ts): the cost said before a draw of more than four
// requests, the hour never overspent, the draw on the figures trendSeries.ts gives.
import assert from 'node:assert/strict';
import { Trend, type TrendAsk } from '../../../../src/analytics/trend/trend';
import { TrendCutShort, TrendSeries } from '../../../../src/analytics/trend/trendSeries';
import { addDays } from '../../../../src/util/days';
import { HourGate } from '../../../../src/hour/hourGate';
import { memoryLedger } from '../../../support/memoryLedger';
import { Api, Kept, l10n, NOW, TODAY } from './trendFixtures';

describe('the panel’s trend (src/analytics/trend/trend.ts)', () => {
  const ask = (from: string, compare = false): TrendAsk => ({
    projectId: 'p',
    metric: 'visitors',
    range: { from, to: TODAY, dateFrom: from, dateTo: addDays(TODAY, 1) },
    compare,
  });

  /** The hour's real gate over a ledger that holds `100 - left` requests sent 40 minutes ago; every request is reserved in it before it is sent. */
  function hour(left: number, now = NOW) {
    const ledger = memoryLedger(() => now);
    ledger.sent(100 - left, now - 40 * 60_000);
    const gate = new HourGate(ledger.account, { showMessage: async () => undefined }, l10n, () => now);
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

  function setup(left = 100, now = NOW) {
    const api = new Api();
    const series = new TrendSeries({ kept: new Kept(), fetchTotals: api.fetchTotals, now: () => now });
    const { gate, times, ledger } = hour(left, now);
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

  it('Refresh in the hour after midnight at UTC asks again for yesterday too, which is not settled yet, and pays for it', async () => {
    const { api, trend } = setup(100, Date.parse(`${TODAY}T00:30:00Z`));
    const days = ask('2026-11-22');
    await trend.load(days);
    assert.equal(api.requests.length, 4);
    await trend.load(days, { refresh: true });
    assert.deepEqual(
      api.requests.slice(4).map((r) => r.dateFrom),
      [TODAY, '2026-11-24'],
      'today and yesterday, newest first',
    );
    const drawn = trend.view(days);
    assert.deepEqual([drawn?.status, drawn?.cost, drawn?.points.some((p) => p.missing)], ['ready', '2 requests for 4 points; 2 kept from before.', false]);
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
