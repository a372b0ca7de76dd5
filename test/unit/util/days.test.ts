// The calendar-day helpers the analytics ranges, the readers and the reader signals share
// (src/util/days.ts): the days an API range names never shift with the clock's time zone or a
// daylight-saving change.
import assert from 'node:assert/strict';
import { addDays, daysBetween, utcDay } from '../../../src/util/days';

describe('calendar days (src/util/days.ts)', () => {
  it('names the UTC day of an instant, whatever the hour', () => {
    assert.equal(utcDay(Date.parse('2026-11-01T00:00:00Z')), '2026-11-01');
    assert.equal(utcDay(Date.parse('2026-11-01T23:59:59.999Z')), '2026-11-01');
    assert.equal(utcDay(Date.parse('2024-02-29T12:00:00Z')), '2024-02-29');
  });

  it('adds and subtracts days across months, leap days and years', () => {
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
    assert.equal(addDays('2024-03-01', -1), '2024-02-29');
    assert.equal(addDays('2026-01-01', -1), '2025-12-31');
    assert.equal(addDays('2026-11-21', -30), '2026-10-22');
  });

  it('counts whole days between two days, and says NaN for what is no day', () => {
    assert.equal(daysBetween('2026-10-22', '2026-11-21'), 30);
    assert.equal(daysBetween('2025-03-29', '2025-03-31'), 2); // across Europe's spring-forward
    assert.equal(daysBetween('2026-11-21', '2026-11-14'), -7);
    assert.ok(Number.isNaN(daysBetween('yesterday', '2026-11-21')));
  });
});
