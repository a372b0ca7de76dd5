// The trend's buckets (src/analytics/trend/trendBuckets.ts): a point a day up to 31 days, a point a
// Monday-to-Sunday week past that, cut weeks flagged, the range stopped at today, `dateTo`
// exclusive, and which buckets can be kept for good.
import assert from 'node:assert/strict';
import { resolvePreset } from '../../../../src/analytics/dateRange';
import { isSettled, MAX_BUCKETS, previousBuckets, type TrendBucket, trendBuckets, weekdayFromMonday } from '../../../../src/analytics/trend/trendBuckets';
import { addDays, daysBetween } from '../../../../src/util/days';
import { PRESETS } from '../../../../src/shared/protocol';

const l10n = { t: (message: string | { message: string }) => (typeof message === 'string' ? message : message.message) } as never;
const TODAY = '2026-11-25'; // a Wednesday

function plan(from: string | undefined, to: string | undefined, today = TODAY) {
  const result = trendBuckets(from, to, today);
  assert.ok(result.ok, `no buckets: ${JSON.stringify(result)}`);
  return result;
}

/** Every day of the range is in exactly one bucket, in order, and each bucket's dateTo is the day after its end. */
function assertTiles(buckets: readonly TrendBucket[], from: string, to: string): void {
  assert.equal(buckets[0].from, from);
  assert.equal(buckets.at(-1)!.to, to);
  buckets.forEach((b, i) => {
    assert.equal(b.dateFrom, b.from);
    assert.equal(b.dateTo, addDays(b.to, 1));
    if (i > 0) assert.equal(b.from, buckets[i - 1].dateTo, `bucket ${i} does not follow the one before`);
  });
}

describe('trend buckets (src/analytics/trend/trendBuckets.ts)', () => {
  it('cuts every preset of the panel: days up to 31 days, weeks beyond, All time not at all', () => {
    const units: Record<string, string | undefined> = {};
    for (const preset of PRESETS) {
      const range = resolvePreset(preset, TODAY, l10n);
      const result = trendBuckets(range.from, range.to, TODAY);
      units[preset] = result.ok ? `${result.unit} ${result.buckets.length}` : result.reason;
      if (result.ok) assertTiles(result.buckets, range.from!, TODAY);
    }
    assert.deepEqual(units, { last7: 'day 7', last30: 'day 30', last90: 'week 14', thisMonth: 'day 25', allTime: 'allTime' });
  });

  it('runs weeks Monday to Sunday and flags a first and last week cut by the range', () => {
    const range = resolvePreset('last90', TODAY, l10n); // 2026-08-28 (a Friday) to 2026-11-25 (a Wednesday)
    const { buckets } = plan(range.from, range.to);
    assert.deepEqual(buckets[0], { from: '2026-08-28', to: '2026-08-30', dateFrom: '2026-08-28', dateTo: '2026-08-31', partial: true, open: false });
    assert.deepEqual(buckets.at(-1), { from: '2026-11-23', to: '2026-11-25', dateFrom: '2026-11-23', dateTo: '2026-11-26', partial: true, open: true });
    for (const week of buckets.slice(1, -1)) {
      assert.equal(weekdayFromMonday(week.from), 0, `${week.from} is not a Monday`);
      assert.equal(daysBetween(week.from, week.to), 6);
      assert.equal(week.partial, false);
    }
    assert.equal(
      buckets.reduce((days, b) => days + daysBetween(b.from, b.to) + 1, 0),
      90,
    );
  });

  it('cuts custom ranges across month, leap-day and year ends', () => {
    const leap = plan('2024-01-31', '2024-03-01');
    assert.equal(leap.unit, 'day');
    assert.equal(leap.buckets.length, 31);
    assert.ok(leap.buckets.some((b) => b.from === '2024-02-29'));
    assertTiles(leap.buckets, '2024-01-31', '2024-03-01');

    const yearEnd = plan('2025-12-15', '2026-02-15'); // Monday to Sunday: whole weeks only
    assert.equal(yearEnd.unit, 'week');
    assert.equal(yearEnd.buckets.length, 9);
    assert.ok(yearEnd.buckets.every((b) => !b.partial && !b.open));
    assert.ok(
      yearEnd.buckets.some((b) => b.from === '2025-12-29' && b.to === '2026-01-04'),
      'the week across the new year is one bucket',
    );
    assertTiles(yearEnd.buckets, '2025-12-15', '2026-02-15');

    const day = plan('2026-02-28', '2026-02-28');
    assert.deepEqual(day.buckets, [{ from: '2026-02-28', to: '2026-02-28', dateFrom: '2026-02-28', dateTo: '2026-03-01', partial: false, open: false }]);
  });

  it('stops at today, refuses a range that starts after it, and refuses more than a year of weeks', () => {
    const past = plan('2026-11-20', '2026-12-31');
    assert.equal(past.buckets.at(-1)!.to, TODAY);
    assert.equal(past.buckets.length, 6);
    assert.deepEqual(trendBuckets('2026-11-26', '2026-12-31', TODAY), { ok: false, reason: 'future' });
    assert.deepEqual(trendBuckets('2020-01-01', '2025-12-31', TODAY), { ok: false, reason: 'tooLong' });
    const year = plan('2025-11-24', '2026-11-22'); // 52 whole weeks
    assert.equal(year.buckets.length, 52);
    assert.ok(year.buckets.length <= MAX_BUCKETS);
  });

  it('moves every bucket back one period for the comparison, point for point, ending where the range starts', () => {
    const range = resolvePreset('last90', TODAY, l10n);
    const { buckets } = plan(range.from, range.to);
    const previous = previousBuckets(buckets, 90);
    assert.equal(previous.length, buckets.length);
    assert.equal(previous.at(-1)!.dateTo, buckets[0].dateFrom);
    assert.equal(previous[0].from, addDays(range.from!, -90));
    assert.deepEqual(
      previous.map((b) => b.partial),
      buckets.map((b) => b.partial),
    );
    assert.ok(previous.every((b) => !b.open));
  });

  it('keeps a bucket only once its end has passed at UTC (with an hour of grace) and on the local clock', () => {
    const bucket = { dateTo: '2026-11-20' }; // the last day is the 19th
    // Half an hour into the 20th at UTC: events of the 19th may still land, whatever the local clock says.
    assert.equal(isSettled(bucket, Date.parse('2026-11-20T00:30:00Z')), false);
    // Two days later, in any time zone, the 19th is over everywhere.
    assert.equal(isSettled(bucket, Date.parse('2026-11-22T00:00:00Z')), true);
    // While it is still the 19th at UTC, it is not over.
    assert.equal(isSettled(bucket, Date.parse('2026-11-19T12:00:00Z')), false);
  });
});
