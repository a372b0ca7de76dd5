// The panel's comparison state (src/analytics/comparison.ts): off until turned on, the previous
// period loaded once, the rows on screen labelled, on the simulator's real rows.
import assert from 'node:assert/strict';
import { Comparison } from '../../../src/analytics/comparison';
import { changeLabel, changeOf } from '../../../src/analytics/periodCompare';
import { startSimulator, type Simulator } from '../../simulator/server';

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
