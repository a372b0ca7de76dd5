// The trend chart's arithmetic (src/webview/trendChart.ts): the y axis's round ticks and which
// buckets get a date under the x axis. The drawing itself needs a DOM, which the unit tier has not;
// the host tier reads the chart's table instead.
import assert from 'node:assert/strict';
import { lineRuns, niceTicks, xLabelIndexes } from '../../../src/webview/trendChart';

describe('trend chart axes (src/webview/trendChart.ts)', () => {
  it('ticks the y axis from 0 in steps of 1, 2 or 5 times a power of ten, up to the first at or above the largest value', () => {
    assert.deepEqual(niceTicks(100), [0, 50, 100]);
    assert.deepEqual(niceTicks(101), [0, 50, 100, 150]);
    assert.deepEqual(niceTicks(37), [0, 10, 20, 30, 40]);
    assert.deepEqual(niceTicks(5), [0, 2, 4, 6]);
    assert.deepEqual(niceTicks(1234), [0, 500, 1000, 1500]);
    assert.deepEqual(niceTicks(2_000_000), [0, 500_000, 1_000_000, 1_500_000, 2_000_000]);
  });

  it('keeps 3 to 5 ticks of whole numbers for any largest value', () => {
    for (const max of [0, 1, 2, 3, 7, 9, 10, 11, 19, 21, 49, 99, 250, 999, 4321, 98_765, 1e9]) {
      const ticks = niceTicks(max);
      assert.ok(ticks.length >= 3 && ticks.length <= 5, `${max}: ${ticks.join(', ')}`);
      assert.equal(ticks[0], 0);
      assert.ok(ticks[ticks.length - 1] >= max, `${max}: the top tick covers it`);
      assert.ok(ticks.every(Number.isInteger), `${max}: whole numbers`);
    }
  });

  it('still gives a scale for an empty, flat or nonsensical chart', () => {
    assert.deepEqual(niceTicks(0), [0, 1, 2]);
    assert.deepEqual(niceTicks(-5), [0, 1, 2]);
    assert.deepEqual(niceTicks(Number.NaN), [0, 1, 2]);
    assert.deepEqual(niceTicks(Number.POSITIVE_INFINITY), [0, 1, 2]);
  });

  it('labels every bucket while at most 8 fit, else every k-th from the first', () => {
    assert.deepEqual(xLabelIndexes(0), []);
    assert.deepEqual(xLabelIndexes(1), [0]);
    assert.deepEqual(xLabelIndexes(7), [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(xLabelIndexes(8), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(xLabelIndexes(9), [0, 2, 4, 6, 8]);
    assert.deepEqual(xLabelIndexes(30), [0, 4, 8, 12, 16, 20, 24, 28]);
    assert.deepEqual(xLabelIndexes(10, 3), [0, 4, 8]);
    for (let n = 1; n <= 400; n++) assert.ok(xLabelIndexes(n).length <= 8, `${n} buckets`);
  });

  it('breaks the lines at a point not fetched yet, and draws the segments into today’s point faint', () => {
    const point = (missing = false, open = false) => ({ from: 'd', to: 'd', partial: false, open, human: 1, ai: 1, total: 2, ...(missing && { missing }) });
    assert.deepEqual(lineRuns([point(), point(), point(), point(false, true)]), [
      { open: false, indexes: [0, 1, 2] },
      { open: true, indexes: [2, 3] },
    ]);
    assert.deepEqual(lineRuns([point(true), point(true), point(), point(), point(true), point(), point()]), [
      { open: false, indexes: [2, 3] },
      { open: false, indexes: [5, 6] },
    ]);
    assert.deepEqual(lineRuns([point(), point(true), point()]), [], 'no segment touches a point not fetched');
  });
});
