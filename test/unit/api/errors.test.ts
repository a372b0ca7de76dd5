// Retry-After read and worded (src/api/errors.ts).
import assert from 'node:assert/strict';
import { formatWait, parseRetryAfter } from '../../../src/api';

describe('Retry-After', () => {
  it('reads delta seconds', () => assert.equal(parseRetryAfter('120'), 120_000));
  it('reads an HTTP date', () => assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', Date.UTC(2026, 9, 21, 7, 28, 0)), 30_000));
  it('ignores garbage', () => assert.equal(parseRetryAfter('soon'), undefined));
  it('takes no wait past an hour, in seconds or as a date', () => {
    assert.equal(parseRetryAfter('3600000'), 3_600_000, 'milliseconds sent as seconds: an hour, not six weeks');
    assert.equal(parseRetryAfter('Wed, 21 Oct 2027 07:28:30 GMT', Date.UTC(2026, 9, 21, 7, 28, 0)), 3_600_000);
  });
  it('says when in words people read', () => {
    assert.equal(formatWait(400), 'in 1 s');
    assert.equal(formatWait(42_000), 'in 42 s');
    assert.equal(formatWait(10 * 60_000), 'in 10 min');
    assert.equal(formatWait(65 * 60_000), 'in 1 h 5 min');
  });
});
