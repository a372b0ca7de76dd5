// The visitors pages (src/analytics/visitorsQuery.ts): the page memory, its expiry and its shared
// requests, and the export's paging, against a fake API. No vscode import.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { VisitorsQuery } from '../../../src/api/inputs';
import type { VisitorRow, VisitorsPage } from '../../../src/api/schemas';
import { fetchAllVisitors, LIVE_PAGE_MAX_AGE_MS, PageCache, VisitorsPager, type FetchVisitors, type PageKey } from '../../../src/analytics/visitorsQuery';
import { HeldApi } from '../../support/heldApi';

const row = (path: string, human = 1, ai = 2, total = 3): VisitorRow => ({ path, human, ai, total });

// ---- The page memory and the export's paging, against a fake API ----------------------------------

const TOTALS = { human: 10, ai: 4, total: 12 };

function dataset(count: number): VisitorRow[] {
  return Array.from({ length: count }, (_, i) => row(`/page-${i}`, i, count - i, count));
}

/** Serves `rows` like the API; counts calls; `failOn` makes one call throw. */
function fakeApi(rows: VisitorRow[], failOn?: { call: number; error: Error }) {
  const calls: VisitorsQuery[] = [];
  const fetch: FetchVisitors = async (_projectId, query) => {
    calls.push(query);
    await Promise.resolve();
    if (failOn && calls.length === failOn.call) throw failOn.error;
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 50;
    return { totals: TOTALS, visitors: rows.slice(offset, offset + limit), hasMore: offset + limit < rows.length };
  };
  return { fetch, calls };
}

const key = (pageSize = 50, dateFrom: string | undefined = '2025-03-01'): PageKey => ({ projectId: 'p', dateFrom, dateTo: '2025-03-08', pageSize });

describe('VisitorsPager', () => {
  it('asks for offset (page - 1) × limit with the range', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    await pager.load(key(25), 3);
    assert.deepEqual(api.calls, [{ dateFrom: '2025-03-01', dateTo: '2025-03-08', limit: 25, offset: 50 }]);
  });
  it('going back to a page already fetched costs no request', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    assert.equal((await pager.load(key(), 1)).fromCache, false);
    await pager.load(key(), 2);
    const back = await pager.load(key(), 1);
    assert.equal(back.fromCache, true);
    assert.equal(back.page.visitors[0]?.path, '/page-0');
    assert.equal(api.calls.length, 2);
    assert.ok(pager.cached(key(), 2));
  });
  it('another page size or range is another key', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    await pager.load(key(50), 1);
    await pager.load(key(100), 1);
    await pager.load(key(50, '2025-02-01'), 1);
    assert.equal(api.calls.length, 3);
  });
  it('Refresh forgets the pages of its key only', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    await pager.load(key(50), 1);
    await pager.load(key(50), 2);
    await pager.load(key(100), 1);
    const fresh = await pager.load(key(50), 1, { refresh: true });
    assert.equal(fresh.fromCache, false);
    assert.equal(api.calls.length, 4);
    assert.equal(pager.cached(key(50), 2), undefined, 'page 2 of the refreshed key is forgotten');
    assert.ok(pager.cached(key(100), 1), 'other keys stay');
  });
  it('two asks for a page on its way make one request', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    const [a, b] = await Promise.all([pager.load(key(), 1), pager.load(key(), 1)]);
    assert.equal(api.calls.length, 1);
    assert.equal(a.page, b.page);
  });
  it('does not remember a failure: the next ask tries again', async () => {
    const api = fakeApi(dataset(10), { call: 1, error: new ApiError('network', 'offline') });
    const pager = new VisitorsPager(api.fetch);
    await assert.rejects(pager.load(key(), 1), { kind: 'network' });
    assert.equal((await pager.load(key(), 1)).page.visitors.length, 10);
    assert.equal(api.calls.length, 2);
  });
  it('remembers when a page was fetched', async () => {
    const pager = new VisitorsPager(fakeApi(dataset(5)).fetch, new PageCache(), () => 1234);
    await pager.load(key(), 1);
    assert.equal(pager.cached(key(), 1)?.fetchedAt, 1234);
  });
  it('cancels what is on its way when disposed', async () => {
    let seen: AbortSignal | undefined;
    const pager = new VisitorsPager(async (_p, _q, { signal }) => {
      seen = signal;
      return { totals: TOTALS, visitors: [], hasMore: false };
    });
    await pager.load(key(), 1);
    pager.dispose();
    assert.equal(seen?.aborted, true);
  });
});

describe('PageCache', () => {
  const page = (n: number): VisitorsPage => ({ totals: TOTALS, visitors: [row(`/${n}`)], hasMore: true });
  it('drops the least recently used page beyond its size', () => {
    const cache = new PageCache(2);
    cache.set(key(), 1, page(1), 0);
    cache.set(key(), 2, page(2), 0);
    cache.get(key(), 1); // page 1 is now the most recently used
    cache.set(key(), 3, page(3), 0);
    assert.equal(cache.size, 2);
    assert.ok(cache.get(key(), 1));
    assert.equal(cache.get(key(), 2), undefined);
  });
});

describe('fetchAllVisitors (export paging)', () => {
  const range = { dateFrom: '2025-03-01', dateTo: '2025-03-08' };

  for (const count of [0, 1, 249, 250, 251, 1234, 10_001]) {
    it(`${count} rows take ceil(${count}/250) requests (at least one) and come back whole`, async () => {
      const rows = dataset(count);
      const api = fakeApi(rows);
      const pages: number[] = [];
      const all = await fetchAllVisitors(api.fetch, 'p', range, { onPage: (n) => pages.push(n) });
      assert.equal(api.calls.length, Math.max(1, Math.ceil(count / 250)));
      assert.deepEqual(all.rows, rows);
      assert.deepEqual(all.totals, TOTALS);
      assert.equal(all.cutShort, undefined);
      assert.ok(api.calls.every((q, i) => q.limit === 250 && q.offset === i * 250 && q.dateFrom === range.dateFrom && q.dateTo === range.dateTo));
      assert.equal(pages.length, count ? api.calls.length : 0);
    });
  }
  it('stops on an empty page even when the API says there is more', async () => {
    let calls = 0;
    const all = await fetchAllVisitors(
      async (_p, q) => {
        calls++;
        return { totals: TOTALS, visitors: (q.offset ?? 0) === 0 ? dataset(250) : [], hasMore: true };
      },
      'p',
      range,
    );
    assert.equal(calls, 2);
    assert.equal(all.rows.length, 250);
    assert.deepEqual(all.cutShort, { reason: 'emptyPage', pages: 2 });
  });
  it('stops when the API ignores the offset and sends page 1 again', async () => {
    let calls = 0;
    const all = await fetchAllVisitors(
      async () => {
        calls++;
        return { totals: TOTALS, visitors: dataset(250), hasMore: true };
      },
      'p',
      range,
    );
    assert.equal(calls, 2);
    assert.equal(all.rows.length, 250);
    assert.deepEqual(all.cutShort, { reason: 'noNewRows', pages: 2 });
  });
  it('never loops forever: stops at the page limit, cut short, with the rows read', async () => {
    const api = fakeApi(dataset(10_000));
    const all = await fetchAllVisitors(api.fetch, 'p', range, { maxPages: 5 });
    assert.deepEqual(all.cutShort, { reason: 'cap', pages: 5 });
    assert.equal(all.rows.length, 1_250);
    assert.equal(api.calls.length, 5);
  });
  it('a 429 halfway through fails the whole export after the request that got it', async () => {
    const api = fakeApi(dataset(1000), { call: 3, error: new ApiError('rateLimited', 'slow down', { status: 429, retryAfterMs: 60_000 }) });
    await assert.rejects(fetchAllVisitors(api.fetch, 'p', range), { kind: 'rateLimited', retryAfterMs: 60_000 });
    assert.equal(api.calls.length, 3);
  });
  it('a dropped connection fails the export', async () => {
    const api = fakeApi(dataset(1000), { call: 2, error: new ApiError('network', 'Could not reach the API (ECONNRESET).') });
    await assert.rejects(fetchAllVisitors(api.fetch, 'p', range), { kind: 'network' });
  });
  it('stops between pages once cancelled', async () => {
    const api = fakeApi(dataset(1000));
    const cancel = new AbortController();
    await assert.rejects(fetchAllVisitors(api.fetch, 'p', range, { signal: cancel.signal, onPage: (pages) => pages === 2 && cancel.abort() }), {
      name: 'AbortError',
    });
    assert.equal(api.calls.length, 2);
  });
});

const MINUTE = 60_000;

describe('VisitorsPager memory and flights', () => {
  const live: PageKey = { projectId: 'p', dateFrom: '2025-03-01', dateTo: '2025-03-08', pageSize: 50 };
  const past: PageKey = { projectId: 'p', dateFrom: '2025-02-01', dateTo: '2025-02-08', pageSize: 50 };
  const allTime: PageKey = { projectId: 'p', dateFrom: undefined, dateTo: undefined, pageSize: 50 };

  function setup() {
    const api = new HeldApi();
    let time = Date.parse('2025-03-07T10:00:00');
    const pager = new VisitorsPager(api.fetch, new PageCache(), () => time);
    return { api, pager, advance: (ms: number) => (time += ms) };
  }

  it(`a page of a range that includes today expires after ${LIVE_PAGE_MAX_AGE_MS / MINUTE} minutes`, async () => {
    for (const key of [live, allTime]) {
      const { api, pager, advance } = setup();
      const first = pager.load(key, 1);
      api.answer(0);
      await first;
      advance(LIVE_PAGE_MAX_AGE_MS - 1);
      assert.ok(pager.cached(key, 1), 'still fresh just before');
      advance(1);
      assert.equal(pager.cached(key, 1), undefined, 'expired');
      void pager.load(key, 1);
      assert.equal(api.calls.length, 2, 'the next look fetches it again');
    }
  });

  it('a page of a past range stays until reload', async () => {
    const { api, pager, advance } = setup();
    const first = pager.load(past, 1);
    api.answer(0);
    await first;
    advance(24 * 60 * MINUTE);
    assert.equal((await pager.load(past, 1)).fromCache, true);
    assert.equal(api.calls.length, 1);
  });

  it('one asker giving up leaves the request to the others; the last one aborts it and it is forgotten', async () => {
    const { api, pager } = setup();
    const a = new AbortController();
    const b = new AbortController();
    const first = pager.load(live, 1, { signal: a.signal });
    const second = pager.load(live, 1, { signal: b.signal });
    assert.equal(api.calls.length, 1);
    a.abort();
    await assert.rejects(first, { kind: 'cancelled' });
    assert.equal(api.calls[0]?.signal?.aborted, false, 'the other asker still waits');
    b.abort();
    await assert.rejects(second, { kind: 'cancelled' });
    assert.equal(api.calls[0]?.signal?.aborted, true);
    assert.equal(pager.pending, 0);
    const again = pager.load(live, 1);
    assert.equal(api.calls.length, 2, 'the next try starts afresh');
    api.answer(1);
    assert.equal((await again).fromCache, false);
  });

  it('a failed load is forgotten at once: the next ask does not share it', async () => {
    const { api, pager } = setup();
    const first = pager.load(live, 1);
    api.calls[0]?.fail(new ApiError('timeout', 'No answer in time.'));
    await assert.rejects(first, { kind: 'timeout' });
    void pager.load(live, 1);
    assert.equal(api.calls.length, 2);
  });
});
