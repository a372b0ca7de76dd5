// The API's dates (parseApiDate, src/api/inputs.ts).
import assert from 'node:assert/strict';
import { parseApiDate } from '../../../src/api';

describe('parseApiDate', () => {
  it('reads YYYY-MM-DD as UTC midnight', () => assert.equal(parseApiDate('2025-03-01'), Date.UTC(2025, 2, 1)));
  it('reads ISO date-times with a zone', () => assert.equal(parseApiDate('2025-03-01T12:30:00+02:00'), Date.UTC(2025, 2, 1, 10, 30)));
  for (const bad of ['2025-02-30', '2025-13-01', '25-03-01', '2025-03-01T12:00', 'yesterday', '', '2025-3-1']) {
    it(`refuses ${JSON.stringify(bad)}`, () => assert.equal(parseApiDate(bad), undefined));
  }
});
