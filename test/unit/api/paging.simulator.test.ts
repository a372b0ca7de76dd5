// Every fetch that pages, against simulators whose paging never ends (test/simulator/endlessPaging.ts):
// the same next cursor on every page, a cursor that changes for ever, hasMore over empty pages, the
// same rows at every offset. Each fetch ends within its endpoint's cap, says why it was cut short,
// and the requests the simulator received are counted exactly. Real client, real HTTP.
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient, ENDPOINTS } from '../../../src/api';
import { fetcherFor } from '../../../src/analytics/metric';
import { fetchAllVisitors } from '../../../src/analytics/visitorsQuery';
import { fetchSnapshot as fetchReaders } from '../../../src/analytics/visitorsSnapshot';
import { countWindow } from '../../../src/signals/impactCheck';
import { fetchSnapshot, VIEW_PAGES } from '../../../src/signals/snapshot';
import { startSimulator, type Simulator } from '../../simulator/server';
import type { EndlessPaging } from '../../simulator/types';
import { grantOf, unlimited } from '../../support/grants';

const PROJECT = 'demo-project';
const RANGE = { dateFrom: '2026-10-22', dateTo: '2026-11-21' };
const { getFeedback, getAssistant, getSearches, getVisitors } = ENDPOINTS;

/** Requests the simulator received per list, by the last path segment ("by-page" for feedback/by-page). */
function received(sim: Simulator): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of sim.requests) counts[r.segments.at(-1) ?? ''] = (counts[r.segments.at(-1) ?? ''] ?? 0) + 1;
  return counts;
}

/** What each kind of list costs under each mode: offset lists have no cursor to repeat, so sameCursor never ends them either. */
const EXPECTED: Record<EndlessPaging, { cursor: (cap: number) => number; offset: (cap: number) => number; reason: { cursor: string; offset: string } }> = {
  sameCursor: { cursor: () => 2, offset: (cap) => cap, reason: { cursor: 'repeatedCursor', offset: 'cap' } },
  endless: { cursor: (cap) => cap, offset: (cap) => cap, reason: { cursor: 'cap', offset: 'cap' } },
  emptyPages: { cursor: () => 1, offset: () => 1, reason: { cursor: 'emptyPage', offset: 'emptyPage' } },
  sameRows: { cursor: () => 2, offset: () => 2, reason: { cursor: 'noNewRows', offset: 'noNewRows' } },
};

describe('paging that always ends, at the simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let api: ApiClient;

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20' });
    api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_unit_test_key', timeoutMs: () => 5_000 });
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
  });

  for (const how of Object.keys(EXPECTED) as EndlessPaging[]) {
    const expected = EXPECTED[how];
    describe(`a server whose paging never ends: ${how}`, () => {
      beforeEach(() => sim.addFault({ fault: { kind: 'pagingNeverEnds', how } }));

      it('Fetch Reader Signals: every list ends within its cap and says why', async () => {
        const snapshot = await fetchSnapshot(api, PROJECT, RANGE, { grant: unlimited });
        const counts = {
          'by-page': 1,
          feedback: expected.cursor(getFeedback.maxPages),
          assistant: expected.cursor(getAssistant.maxPages),
          searches: expected.cursor(getSearches.maxPages),
          views: expected.offset(VIEW_PAGES),
        };
        assert.deepEqual(received(sim), counts);
        assert.equal(
          snapshot.requests,
          Object.values(counts).reduce((a, b) => a + b),
        );
        assert.deepEqual(snapshot.cutShort, {
          byPage: { reason: how === 'emptyPages' ? 'emptyPage' : 'cap', pages: 1 },
          pending: { reason: expected.reason.cursor, pages: counts.feedback },
          questions: { reason: expected.reason.cursor, pages: counts.assistant },
          searches: { reason: expected.reason.cursor, pages: counts.searches },
          views: { reason: expected.reason.offset, pages: counts.views },
        });
      });

      it('Did It Help?: one window ends within the caps of its three lists', async () => {
        const counts = await countWindow(api, PROJECT, { path: '/endless/1', searches: ['a term it never finds'] }, RANGE, { grant: unlimited });
        const cursorPages = {
          feedback: expected.cursor(getFeedback.maxPages),
          assistant: expected.cursor(getAssistant.maxPages),
          searches: expected.cursor(getSearches.maxPages),
        };
        assert.deepEqual(received(sim), cursorPages);
        assert.equal(counts.requests, cursorPages.feedback + cursorPages.assistant + cursorPages.searches);
        assert.equal(counts.cutShort.votes?.reason, expected.reason.cursor);
        assert.equal(counts.cutShort.searches?.reason, expected.reason.cursor);
      });

      for (const metric of ['visitors', 'views'] as const) {
        it(`an export of ${metric} ends within the cap, with the rows it read`, async () => {
          const all = await fetchAllVisitors(fetcherFor(api, metric), PROJECT, RANGE, { grant: unlimited });
          const pages = expected.offset(getVisitors.maxPages);
          assert.deepEqual(received(sim), { [metric]: pages });
          assert.deepEqual(all.cutShort, { reason: expected.reason.offset, pages });
          assert.equal(all.rows.length, how === 'emptyPages' ? 0 : how === 'sameRows' ? 250 : pages * 250);
        });
      }

      it('the readers (and Compare) end at their own, smaller cap', async () => {
        const fetchPage = fetcherFor(api, 'visitors');
        const snapshot = await fetchReaders((p, q, o) => fetchPage(p, q, { ...o, grant: unlimited }), { projectId: PROJECT, ...RANGE }, { maxPages: 40 });
        const pages = expected.offset(40);
        assert.deepEqual(received(sim), { visitors: pages });
        assert.equal(snapshot.pages, pages);
        assert.equal(snapshot.capped, true, 'paths beyond what was read may have readers');
      });
    });
  }

  it('a grant of the hour stops a fetch mid-way, with what fit', async () => {
    sim.addFault({ fault: { kind: 'pagingNeverEnds', how: 'endless' } });
    const snapshot = await fetchSnapshot(api, PROJECT, RANGE, { grant: grantOf(7), partial: true });
    assert.equal(sim.requests.length, 7);
    assert.deepEqual(received(sim), { 'by-page': 1, feedback: 6 });
    assert.deepEqual(snapshot.cutShort?.pending, { reason: 'notGranted', pages: 6 });
    assert.deepEqual(snapshot.cutShort?.questions, { reason: 'notGranted', pages: 0 });
  });

  it('the client sends no analytics request without a grant, or past it (nothing reaches the server)', async () => {
    await assert.rejects(api.getVisitors(PROJECT, { ...RANGE, limit: 1 }), (error: { kind?: string }) => error.kind === 'notGranted');
    const grant = grantOf(1);
    await api.getVisitors(PROJECT, { ...RANGE, limit: 1 }, { grant });
    await assert.rejects(api.getVisitors(PROJECT, { ...RANGE, limit: 1 }, { grant }), (error: { kind?: string }) => error.kind === 'notGranted');
    assert.equal(sim.requests.length, 1, 'only the one the grant allowed');
  });
});
