// The panel's date ranges (src/analytics/dateRange.ts): presets, month, year and leap boundaries,
// custom ranges. No vscode import.
import assert from 'node:assert/strict';
import { parseDay, resolveRange, type ResolvedRange } from '../../../src/analytics/dateRange';
import { addDays, localToday } from '../../../src/util/days';
import { type RangeSelection } from '../../../src/shared/protocol';
import { l10n } from '../../support/l10n';

const preset = (id: Extract<RangeSelection, { kind: 'preset' }>['preset']): RangeSelection => ({ kind: 'preset', preset: id });
const custom = (from: string, to: string): RangeSelection => ({ kind: 'custom', from, to });

function resolved(selection: RangeSelection, today: string): ResolvedRange {
  const result = resolveRange(selection, today, l10n);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.range;
}

function refused(selection: RangeSelection, today = '2025-03-07'): string {
  const result = resolveRange(selection, today, l10n);
  assert.equal(result.ok, false);
  return result.ok ? '' : result.message;
}

describe('date ranges', () => {
  describe('presets (today is included; dateTo is the exclusive day after)', () => {
    const today = '2025-03-07';
    const cases: [RangeSelection, string, string][] = [
      [preset('last7'), '2025-03-01', '2025-03-08'],
      [preset('last30'), '2025-02-06', '2025-03-08'],
      [preset('last90'), '2024-12-08', '2025-03-08'],
      [preset('thisMonth'), '2025-03-01', '2025-03-08'],
    ];
    for (const [selection, dateFrom, dateTo] of cases) {
      it(`${JSON.stringify(selection)} → ${dateFrom} … ${dateTo}`, () => {
        const range = resolved(selection, today);
        assert.equal(range.dateFrom, dateFrom);
        assert.equal(range.dateTo, dateTo);
        assert.equal(range.to, today, 'the last day shown is today');
      });
    }
    it('Last 7 days covers exactly 7 calendar days', () => {
      const range = resolved(preset('last7'), today);
      assert.equal(addDays(range.dateFrom!, 7), range.dateTo);
    });
    it('All time sends no bounds at all', () => {
      const range = resolved(preset('allTime'), today);
      assert.deepEqual([range.dateFrom, range.dateTo, range.from, range.to], [undefined, undefined, undefined, undefined]);
      assert.equal(range.label, 'All time');
    });
    it('labels name the preset and the inclusive days', () => {
      assert.equal(resolved(preset('last7'), today).label, 'Last 7 days (2025-03-01 to 2025-03-07)');
    });
  });

  describe('month, year and leap boundaries', () => {
    it('Last 7 days on the 1st of March reaches back into February', () => {
      const range = resolved(preset('last7'), '2025-03-01');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2025-02-23', '2025-03-02']);
    });
    it('Last 7 days early in January reaches back into December', () => {
      assert.equal(resolved(preset('last7'), '2025-01-03').dateFrom, '2024-12-28');
    });
    it('counts 29 February in a leap year', () => {
      assert.equal(resolved(preset('last7'), '2024-03-01').dateFrom, '2024-02-24');
      assert.equal(resolved(preset('last7'), '2025-03-01').dateFrom, '2025-02-23');
    });
    it('This month on a leap day ends before 1 March', () => {
      const range = resolved(preset('thisMonth'), '2024-02-29');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2024-02-01', '2024-03-01']);
    });
    it('This month on the 1st is that one day', () => {
      const range = resolved(preset('thisMonth'), '2025-04-01');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2025-04-01', '2025-04-02']);
    });
    it('the last day of the year rolls over to the next', () => assert.equal(addDays('2025-12-31', 1), '2026-01-01'));
    it('adding days is immune to daylight saving changes', () => {
      assert.equal(addDays('2025-03-30', 1), '2025-03-31'); // Europe springs forward
      assert.equal(addDays('2025-11-02', 1), '2025-11-03'); // the US falls back
    });
  });

  describe('custom ranges (end inclusive)', () => {
    it('turns the inclusive end into the exclusive dateTo', () => {
      const range = resolved(custom('2025-02-01', '2025-02-28'), '2025-03-07');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2025-02-01', '2025-03-01']);
    });
    it('a single day is from that day to the next', () => {
      const range = resolved(custom('2024-02-29', '2024-02-29'), '2025-03-07');
      assert.deepEqual([range.dateFrom, range.dateTo, range.label], ['2024-02-29', '2024-03-01', '2024-02-29']);
    });
    it('ignores surrounding spaces', () => assert.equal(resolved(custom(' 2025-01-01 ', '2025-01-02'), '2025-03-07').dateFrom, '2025-01-01'));
    it('refuses an end before the start, naming both', () => {
      assert.equal(refused(custom('2025-03-07', '2025-03-01')), 'The end date 2025-03-01 is before the start date 2025-03-07.');
    });
    for (const bad of ['2025-02-30', '2023-02-29', '2025-13-01', '2025-3-1', 'yesterday', '0099-01-01', '2025-01-01T00:00:00Z']) {
      it(`refuses the start date ${JSON.stringify(bad)}`, () => assert.match(refused(custom(bad, '2025-03-01')), /is not a valid start date/));
      it(`refuses the end date ${JSON.stringify(bad)}`, () => assert.match(refused(custom('2025-01-01', bad)), /is not a valid end date/));
    }
    it('asks for a missing start or end', () => {
      assert.equal(refused(custom('', '2025-03-01')), 'Choose a start date.');
      assert.equal(refused(custom('2025-03-01', ' ')), 'Choose an end date.');
    });
  });

  it('parseDay accepts real days only', () => {
    assert.equal(parseDay('2024-02-29'), '2024-02-29');
    assert.equal(parseDay('2023-02-29'), undefined);
  });
  it("today is the user's local calendar day", () => {
    assert.equal(localToday(new Date(2025, 2, 30, 0, 30)), '2025-03-30');
    assert.equal(localToday(new Date(2025, 11, 31, 23, 59)), '2025-12-31');
  });
});
