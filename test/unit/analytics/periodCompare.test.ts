// Compare with the previous period: the period, the change of each row and total, and its label,
// on the simulator's real rows for two adjacent ranges.
import assert from 'node:assert/strict';
import { Comparison } from '../../../src/analytics/comparison';
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

describe('the panel’s comparison state', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', pathCount: 400 });
  });
  after(() => sim.close());
  const range = { dateFrom: '2026-10-22', dateTo: '2026-11-21' };

  it('is off until turned on, loads the previous period once, then labels the rows on screen', async () => {
    const asked: unknown[] = [];
    const comparison = new Comparison(async (projectId, period, label) => {
      asked.push([projectId, period, label]);
      const rows = sim.visitorsFor(projectId, period);
      return { rows: rows.visitors, totals: rows.totals };
    });
    const now = sim.visitorsFor('demo-project', range);
    const data = { rows: now.visitors.slice(0, 50), totals: now.totals };
    assert.equal(comparison.view('demo-project', range, data), undefined);
    comparison.set(true);
    assert.equal(comparison.view('demo-project', range, data)?.status, 'loading');
    await comparison.load('demo-project', range);
    await comparison.load('demo-project', range);
    assert.deepEqual(asked, [['demo-project', { dateFrom: '2026-09-22', dateTo: '2026-10-22' }, '2026-09-22 to 2026-10-21']]);
    const view = comparison.view('demo-project', range, data);
    assert.equal(view?.status, 'ready');
    assert.equal(view.rows?.length, 50);
    const before = sim.visitorsFor('demo-project', { dateFrom: '2026-09-22', dateTo: '2026-10-22' });
    const first = data.rows[0];
    assert.equal(view.rows?.[0]?.label, changeLabel(changeOf(first.total, before.visitors.find((r) => r.path === first.path)?.total)));
    assert.equal(view.totals?.total, changeLabel(changeOf(now.totals.total, before.totals.total)));
  });

  it('says why when there is nothing to compare with or the fetch was declined', async () => {
    const comparison = new Comparison(() => Promise.reject(new Error('Not compared: the previous period was not fetched.')));
    comparison.set(true);
    assert.equal(comparison.view('demo-project', { dateFrom: undefined, dateTo: undefined }, undefined)?.status, 'unavailable');
    await comparison.load('demo-project', range);
    const view = comparison.view('demo-project', range, undefined);
    assert.equal(view?.status, 'failed');
    assert.equal(view.message, 'Not compared: the previous period was not fetched.');
  });
});
