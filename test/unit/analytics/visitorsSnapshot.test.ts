// The readers snapshot against the real simulator over HTTP: one fetch per range in pages of 250,
// the cap, the hour, persistence across a "reload", and how the figures read.
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../../src/api';
import { aiPercent, readersPhrase } from '../../../src/readers/readersText';
import { fetchRangeWith, fetchSnapshot, readersOf, SnapshotStore, type SnapshotKey, type VisitorsSnapshot } from '../../../src/analytics/visitorsSnapshot';
import { JoinedGrant } from '../../../src/hour/joinedGrant';
import { rejectsWith } from '../../support/rejectsWith';
import { startSimulator, type Simulator } from '../../simulator/server';
import { grantOf, unlimited } from '../../support/grants';
import type { Grant } from '../../../src/api/client';
import type { FetchVisitors } from '../../../src/analytics/visitorsQuery';

const PROJECT = 'demo-project';
const KEY = 'mint_unit_readers';

class MemoryStorage {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    // A Memento stores JSON: keep what a reload would read back, not the live object.
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

describe('readers snapshot', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let api: ApiClient;
  const key: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-10-22', dateTo: '2026-11-21' };
  const visitorRequests = () => sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).length;
  /** The client's visitors page, with the grant a store's fetch was given. */
  const withGrant = (grant: Grant) => (projectId: string, query: Parameters<ApiClient['getVisitors']>[1], options: { signal?: AbortSignal }) =>
    api.getVisitors(projectId, query, { ...options, grant });
  const fetchPage = withGrant(unlimited);

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', pathCount: 600, analyticsLimitPerHour: 1000 });
    api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timeoutMs: () => 5_000 });
  });
  after(() => sim.close());
  beforeEach(() => sim.clearRequests());

  it('takes the whole range in ceil(paths/250) requests and equals the ground truth', async () => {
    const truth = sim.visitorsFor(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo });
    const snapshot = await fetchSnapshot(fetchPage, key, { maxPages: 40 });
    assert.equal(visitorRequests(), Math.ceil(truth.visitors.length / 250));
    assert.equal(snapshot.pages, visitorRequests());
    assert.deepEqual(snapshot.rows, truth.visitors);
    assert.deepEqual(snapshot.totals, truth.totals);
    assert.equal(snapshot.capped, false);
    const quickstart = truth.visitors.find((r) => r.path === '/quickstart');
    assert.ok(quickstart);
    assert.deepEqual(readersOf(snapshot, '/quickstart'), { kind: 'read', row: quickstart, rank: truth.visitors.indexOf(quickstart) + 1 });
    assert.deepEqual(readersOf(snapshot, '/no/such/page'), { kind: 'none' });
  });

  it('stops at the page cap and says the figures cover only the top pages', async () => {
    const snapshot = await fetchSnapshot(fetchPage, key, { maxPages: 1 });
    assert.equal(visitorRequests(), 1);
    assert.equal(snapshot.capped, true);
    assert.equal(snapshot.rows.length, 250);
    assert.deepEqual(readersOf(snapshot, '/no/such/page'), { kind: 'beyondCap', covered: 250 });
    assert.deepEqual(readersPhrase(readersOf(snapshot, '/no/such/page'), 'last30'), ['not in the top {0} pages', '250']);
  });

  it('fetches a range once an hour, shares a fetch on its way, and survives a reload from storage', async () => {
    let clock = Date.parse('2026-11-20T10:00:00Z');
    const storage = new MemoryStorage();
    const make = () =>
      new SnapshotStore({ fetch: (k, grant) => fetchSnapshot(withGrant(grant), k, { maxPages: 40, now: () => clock }), storage, now: () => clock });
    const store = make();
    const perRange = Math.ceil(sim.visitorsFor(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo }).visitors.length / 250);
    // Fifty pages opened at once and one after another: one fetch of the range.
    const all = await Promise.all(Array.from({ length: 50 }, () => store.get(key, { grant: unlimited })));
    for (let i = 0; i < 50; i++) await store.get(key, { grant: unlimited });
    assert.equal(new Set(all).size, 1);
    assert.equal(visitorRequests(), perRange);

    // A reload: a new store over the same storage answers without a request within the hour.
    const reloaded = make();
    const kept = reloaded.cached(key);
    assert.ok(kept);
    assert.deepEqual(kept.rows, all[0].rows);
    await reloaded.get(key, { grant: unlimited });
    assert.equal(visitorRequests(), perRange);

    // An hour later the next page shown fetches again; a Refresh fetches at once.
    clock += 60 * 60 * 1000;
    await reloaded.get(key, { grant: unlimited });
    assert.equal(visitorRequests(), 2 * perRange);
    await reloaded.get(key, { refresh: true, grant: unlimited });
    assert.equal(visitorRequests(), 3 * perRange);

    // Another range is another snapshot; the first stays.
    const other: SnapshotKey = { ...key, dateFrom: '2026-11-14' };
    await reloaded.get(other, { grant: unlimited });
    assert.equal(visitorRequests(), 4 * perRange);
    assert.ok(reloaded.cached(key));
  });

  it('a writer who joins a background fetch on its way lends it their grant: it is not held to the background’s', async () => {
    sim.clearRequests();
    const store = new SnapshotStore({ fetch: (k, leave) => fetchSnapshot(withGrant(leave), k, { maxPages: 40 }), storage: new MemoryStorage() });
    const perRange = Math.ceil(sim.visitorsFor(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo }).visitors.length / 250);
    assert.ok(perRange >= 3, `${perRange} pages a range`);
    // The page shown: background work with room for one request; the writer's Refresh a moment later, with room for all.
    const background = grantOf(1);
    const shown = store.get(key, { grant: background, background: true });
    const asked = store.get(key, { grant: grantOf(40) });
    const [a, b] = await Promise.all([shown, asked]);
    assert.equal(a, b, 'one fetch');
    assert.equal(a.capped, false, 'every page read');
    assert.equal(visitorRequests(), perRange);
    assert.equal(background.taken, 1, 'the background grant gave its one');
  });

  it('keeps at most four ranges in storage', async () => {
    const storage = new MemoryStorage();
    const tiny = (k: SnapshotKey): Promise<VisitorsSnapshot> =>
      Promise.resolve({
        key: k,
        totals: { human: 1, ai: 0, total: 1 },
        rows: [{ path: '/a', human: 1, ai: 0, total: 1 }],
        fetchedAt: Date.now(),
        pages: 1,
        capped: false,
      });
    const store = new SnapshotStore({ fetch: tiny, storage });
    for (let day = 1; day <= 6; day++) await store.get({ ...key, dateFrom: `2026-11-0${day}` }, { grant: unlimited });
    const stored = storage.get('mintlifyAgent.readers.snapshots') as unknown[];
    assert.equal(stored.length, 4);
    const reloaded = new SnapshotStore({ fetch: tiny, storage });
    assert.equal(reloaded.cached({ ...key, dateFrom: '2026-11-01' }), undefined);
    assert.ok(reloaded.cached({ ...key, dateFrom: '2026-11-06' }));
  });

  it('ignores a stored value of the wrong shape and fetches', async () => {
    const storage = new MemoryStorage();
    storage.values.set('mintlifyAgent.readers.snapshots', [{ key: 'nonsense' }]);
    const store = new SnapshotStore({ fetch: (k, grant) => fetchSnapshot(withGrant(grant), k, { maxPages: 40 }), storage });
    assert.equal(store.cached(key), undefined);
    await store.get(key, { grant: unlimited });
    assert.ok(visitorRequests() > 0);
  });

  it('reads as "N readers · P% AI" and "no readers in 30 days"', () => {
    const row = { path: '/x', human: 1000, ai: 398, total: 1284 };
    assert.deepEqual(readersPhrase({ kind: 'read', row, rank: 3 }, 'last30'), ['{0} readers · {1}% AI', '1,284', '31']);
    assert.deepEqual(readersPhrase({ kind: 'read', row: { path: '/x', human: 1, ai: 0, total: 1 }, rank: 3 }, 'last7'), ['1 reader · {0}% AI', '0']);
    assert.deepEqual(readersPhrase({ kind: 'none' }, 'last30'), ['no readers {0}', 'in 30 days']);
    assert.equal(aiPercent(0, 0), 0);
  });
});

describe('a range cut short by the hour: only a settled one is gathered (fetchSnapshot)', function () {
  this.timeout(20_000);
  // 600 paths: 3 pages of 250. The simulator's last day is 2026-11-20, and "now" is its noon.
  const NOW = Date.parse('2026-11-20T12:00:00Z');
  const now = () => NOW;
  const sims: Simulator[] = [];
  const simulator = async (seed: number) => {
    const sim = await startSimulator({ today: '2026-11-20', pathCount: 600, analyticsLimitPerHour: 1000, seed });
    sims.push(sim);
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY });
    const offsets = () => sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).map((r) => Number(r.query.offset ?? 0));
    return { sim, offsets, page: (grant: Grant) => ((projectId, query, options) => api.getVisitors(projectId, query, { ...options, grant })) as FetchVisitors };
  };
  after(() => Promise.all(sims.map((sim) => sim.close())));

  it('a range that includes today is kept cut short, never gone on from by offset: the next fetch starts at its first page', async () => {
    const today: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-11-01', dateTo: '2026-11-21' };
    const { sim, offsets, page } = await simulator(42);
    const first = await fetchSnapshot(page(grantOf(1)), today, { maxPages: 40, now });
    assert.deepEqual([first.pages, first.capped, first.gathering], [1, true, undefined], 'cut short, not "still being gathered"');
    const truth = sim.visitorsFor(PROJECT, today).visitors;
    assert.equal(readersOf(first, truth.at(-1)!.path).kind, 'beyondCap', 'a path it did not reach may have readers');

    sim.clearRequests();
    const next = await fetchSnapshot(page(unlimited), today, { maxPages: 40, now, from: first });
    assert.deepEqual(offsets(), [0, 250, 500], 'read again from its first page: its rows re-order as today’s visits come in');
    assert.deepEqual(next.rows, truth);
  });

  it('a kept snapshot of an older version that was "gathering" a range including today is read as cut short', async () => {
    const today: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-11-01', dateTo: '2026-11-21' };
    const settled: SnapshotKey = { ...today, dateTo: '2026-11-15' };
    const row = ['/a', 1, 0, 1];
    const stored = (key: SnapshotKey) => ({ key, totals: { human: 1, ai: 0, total: 1 }, rows: [row], fetchedAt: NOW, pages: 1, capped: true, gathering: true });
    const storage = new MemoryStorage();
    storage.values.set('mintlifyAgent.readers.snapshots', [stored(today), stored(settled)]);
    const store = new SnapshotStore({ fetch: () => Promise.reject(new Error('no fetch')), storage, now });
    assert.deepEqual([store.cached(today)?.gathering, store.cached(today)?.capped], [undefined, true]);
    assert.equal(store.cached(settled)?.gathering, true, 'a settled range still goes on');
  });

  it('a settled range whose totals moved since its kept pages starts again from its first page, and ends equal to the API', async () => {
    const settled: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-11-01', dateTo: '2026-11-15' };
    const before = await simulator(42);
    const kept = await fetchSnapshot(before.page(grantOf(1)), settled, { maxPages: 40, now });
    assert.deepEqual([kept.pages, kept.gathering], [1, true]);
    // The platform's figures for those days changed meanwhile (a recount, late events): another data set answers.
    const after = await simulator(7);
    const truth = after.sim.visitorsFor(PROJECT, settled);
    assert.notDeepEqual(truth.totals, kept.totals);
    const whole = await fetchSnapshot(after.page(unlimited), settled, { maxPages: 40, now, from: kept });
    assert.deepEqual(after.offsets(), [250, 0, 250, 500], 'one page said the totals moved; then the whole range from its first page');
    assert.deepEqual([whole.rows, whole.totals, whole.capped, whole.gathering], [truth.visitors, truth.totals, false, undefined]);
    const missed = truth.visitors.filter((r) => readersOf(whole, r.path).kind !== 'read');
    assert.deepEqual(missed, [], 'no page that had readers reads "no readers"');
  });
});

describe('the store’s fetch of a range (fetchRangeWith), cut by the hour', function () {
  this.timeout(20_000);
  let sim: Simulator | undefined;
  afterEach(() => sim?.close());

  /** A site of 1,000 paths (4 pages of 250) whose organisation has `limit` analytics requests left this hour. */
  async function fetchWith(limit: number) {
    sim = await startSimulator({ pathCount: 1_000, analyticsLimitPerHour: limit });
    const api = createApiClient({ baseUrl: () => sim!.url, getApiKey: async () => KEY });
    const lines: string[] = [];
    const fetch = fetchRangeWith({ api, maxPages: () => 40, log: { info: (line) => lines.push(line) } });
    const key: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-10-01', dateTo: '2026-10-31' };
    return { fetch, key, lines, sent: () => sim!.requests.filter((r) => r.rawPath.endsWith('/visitors')).length };
  }

  it('background work met by a 429 part way keeps the pages before it, to go on from them', async () => {
    const { fetch, key, lines } = await fetchWith(2);
    const snapshot = await fetch(key, new JoinedGrant(unlimited, true));
    assert.deepEqual([snapshot.pages, snapshot.rows.length, snapshot.gathering], [2, 500, true]);
    assert.match(lines.at(-1)!, /^readers: 500 paths in 2 request\(s\) \(capped\)$/);
  });

  it('background work whose first page meets a 429 keeps nothing and says so with the 429', async () => {
    const { fetch, key } = await fetchWith(0);
    await rejectsWith(fetch(key, new JoinedGrant(unlimited, true)), 'rateLimited');
  });

  it('once a writer has joined, a 429 part way is theirs to see: the fetch fails with it', async () => {
    const { fetch, key } = await fetchWith(2);
    const joined = new JoinedGrant(unlimited, true);
    joined.join(unlimited, false);
    await rejectsWith(fetch(key, joined), 'rateLimited');
  });

  it('spends the joined grants each in turn, and with none left is not granted, sending nothing more', async () => {
    const some = await fetchWith(100);
    const joined = new JoinedGrant(grantOf(1), true);
    joined.join(grantOf(2), false);
    const snapshot = await some.fetch(some.key, joined);
    assert.deepEqual([snapshot.pages, snapshot.gathering, joined.refused, some.sent()], [3, true, true, 3]);
    await sim!.close();

    const none = await fetchWith(100);
    const empty = new JoinedGrant(grantOf(0), true);
    await rejectsWith(none.fetch(none.key, empty), 'notGranted');
    assert.deepEqual([empty.refused, none.sent()], [true, 0]);
  });
});

describe('the store’s one fetch of a range, each caller’s own cancel (SnapshotStore.get)', function () {
  const key: SnapshotKey = { projectId: PROJECT, dateFrom: '2026-10-22', dateTo: '2026-11-21' };

  it('aborts the fetch only when every caller has cancelled; a caller after that starts a new one', async () => {
    const fetches: AbortSignal[] = [];
    const store = new SnapshotStore({
      // A fetch that never answers: it ends only when its signal (the store's fetch would hand it to the client) aborts.
      fetch: (_key, joined) => {
        fetches.push(joined.signal);
        return new Promise((_resolve, reject) => joined.signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
      storage: new MemoryStorage(),
    });
    const first = new AbortController();
    const second = new AbortController();
    const firstGet = store.get(key, { grant: unlimited, signal: first.signal });
    const secondGet = store.get(key, { grant: unlimited, signal: second.signal });
    assert.equal(fetches.length, 1, 'one fetch for both');

    first.abort();
    await rejectsWith(firstGet, 'cancelled');
    assert.equal(fetches[0].aborted, false, 'the second still waits for it');
    second.abort();
    await rejectsWith(secondGet, 'cancelled');
    assert.equal(fetches[0].aborted, true);

    // The aborted fetch is nobody's: a caller now does not join it but starts its own.
    void store.get(key, { grant: unlimited, signal: AbortSignal.abort() }).catch(() => undefined);
    assert.equal(fetches.length, 2);
  });
});
