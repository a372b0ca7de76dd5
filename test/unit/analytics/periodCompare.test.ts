// Compare with the previous period (src/analytics/periodCompare.ts): the period, the change of each
// row and total, and its label, on the simulator's real rows for two adjacent ranges.
import assert from 'node:assert/strict';
import { changeLabel, changeOf, changeRank, compareRows, compareTotals, previousPeriod } from '../../../src/analytics/periodCompare';
import { startSimulator, type Simulator } from '../../simulator/server';

describe('compare with the previous period', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', pathCount: 400 });
  });
  after(() => sim.close());

  it('is the same-length period just before', () => {
    assert.deepEqual(previousPeriod({ dateFrom: '2026-10-22', dateTo: '2026-11-21' }), { dateFrom: '2026-09-22', dateTo: '2026-10-22' });
    assert.deepEqual(previousPeriod({ dateFrom: '2026-03-01', dateTo: '2026-03-08' }), { dateFrom: '2026-02-22', dateTo: '2026-03-01' });
    assert.equal(previousPeriod({ dateFrom: undefined, dateTo: undefined }), undefined, 'all time has no previous period');
  });

  it('labels a rise, a fall, no change and a page new in this period', () => {
    assert.equal(changeLabel(changeOf(112, 100)), '▲ 12%');
    assert.equal(changeLabel(changeOf(95, 100)), '▼ 5%');
    assert.equal(changeLabel(changeOf(100, 100)), '0%');
    assert.equal(changeLabel(changeOf(7, undefined)), 'new');
    assert.equal(changeLabel(changeOf(7, 0)), 'new');
    assert.ok(changeRank(changeOf(7, undefined)) > changeRank(changeOf(1000, 1)), 'new sorts above any rise');
  });

  it('compares each row and total with the simulator’s previous period', () => {
    const now = sim.visitorsFor('demo-project', { dateFrom: '2026-10-22', dateTo: '2026-11-21' });
    const range = previousPeriod({ dateFrom: '2026-10-22', dateTo: '2026-11-21' });
    assert.ok(range);
    const before = sim.visitorsFor('demo-project', range);
    const compared = compareRows(now.visitors, before.visitors);
    assert.equal(compared.length, now.visitors.length);
    for (const row of compared) {
      const old = before.visitors.find((r) => r.path === row.path);
      if (!old) assert.deepEqual(row.change, { kind: 'new' });
      else assert.deepEqual(row.change, { kind: 'change', previous: old.total, percent: Math.round(((row.total - old.total) / old.total) * 100) });
    }
    const totals = compareTotals(now.totals, before.totals);
    assert.deepEqual(totals.total, changeOf(now.totals.total, before.totals.total));
  });
});
