// background() (src/util/background.ts) turns a failure of work nobody awaits into a log line
// instead of an unhandled rejection.
import assert from 'node:assert/strict';
import { background } from '../../../src/util/background';
import { settled } from '../../support/fakeClock';

describe('work nobody awaits', () => {
  describe('background()', () => {
    it('turns a failure into one log line, never an unhandled rejection', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const lines: string[] = [];
        const stacks: string[] = [];
        const log = { warn: (line: string) => lines.push(line), debug: (stack: string) => stacks.push(stack) };
        background(Promise.reject(new Error('disk full')), log, 'writing the ledger');
        background(Promise.resolve('fine'), log, 'reading the key');
        await settled();
        assert.deepEqual(lines, ['writing the ledger failed: Error: disk full']);
        assert.equal(stacks.length, 1, 'the stack, at debug level');
        assert.match(stacks[0] ?? '', /background\.test/);
        assert.deepEqual(unhandled, []);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });
  });
});
