// Did It Help? (src/signals/didItHelp.ts): the before/after windows and their comparison with its
// thresholds. No vscode import.
import assert from 'node:assert/strict';
import { comparisonWindows, compareWindows, MIN_VOTES, type WindowCounts } from '../../../src/signals/didItHelp';

describe('reader signals', () => {
  describe('did it help', () => {
    const counts = (votesUp: number, votesDown: number, extra: Partial<WindowCounts> = {}): WindowCounts => ({
      votesUp,
      votesDown,
      questions: 0,
      unanswered: 0,
      searches: 0,
      searchClicks: 0,
      ...extra,
    });
    const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

    it('waits a week after the change, then compares equal windows of at most 28 days', () => {
      assert.equal(comparisonWindows(day('2026-11-15') + 3_600_000, day('2026-11-20')), undefined);
      assert.deepEqual(comparisonWindows(day('2026-11-01') + 3_600_000, day('2026-11-20') + 5_000), {
        before: { dateFrom: '2026-10-14', dateTo: '2026-11-01' },
        after: { dateFrom: '2026-11-02', dateTo: '2026-11-20' },
        days: 18,
      });
      assert.equal(comparisonWindows(day('2026-01-01'), day('2026-11-20'))?.days, 28);
    });

    it(`shows the 👎 share change with ${MIN_VOTES} votes in each window`, () => {
      const result = compareWindows(counts(10, 10), counts(16, 4), false).thumbsDownShare;
      assert.deepEqual(result, { kind: 'change', before: 0.5, after: 0.2, points: -30, better: true });
    });

    it('says "not enough data" below the threshold, never a number', () => {
      const result = compareWindows(counts(10, 10), counts(12, 7), true);
      assert.equal(result.thumbsDownShare.kind, 'notEnoughData');
      assert.equal(result.unansweredShare.kind, 'notEnoughData');
      assert.equal(result.searchClickRate?.kind, 'notEnoughData');
    });

    it('counts clicks on the addressed searches as better when they rise', () => {
      const result = compareWindows(counts(0, 0, { searches: 40, searchClicks: 4 }), counts(0, 0, { searches: 40, searchClicks: 20 }), true);
      assert.deepEqual(result.searchClickRate, { kind: 'change', before: 0.1, after: 0.5, points: 40, better: true });
    });
  });
});
