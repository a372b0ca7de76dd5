// The trend's buckets: the chosen range cut into days (ranges up to 31 days) or weeks (longer
// ranges), each asked for with one `limit=1` request, whose totals are the bucket's figures.
//
// Days are the panel's days (dateRange.ts): calendar days on the user's clock, sent as dates, with
// `dateTo` exclusive. Weeks run Monday to Sunday (ISO 8601, whatever the locale: one rule for a
// team spread over several). A range that does not start on a Monday or end on a Sunday has a
// first or last week cut short: it is kept as a bucket, flagged `partial`, and drawn hollow, since
// three days of readers are not comparable with seven. A range that runs past today stops at today.
//
// A bucket is "settled" once no request can change its figures: its last day is over on the user's
// clock and on the platform's (its days are UTC's when sent as bare dates), an hour of grace
// included for late events. Settled buckets are kept for good; the others are asked again.
// No vscode import: unit-tested directly.
import { addDays, type Day, daysBetween, localToday, utcDay } from '../../util/days';
import { HOUR_MS } from '../../util/clock';

/** Up to this many days the trend has a point a day; longer ranges have a point a week. */
const DAILY_UP_TO_DAYS = 31;
/** A year of weeks (53 can touch a year): past it a trend would cost more than half the hour. */
export const MAX_BUCKETS = 53;
/** Events can land a little after their day ends; a bucket is settled this long after its end. */
const SETTLE_GRACE_MS = HOUR_MS;

export interface TrendBucket {
  /** First day, inclusive. */
  from: Day;
  /** Last day, inclusive. */
  to: Day;
  /** What the API gets: `dateFrom` inclusive, `dateTo` exclusive (the day after `to`). */
  dateFrom: Day;
  dateTo: Day;
  /** A week with fewer than seven days of the range. */
  partial: boolean;
  /** Includes today. */
  open: boolean;
}

export type TrendPlan =
  | { ok: true; unit: 'day' | 'week'; buckets: TrendBucket[] }
  /** allTime: no first day to start from; future: the range starts after today; tooLong: more than MAX_BUCKETS weeks. */
  | { ok: false; reason: 'allTime' | 'future' | 'tooLong' };

/** Days from Monday (0) to Sunday (6). */
export function weekdayFromMonday(day: Day): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The buckets of the inclusive range `from`..`to` as of `today`. */
export function trendBuckets(from: Day | undefined, to: Day | undefined, today: Day): TrendPlan {
  if (!from || !to) return { ok: false, reason: 'allTime' };
  if (from > today) return { ok: false, reason: 'future' };
  const last = to < today ? to : today;
  const days = daysBetween(from, last) + 1;
  const bucket = (start: Day, end: Day, partial: boolean): TrendBucket => ({
    from: start,
    to: end,
    dateFrom: start,
    dateTo: addDays(end, 1),
    partial,
    open: start <= today && today <= end,
  });
  if (days <= DAILY_UP_TO_DAYS) {
    return { ok: true, unit: 'day', buckets: Array.from({ length: days }, (_, i) => addDays(from, i)).map((day) => bucket(day, day, false)) };
  }
  const buckets: TrendBucket[] = [];
  for (let start = from; start <= last;) {
    const sunday = addDays(start, 6 - weekdayFromMonday(start));
    const end = sunday < last ? sunday : last;
    buckets.push(bucket(start, end, daysBetween(start, end) + 1 < 7));
    if (buckets.length > MAX_BUCKETS) return { ok: false, reason: 'tooLong' };
    start = addDays(end, 1);
  }
  return { ok: true, unit: 'week', buckets };
}

/**
 * The same buckets one period earlier, point for point ("Compare with previous period"): each
 * moved back by the range's length in days, so the n-th point of both series covers the same
 * stretch of its period. None of them includes today.
 */
export function previousBuckets(buckets: readonly TrendBucket[], periodDays: number): TrendBucket[] {
  return buckets.map((b) => ({
    from: addDays(b.from, -periodDays),
    to: addDays(b.to, -periodDays),
    dateFrom: addDays(b.dateFrom, -periodDays),
    dateTo: addDays(b.dateTo, -periodDays),
    partial: b.partial,
    open: false,
  }));
}

/** No request can change its figures any more (see the header): its end has passed here and at UTC, with grace. */
export function isSettled(bucket: Pick<TrendBucket, 'dateTo'>, now: number): boolean {
  const local = localToday(new Date(now));
  const platform = utcDay(now - SETTLE_GRACE_MS);
  return bucket.dateTo <= local && bucket.dateTo <= platform;
}
