// The one paging rule (src/api/paging.ts) on scripted pages: where each kind ends naturally, each
// way a fetch is cut short, and what it asks for. The simulator's misbehaving servers are in
// paging.simulator.test.ts; these pin the rule itself.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { type ListSpec, type PageQuery, readPages } from '../../../src/api/paging';
import { grantOf } from '../../support/grants';

interface Page {
  items: { id: string }[];
  nextCursor?: string | null;
  hasMore?: boolean;
}

const spec = (paging: ListSpec<Page, { id: string }>['paging'], maxPages = 10): ListSpec<Page, { id: string }> => ({
  paging,
  pageSize: 3,
  maxPages,
  rows: (page) => page.items,
  rowId: (row) => row.id,
});

const items = (...ids: (string | number)[]) => ids.map((id) => ({ id: String(id) }));

/** A server scripted by a function of the query; records what was asked. */
function server(answer: (query: PageQuery, n: number) => Page) {
  const asked: PageQuery[] = [];
  return { asked, fetch: async (query: PageQuery) => (asked.push(query), answer(query, asked.length)) };
}

describe('the paging rule (readPages)', () => {
  it('cursor: follows nextCursor to its end, asking the page size and each cursor once', async () => {
    const s = server((q) =>
      q.cursor === undefined
        ? { items: items(1, 2, 3), nextCursor: 'b' }
        : q.cursor === 'b'
          ? { items: items(4, 5, 6), nextCursor: 'c' }
          : { items: items(7), nextCursor: null },
    );
    const all = await readPages(spec('cursor'), s.fetch);
    assert.deepEqual(s.asked, [{ limit: 3 }, { limit: 3, cursor: 'b' }, { limit: 3, cursor: 'c' }]);
    assert.deepEqual(
      all.rows.map((r) => r.id),
      ['1', '2', '3', '4', '5', '6', '7'],
    );
    assert.equal(all.pages, 3);
    assert.equal(all.cutShort, undefined);
  });

  it('cursor: hasMore false ends it even with a cursor', async () => {
    const s = server(() => ({ items: items(1), nextCursor: 'again', hasMore: false }));
    const all = await readPages(spec('cursor'), s.fetch);
    assert.equal(s.asked.length, 1);
    assert.equal(all.cutShort, undefined);
  });

  it('offset: steps the offset by the page size while hasMore', async () => {
    const s = server((q) => ({ items: items(...[0, 1, 2].map((i) => (q.offset ?? 0) + i)).slice(0, q.offset === 6 ? 1 : 3), hasMore: (q.offset ?? 0) < 6 }));
    const all = await readPages(spec('offset'), s.fetch);
    assert.deepEqual(s.asked, [
      { limit: 3, offset: 0 },
      { limit: 3, offset: 3 },
      { limit: 3, offset: 6 },
    ]);
    assert.equal(all.rows.length, 7);
    assert.equal(all.cutShort, undefined);
  });

  it('none: one request; more behind it is its cap', async () => {
    const s = server(() => ({ items: items(1, 2, 3), hasMore: true }));
    const all = await readPages(spec('none', 1), s.fetch);
    assert.equal(s.asked.length, 1);
    assert.deepEqual(all.cutShort, { reason: 'cap', pages: 1 });
  });

  it('an empty list is one request, not cut short', async () => {
    const s = server(() => ({ items: [], nextCursor: null, hasMore: false }));
    const all = await readPages(spec('cursor'), s.fetch);
    assert.equal(s.asked.length, 1);
    assert.deepEqual(all.rows, []);
    assert.equal(all.cutShort, undefined);
  });

  it("stops at the cap (the table's, or a smaller one asked for) on a list that never ends", async () => {
    const endless = () => server((_q, n) => ({ items: items(n * 10, n * 10 + 1), nextCursor: `c${n}`, hasMore: true }));
    const a = endless();
    assert.deepEqual((await readPages(spec('cursor', 4), a.fetch)).cutShort, { reason: 'cap', pages: 4 });
    assert.equal(a.asked.length, 4);
    const b = endless();
    assert.deepEqual((await readPages(spec('cursor', 4), b.fetch, { maxPages: 2 })).cutShort, { reason: 'cap', pages: 2 });
    const c = endless();
    await readPages(spec('cursor', 4), c.fetch, { maxPages: 99 });
    assert.equal(c.asked.length, 4, 'never deeper than the table allows');
  });

  it('stops on a cursor it has already sent', async () => {
    const s = server((_q, n) => ({ items: items(n), nextCursor: n === 1 ? 'x' : n === 2 ? 'y' : 'x' }));
    const all = await readPages(spec('cursor'), s.fetch);
    assert.equal(s.asked.length, 3);
    assert.deepEqual(all.cutShort, { reason: 'repeatedCursor', pages: 3 });
    assert.deepEqual(
      all.rows.map((r) => r.id),
      ['1', '2', '3'],
    );
  });

  it('stops on the same cursor answered again at once', async () => {
    const s = server((_q, n) => ({ items: items(n), nextCursor: 'same' }));
    assert.deepEqual((await readPages(spec('cursor'), s.fetch)).cutShort, { reason: 'repeatedCursor', pages: 2 });
    assert.equal(s.asked.length, 2);
  });

  it('stops on an empty page that says there is more (both kinds)', async () => {
    for (const paging of ['cursor', 'offset'] as const) {
      const s = server((_q, n) => ({ items: n === 1 ? items(1, 2, 3) : [], nextCursor: `c${n}`, hasMore: true }));
      const all = await readPages(spec(paging), s.fetch);
      assert.deepEqual(all.cutShort, { reason: 'emptyPage', pages: 2 }, paging);
      assert.equal(all.rows.length, 3);
    }
  });

  it('stops on a page that brings no row it has not seen, and keeps each row once', async () => {
    const s = server((q) => ({ items: (q.offset ?? 0) === 0 ? items(1, 2, 3) : (q.offset ?? 0) === 3 ? items(3, 4, 5) : items(4, 5), hasMore: true }));
    const all = await readPages(spec('offset'), s.fetch);
    assert.equal(s.asked.length, 3);
    assert.deepEqual(all.cutShort, { reason: 'noNewRows', pages: 3 });
    assert.deepEqual(
      all.rows.map((r) => r.id),
      ['1', '2', '3', '4', '5'],
    );
  });

  it('stops where the hour’s gate refuses the next page (as the client does, unsent), with what it read', async () => {
    const s = server((_q, n) => ({ items: items(n), nextCursor: `c${n}` }));
    /** What the client does: no ticket, no request. */
    const gated = (grant: ReturnType<typeof grantOf>) => async (query: PageQuery) =>
      (await grant.reserve()) ? s.fetch(query) : Promise.reject(new ApiError('notGranted', 'not sent'));
    const all = await readPages(spec('cursor'), gated(grantOf(2)));
    assert.equal(s.asked.length, 2);
    assert.deepEqual(all.cutShort, { reason: 'notGranted', pages: 2 });
    assert.equal(all.rows.length, 2);
    const none = await readPages(spec('cursor'), gated(grantOf(0)));
    assert.deepEqual(none, { rows: [], first: undefined, pages: 0, cutShort: { reason: 'notGranted', pages: 0 } });
    assert.equal(s.asked.length, 2, 'nothing more was asked');
  });

  it('any other failure of a page is the fetch’s failure, not a cut', async () => {
    const s = server(() => {
      throw new ApiError('serverError', 'broke', { status: 500 });
    });
    await assert.rejects(readPages(spec('cursor'), s.fetch), (error: unknown) => error instanceof ApiError && error.kind === 'serverError');
  });

  it('`enough` ends it early as a natural end', async () => {
    const s = server((_q, n) => ({ items: items(n), nextCursor: `c${n}` }));
    const all = await readPages(spec('cursor'), s.fetch, { enough: (rows) => rows.some((r) => r.id === '2') });
    assert.equal(s.asked.length, 2);
    assert.equal(all.cutShort, undefined);
  });

  it('stops between pages once cancelled', async () => {
    const stop = new AbortController();
    const s = server((_q, n) => (n === 2 && stop.abort(), { items: items(n), nextCursor: `c${n}` }));
    await assert.rejects(readPages(spec('cursor'), s.fetch, { signal: stop.signal }), { name: 'AbortError' });
    assert.equal(s.asked.length, 2);
  });
});
