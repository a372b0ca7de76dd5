// The messages from the webview (src/shared/protocol.ts): every message the webview sends is
// accepted, anything else refused with a reason, and a restored view is checked like a message.
import assert from 'node:assert/strict';
import { MAX_PAGE, MAX_PATH_LENGTH, parseRestoredView, parseWebviewMessage, type RangeSelection } from '../../../src/shared/protocol';

const preset = (id: Extract<RangeSelection, { kind: 'preset' }>['preset']): RangeSelection => ({ kind: 'preset', preset: id });
const custom = (from: string, to: string): RangeSelection => ({ kind: 'custom', from, to });

describe('messages from the webview', () => {
  const accepted = (message: unknown) => {
    const parsed = parseWebviewMessage(message);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    return parsed.message;
  };
  const rejected = (message: unknown) => {
    const parsed = parseWebviewMessage(message);
    assert.equal(parsed.ok, false, `accepted ${JSON.stringify(message)?.slice(0, 100)}`);
    return parsed.ok ? '' : parsed.reason;
  };

  it('accepts every message the webview sends', () => {
    accepted({ type: 'ready' });
    accepted({ type: 'ready', restore: { range: preset('last7'), page: 2, pageSize: 50 } });
    accepted({ type: 'setRange', range: preset('thisMonth') });
    accepted({ type: 'setRange', range: custom('2025-01-01', '2025-01-31') });
    accepted({ type: 'setPage', page: 3 });
    accepted({ type: 'setPageSize', pageSize: 250 });
    accepted({ type: 'refresh' });
    accepted({ type: 'retry' });
    accepted({ type: 'export', format: 'json' });
    accepted({ type: 'openPath', path: '/quickstart' });
    accepted({ type: 'runCommand', command: 'setApiKey' });
  });
  it('accepts a 5,000-character path', () => assert.equal(accepted({ type: 'openPath', path: '/'.padEnd(5000, 'a') }).type, 'openPath'));
  it('passes a custom date it cannot parse on, so the panel can say what is wrong with it', () => {
    accepted({ type: 'setRange', range: custom('2025-02-30', 'nonsense') });
  });

  for (const message of [null, undefined, 42, 'ready', [], [{ type: 'ready' }], {}, { type: 'launchMissiles' }, { type: 'READY' }, { type: ['ready'] }]) {
    it(`ignores ${JSON.stringify(message) ?? 'undefined'}`, () => rejected(message));
  }
  for (const [name, message] of [
    ['a page as text', { type: 'setPage', page: '2' }],
    ['a fractional page', { type: 'setPage', page: 1.5 }],
    ['page 0', { type: 'setPage', page: 0 }],
    ['a negative page', { type: 'setPage', page: -1 }],
    ['a huge page', { type: 'setPage', page: MAX_PAGE + 1 }],
    ['page 1e12', { type: 'setPage', page: 1e12 }],
    ['an infinite page', { type: 'setPage', page: Infinity }],
    ['a page size of 251', { type: 'setPageSize', pageSize: 251 }],
    ['a page size of 0', { type: 'setPageSize', pageSize: 0 }],
    ['a page size as text', { type: 'setPageSize', pageSize: '50' }],
    ['an unknown preset', { type: 'setRange', range: { kind: 'preset', preset: 'last8' } }],
    ['an unknown range kind', { type: 'setRange', range: { kind: 'relative', days: 7 } }],
    ['dates that are not text', { type: 'setRange', range: { kind: 'custom', from: 20250101, to: 20250131 } }],
    ['a date of 33 characters', { type: 'setRange', range: custom('2025-01-01'.padEnd(33, ' '), '2025-01-02') }],
    ['a path that is too long', { type: 'openPath', path: '/'.padEnd(MAX_PATH_LENGTH + 1, 'a') }],
    ['an empty path', { type: 'openPath', path: '' }],
    ['an unknown format', { type: 'export', format: 'xlsx' }],
    ['an arbitrary command', { type: 'runCommand', command: 'workbench.action.terminal.new' }],
  ] as const) {
    it(`ignores ${name}`, () => rejected(message));
  }
  for (const [name, message] of [
    ['an offset next to the page', { type: 'setPage', page: 2, offset: 1e15 }],
    ['a field on refresh', { type: 'refresh', force: true }],
    ['a field inside the range', { type: 'setRange', range: { kind: 'preset', preset: 'last7', dateFrom: '1970-01-01' } }],
  ] as const) {
    it(`ignores extra fields: ${name}`, () => rejected(message));
  }
  it('names the message type in the reason, cut short', () => {
    const reason = rejected({ type: 'x'.repeat(1000) });
    assert.ok(reason.length < 700);
    assert.match(reason, /^"x+"/);
  });

  it('keeps a restored view only when it is a valid one', () => {
    assert.deepEqual(
      parseRestoredView({ range: preset('last90'), page: 4, pageSize: 100 }),
      { range: preset('last90'), page: 4, pageSize: 100, metric: 'visitors' },
      'a view saved before the metric switch counted visitors',
    );
    assert.equal(parseRestoredView({ range: preset('last90'), page: 4 }), undefined);
    assert.equal(parseRestoredView({ range: preset('last90'), page: MAX_PAGE * 10, pageSize: 100 }), undefined);
    assert.equal(parseRestoredView('garbage'), undefined);
    // A stale saved state must not break the handshake itself.
    accepted({ type: 'ready', restore: 'garbage' });
  });
});
