// The panel's reuse of the readers' whole-range snapshot, its metric switch and its "opened on one
// page" view, against the real simulator over HTTP: a page cut from the snapshot equals the page the
// API sends, a covered range costs no request, Refresh asks the API, view events page like visitors.
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../../src/api';
import { fetcherFor as metricFetcher, type MetricApi } from '../../../src/analytics/metric';
import type { Metric } from '../../../src/shared/protocol';
import type { FetchVisitors } from '../../../src/analytics/visitorsQuery';
import { unlimited, withLeave } from '../../support/grants';
import { focusOn, parseOpenTarget } from '../../../src/analytics/pageFocus';
import { PanelModel } from '../../../src/analytics/panelModel';
import { PanelPages, pageOfSnapshot, SnapshotReuse } from '../../../src/analytics/snapshotReuse';
import { fetchAllVisitors, VisitorsPager } from '../../../src/analytics/visitorsQuery';
import { fetchSnapshot, MAX_AGE_MS, snapshotId, type SnapshotKey, type SnapshotSource, type VisitorsSnapshot } from '../../../src/analytics/visitorsSnapshot';
import type { ExtensionMessage, ViewState } from '../../../src/shared/protocol';
import { startSimulator, type Simulator } from '../../simulator/server';
import { l10n } from '../../support/l10n';

/** A metric's page request with leave for every request: these tests are about paging, not the hour (its gate: test/unit/hour/hourGate.test.ts). */
const fetcherFor = (api: MetricApi, metric: Metric): FetchVisitors => withLeave(metricFetcher(api, metric));

const PROJECT = 'demo-project';
const KEY = 'mint_unit_panel_snapshot';

/** The readers' store as the panel sees it, in memory, with a clock the test moves. */
class Port implements Pick<SnapshotSource, 'cached' | 'isFresh' | 'put' | 'maxPages'> {
  readonly kept = new Map<string, VisitorsSnapshot>();
  puts = 0;
  time = Date.parse('2026-11-20T10:00:00Z');
  cap = 40;
  cached = (key: SnapshotKey) => this.kept.get(snapshotId(key));
  isFresh = (s: VisitorsSnapshot) => this.time - s.fetchedAt >= 0 && this.time - s.fetchedAt < MAX_AGE_MS;
  put = (s: VisitorsSnapshot) => {
    this.puts++;
    this.kept.set(snapshotId(s.key), s);
  };
  maxPages = () => this.cap;
}

describe('panel pages from the readers snapshot', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let api: ApiClient;
  const key: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-10-22', dateTo: '2026-11-21' };
  const requests = (endpoint: string) => sim.requests.filter((r) => r.rawPath.endsWith(`/${endpoint}`));

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', pathCount: 600, analyticsLimitPerHour: 10_000 });
    api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timeoutMs: () => 5_000 });
  });
  after(() => sim.close());
  beforeEach(() => sim.clearRequests());

  async function snapshotAt(port: Port, fetchedAt = port.time): Promise<VisitorsSnapshot> {
    const snapshot = await fetchSnapshot(fetcherFor(api, 'visitors'), key, { maxPages: 40, now: () => fetchedAt });
    port.put(snapshot);
    port.puts = 0;
    sim.clearRequests();
    return snapshot;
  }

  it('cuts every page of every page size exactly as the API pages it', async () => {
    const snapshot = await fetchSnapshot(fetcherFor(api, 'visitors'), key, { maxPages: 40 });
    for (const limit of [25, 50, 100, 250]) {
      for (const offset of [0, limit, 500, Math.floor(snapshot.rows.length / limit) * limit]) {
        const fromApi = await api.getVisitors(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo, limit, offset }, { grant: unlimited });
        assert.deepEqual(pageOfSnapshot(snapshot, offset, limit), fromApi, `limit ${limit}, offset ${offset}`);
      }
    }
  });

  it('pages a covered range with no request, and Refresh asks the API', async () => {
    const port = new Port();
    const snapshot = await snapshotAt(port);
    const pages = new PanelPages(
      { visitors: new VisitorsPager(fetcherFor(api, 'visitors')), views: new VisitorsPager(fetcherFor(api, 'views')) },
      new SnapshotReuse(port, () => port.time),
    );
    const pageKey = { ...key, pageSize: 50, metric: 'visitors' as const };
    for (const page of [1, 2, 7, 12]) {
      const loaded = await pages.load(pageKey, page, {});
      assert.equal(loaded.fromCache, true);
      assert.deepEqual(loaded.page.visitors, snapshot.rows.slice((page - 1) * 50, page * 50));
    }
    assert.equal(requests('visitors').length, 0, 'the snapshot answered every page');

    port.time += 60_000; // a minute later the user presses Refresh
    const refreshed = await pages.load(pageKey, 2, { refresh: true });
    assert.equal(requests('visitors').length, 1, 'Refresh fetched fresh');
    assert.equal(refreshed.fromCache, false);
    // After Refresh the older snapshot no longer stands in: page 3 comes from the API too.
    await pages.load(pageKey, 3, {});
    assert.deepEqual(
      requests('visitors').map((r) => r.query.offset),
      ['50', '100'],
    );
  });

  it('shows whichever was fetched last: the pager’s page or the snapshot’s rows', async () => {
    const port = new Port();
    const pager = new VisitorsPager(fetcherFor(api, 'visitors'), undefined, () => port.time);
    const pages = new PanelPages({ visitors: pager, views: new VisitorsPager(fetcherFor(api, 'views')) }, new SnapshotReuse(port, () => port.time));
    const pageKey = { ...key, pageSize: 50, metric: 'visitors' as const };
    const early = await pages.load(pageKey, 1, {});
    assert.equal(early.fromCache, false);
    port.time += 60_000;
    const snapshot = await snapshotAt(port); // the status item fetched the range a minute later
    assert.equal(pages.cached(pageKey, 1)?.fetchedAt, snapshot.fetchedAt, 'the newer snapshot, not the older page');
    assert.equal(pages.cached(pageKey, 4)?.fetchedAt, snapshot.fetchedAt, 'every page of the range from the snapshot');
    port.time += 60_000;
    await pages.load(pageKey, 1, { refresh: true });
    assert.equal(pages.cached(pageKey, 1)?.fetchedAt, port.time, 'the page fetched by Refresh, newer than the snapshot');
    assert.equal(requests('visitors').length, 1);
  });

  it('one source answers every page of a range: a newer first page from the API makes the API answer the rest', async () => {
    const port = new Port();
    const pager = new VisitorsPager(fetcherFor(api, 'visitors'), undefined, () => port.time);
    const pages = new PanelPages({ visitors: pager, views: new VisitorsPager(fetcherFor(api, 'views')) }, new SnapshotReuse(port, () => port.time));
    const pageKey = { ...key, pageSize: 50, metric: 'visitors' as const };
    const snapshot = await snapshotAt(port);
    port.time += 60_000;
    // The API answered page 1 after the snapshot was kept (the pager asked it directly).
    await pager.load(pageKey, 1, {});
    assert.ok(pages.cached(pageKey, 1)!.fetchedAt > snapshot.fetchedAt);
    assert.equal(pages.cached(pageKey, 2), undefined, 'page 2 is not cut from the older snapshot');
    const second = await pages.load(pageKey, 2, {});
    assert.equal(second.fromCache, false);
    assert.deepEqual(
      requests('visitors').map((r) => r.query.offset),
      ['0', '50'],
    );
  });

  it('does not stand in when capped, older than an hour, or for view events', async () => {
    const port = new Port();
    const reuse = new SnapshotReuse(port, () => port.time);
    const capped = await fetchSnapshot(fetcherFor(api, 'visitors'), key, { maxPages: 1, now: () => port.time });
    assert.equal(capped.capped, true);
    port.put(capped);
    assert.equal(reuse.usable(key), undefined, 'a capped snapshot does not cover the range');
    assert.equal(reuse.current(key), capped, 'but it still says whether a page is among its top pages');
    const whole = await snapshotAt(port);
    assert.equal(reuse.usable(key), whole);
    assert.equal(reuse.usable(key, 'views'), undefined, 'the snapshot counts visitors, not view events');
    port.time += MAX_AGE_MS;
    assert.equal(reuse.usable(key), undefined, 'an hour old: the API is asked again');
  });

  it('a first page that holds the whole range, and a whole export, become the snapshot', async () => {
    const port = new Port();
    const reuse = new SnapshotReuse(port, () => port.time);
    const pages = new PanelPages({ visitors: new VisitorsPager(fetcherFor(api, 'visitors')), views: new VisitorsPager(fetcherFor(api, 'views')) }, reuse);
    await pages.load({ ...key, pageSize: 250, metric: 'visitors' }, 1, {});
    assert.equal(port.puts, 0, 'page 1 of 600 paths is not the whole range');

    const small = await startSimulator({ today: '2026-11-20', pathCount: 120, analyticsLimitPerHour: 1000 });
    try {
      const smallApi = createApiClient({ baseUrl: () => small.url, getApiKey: async () => KEY, timeoutMs: () => 5_000 });
      const smallPages = new PanelPages(
        { visitors: new VisitorsPager(fetcherFor(smallApi, 'visitors')), views: new VisitorsPager(fetcherFor(smallApi, 'views')) },
        reuse,
      );
      await smallPages.load({ ...key, pageSize: 250, metric: 'views' }, 1, {});
      assert.equal(port.puts, 0, 'view events never become the visitors snapshot');
      await smallPages.load({ ...key, pageSize: 250, metric: 'visitors' }, 1, {});
      assert.equal(port.puts, 1);
      assert.deepEqual(port.cached(key)?.rows, small.visitorsFor(PROJECT, key).visitors, 'every row of the range, kept for the status item');
      assert.equal(port.cached(key)?.capped, false);
    } finally {
      await small.close();
    }

    port.kept.clear();
    const all = await fetchAllVisitors(fetcherFor(api, 'visitors'), PROJECT, key);
    reuse.offer({ key, totals: all.totals, rows: all.rows, fetchedAt: port.time, pages: all.pages, capped: false });
    assert.equal(reuse.usable(key)?.rows.length, sim.visitorsFor(PROJECT, key).visitors.length);
    port.cap = 1;
    port.kept.clear();
    reuse.offer({ key, totals: all.totals, rows: all.rows, fetchedAt: port.time + 1, pages: all.pages, capped: false });
    assert.equal(port.cached(key), undefined, 'a range bigger than readers.maxPages is not kept: storage stays bounded');
  });

  it('view events: same query and paging as visitors, answered in the same shape', async () => {
    const fetchViews = fetcherFor(api, 'views');
    const truth = sim.signalsFor(PROJECT, key).views;
    const first = await fetchViews(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo, limit: 250, offset: 250 }, {});
    assert.deepEqual(
      requests('views').map((r) => r.query),
      [{ dateFrom: key.dateFrom, dateTo: key.dateTo, limit: '250', offset: '250' }],
    );
    assert.deepEqual(first.totals, truth.totals);
    assert.deepEqual(first.visitors, truth.views.slice(250, 500));
    const all = await fetchAllVisitors(fetchViews, PROJECT, key);
    assert.deepEqual(all.rows, truth.views);
    assert.equal(all.pages, Math.ceil(truth.views.length / 250));
    assert.equal(requests('visitors').length, 0);
  });

  it('finds one page among the range: its row and rank, none, or beyond the cap', async () => {
    const snapshot = await fetchSnapshot(fetcherFor(api, 'visitors'), key, { maxPages: 40 });
    const rank = snapshot.rows.findIndex((r) => r.path === '/quickstart') + 1;
    assert.ok(rank > 0);
    assert.deepEqual(focusOn(snapshot, '/quickstart/'), {
      view: { path: '/quickstart/', status: 'found', rank, covered: snapshot.rows.length },
      rows: [snapshot.rows[rank - 1]],
    });
    assert.equal(focusOn(snapshot, '/never/read').view.status, 'none');
    const capped = await fetchSnapshot(fetcherFor(api, 'visitors'), key, { maxPages: 1 });
    assert.deepEqual(focusOn(capped, '/never/read').view, { path: '/never/read', status: 'beyondCap', rank: undefined, covered: 250 });
  });

  it('the panel opened on a page shows its row for the range asked, at no cost when the snapshot is kept, until cleared', async () => {
    const port = new Port();
    const today = '2026-11-20';
    const range: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-11-14', dateTo: '2026-11-21' }; // last 7 days
    const snapshot = await fetchSnapshot(fetcherFor(api, 'visitors'), range, { maxPages: 40, now: () => port.time });
    port.put(snapshot);
    sim.clearRequests();
    const reuse = new SnapshotReuse(port, () => port.time);
    const sent: ExtensionMessage[] = [];
    const model = new PanelModel(
      {
        pager: new PanelPages({ visitors: new VisitorsPager(fetcherFor(api, 'visitors')), views: new VisitorsPager(fetcherFor(api, 'views')) }, reuse),
        l10n,
        log: { warn: () => undefined, error: () => undefined },
        send: (m) => sent.push(m),
        now: () => port.time,
        today: () => today,
        wholeRange: async (k) => reuse.current(k) ?? assert.fail('the test keeps the snapshot'),
      },
      { projectId: PROJECT, pageSize: 50, notice: undefined },
    );
    const last = (): ViewState => {
      const state = sent.flatMap((m) => (m.type === 'state' ? [m.state] : [])).at(-1);
      assert.ok(state);
      return state;
    };
    await model.focus('/quickstart', 'last7');
    // The webview comes back with an older saved view: the page the user asked for wins.
    await model.handle({ type: 'ready', restore: { range: { kind: 'preset', preset: 'last90' }, page: 3, pageSize: 50, metric: 'views' } });
    const row = snapshot.rows.find((r) => r.path === '/quickstart');
    assert.ok(row);
    assert.deepEqual(last().data?.rows, [row]);
    assert.deepEqual(last().data?.totals, snapshot.totals);
    assert.equal(last().focus?.status, 'found');
    assert.equal(last().focus?.rank, snapshot.rows.indexOf(row) + 1);
    assert.deepEqual(last().view.range, { kind: 'preset', preset: 'last7' });
    assert.equal(sim.requests.length, 0, 'the kept snapshot answered');

    await model.handle({ type: 'clearFocus' });
    assert.equal(last().focus, undefined);
    assert.deepEqual(last().data?.rows, snapshot.rows.slice(0, 50), 'every path again, page 1, still from the snapshot');
    assert.equal(sim.requests.length, 0);

    await model.handle({ type: 'setMetric', metric: 'views' });
    const truth = sim.signalsFor(PROJECT, range).views;
    assert.deepEqual(last().data?.rows, truth.views.slice(0, 50));
    assert.deepEqual(last().data?.totals, truth.totals);
    assert.deepEqual(model.exportRequest('csv')?.metric, 'views');
    assert.deepEqual(
      requests('views').map((r) => r.query),
      [{ dateFrom: range.dateFrom, dateTo: range.dateTo, limit: '50', offset: '0' }],
    );
  });

  it('takes a docs page link argument only when it is one', () => {
    assert.deepEqual(parseOpenTarget({ path: '/quickstart', preset: 'last7' }), { path: '/quickstart', preset: 'last7' });
    assert.deepEqual(parseOpenTarget({ path: '/quickstart' }), { path: '/quickstart' });
    assert.equal(parseOpenTarget({ path: '' }), undefined);
    assert.equal(parseOpenTarget({ path: '/a', preset: 'forever' }), undefined);
    assert.equal(parseOpenTarget('/quickstart'), undefined);
  });
});
