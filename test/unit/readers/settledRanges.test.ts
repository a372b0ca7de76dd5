// Background readers over settled ranges (src/readers/settledRanges.ts), against the real simulator
// over HTTP where pages are fetched: background work fetches whole days that ended before today, a
// gathering goes on for the range it started when the day changes (never lost, never mixed with
// another range's pages), and a whole range stays shown while the next one is gathered.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createApiClient, type ApiClient } from '../../../src/api';
import { fetchSnapshot, readersOf, SnapshotStore, type SnapshotKey, type VisitorsSnapshot } from '../../../src/analytics/visitorsSnapshot';
import { planBackground, settledKeys, settledRange } from '../../../src/readers/settledRanges';
import { addDays } from '../../../src/util/days';
import type { PresetId } from '../../../src/shared/protocol';
import { startSimulator, type Simulator } from '../../simulator/server';
import { grantOf } from '../../support/grants';
import { l10n } from '../../support/l10n';

const PROJECT = 'demo-project';
const PRESETS: PresetId[] = ['last7', 'last30', 'last90', 'thisMonth', 'allTime'];

/** A snapshot of `key` as a store keeps it: whole, or still being gathered with `pages` fetched. */
function snapshot(key: SnapshotKey, gathering: boolean, pages = 3): VisitorsSnapshot {
  return { key, totals: { human: 0, ai: 0, total: 0 }, rows: [], fetchedAt: 0, pages, capped: gathering, ...(gathering && { gathering }) };
}

describe('background readers over settled ranges (src/readers/settledRanges.ts)', function () {
  this.timeout(30_000);

  it('a preset’s settled range is its days ending yesterday: whole days only, never today', () => {
    const today = '2026-03-17';
    assert.deepEqual([settledRange('last30', today, l10n).dateFrom, settledRange('last30', today, l10n).dateTo], ['2026-02-15', '2026-03-17']);
    assert.deepEqual([settledRange('last7', today, l10n).from, settledRange('last7', today, l10n).to], ['2026-03-10', '2026-03-16']);
    assert.deepEqual([settledRange('thisMonth', '2026-04-01', l10n).from, settledRange('thisMonth', '2026-04-01', l10n).to], ['2026-03-01', '2026-03-31']);
    assert.deepEqual([settledRange('allTime', today, l10n).dateFrom, settledRange('allTime', today, l10n).dateTo], [undefined, today]);
  });

  it('under any sequence of days and pages, a gathering is gone on with until whole, every fetch is settled, and a whole range stays shown', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRESETS),
        // Each step: the days the calendar moves (0 = the same day), then whether that page shown finished its range.
        fc.array(fc.record({ days: fc.integer({ min: 0, max: 3 }), finishes: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        (preset, steps) => {
          const store = new Map<string, VisitorsSnapshot>();
          const id = (key: SnapshotKey) => JSON.stringify(key);
          let today = '2026-03-16';
          let gatheringKey: SnapshotKey | undefined;
          for (const step of steps) {
            today = addDays(today, step.days);
            const keys = settledKeys(PROJECT, preset, today, l10n);
            const plan = planBackground(
              keys,
              keys.map((key) => store.get(id(key))),
            );
            // A whole range, once fetched, is what is shown while the next is gathered (within the days kept).
            const keptWhole = keys.some((key) => store.get(id(key)) && !store.get(id(key))!.gathering);
            if (keptWhole) assert.ok(plan.show && !plan.show.gathering, 'a whole range is shown');
            if (plan.fetch) {
              // Settled: its last day ended before today.
              assert.ok(plan.fetch.dateTo !== undefined && plan.fetch.dateTo <= today, `${plan.fetch.dateTo} ends before ${today}`);
              // A gathering started on an earlier day is gone on with, not dropped for today's range (within the days kept).
              if (gatheringKey && keys.some((key) => id(key) === id(gatheringKey!))) assert.deepEqual(plan.fetch, gatheringKey);
              store.set(id(plan.fetch), snapshot(plan.fetch, !step.finishes));
              gatheringKey = step.finishes ? undefined : plan.fetch;
            } else {
              assert.ok(plan.show && !plan.show.gathering && id(plan.show.key) === id(keys[0]), 'nothing to fetch only when today’s settled range is whole');
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('just after midnight, before yesterday is over at the platform, a fetch cut short is shown, not gathered, and started again once it is over', () => {
    const keys = settledKeys(PROJECT, 'last30', '2026-03-17', l10n);
    // Fetched at 00:30 UTC: the platform's events of 03-16 may still land (an hour's grace), so its rows may still move.
    const early: VisitorsSnapshot = { ...snapshot(keys[0], false), capped: true, fetchedAt: Date.parse('2026-03-17T00:30:00Z') };
    assert.deepEqual(planBackground(keys, [early], Date.parse('2026-03-17T00:40:00Z')), { show: early }, 'nothing sent to be cut short again');
    assert.deepEqual(planBackground(keys, [early], Date.parse('2026-03-17T02:00:00Z')), { fetch: keys[0], show: early }, 'fetched whole once settled');
  });

  describe('against the simulator', () => {
    let sim: Simulator;
    let api: ApiClient;
    before(async () => {
      sim = await startSimulator({ today: '2026-03-18', pathCount: 2_000, analyticsLimitPerHour: 1000 });
      api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_unit_settled' });
    });
    after(() => sim.close());

    it('a gathering cut by the hour on one day goes on the next from the page after its last, and ends whole and equal to the API', async () => {
      const values = new Map<string, unknown>();
      const store = new SnapshotStore({
        storage: { get: (k) => values.get(k), update: (k, v) => (values.set(k, JSON.parse(JSON.stringify(v))), Promise.resolve()) },
        fetch: (key, leave, kept) =>
          fetchSnapshot((projectId, query, options) => api.getVisitors(projectId, query, { ...options, grant: leave }), key, { maxPages: 40, from: kept }),
      });
      const plan = (today: string) => {
        const keys = settledKeys(PROJECT, 'last30', today, l10n);
        return planBackground(
          keys,
          keys.map((key) => store.cached(key)),
        );
      };
      const offsets = () => sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).map((r) => Number(r.query.offset ?? 0));

      // Day 1: three pages fit in the share.
      const first = plan('2026-03-17');
      assert.ok(first.fetch);
      const day1 = await store.get(first.fetch, { grant: grantOf(3), background: true });
      assert.ok(day1.gathering && day1.pages === 3);
      // Day 2: the same range goes on (not the new day's), from the fourth page.
      const second = plan('2026-03-18');
      assert.deepEqual(second.fetch, first.fetch, 'the gathering goes on for the range it started');
      sim.clearRequests();
      const whole = await store.get(second.fetch, { grant: grantOf(40), background: true });
      assert.equal(offsets()[0], 3 * 250, 'nothing fetched again: it goes on from the fourth page');
      assert.ok(!whole.gathering);
      const truth = sim.visitorsFor(PROJECT, { dateFrom: first.fetch.dateFrom, dateTo: first.fetch.dateTo });
      assert.deepEqual(whole.rows.map((r) => r.path).sort(), truth.visitors.map((r) => r.path).sort());
      assert.equal(readersOf(whole, truth.visitors.at(-1)!.path).kind, 'read', 'a path of the last page has its figure');
      // Whole now: day 2's own range starts next, and the whole one stays shown meanwhile.
      const third = plan('2026-03-18');
      assert.notDeepEqual(third.fetch, first.fetch);
      assert.equal(third.show, whole);
    });
  });
});
