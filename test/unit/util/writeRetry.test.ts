// The bounded retry (src/util/writeRetry.ts) of a write to the shared store that failed: it tries
// again after each wait, each longer, then stops; the store that a failed write does not stop.
// Fake timers for the waits; the store on an in-memory folder that fails on demand.
import assert from 'node:assert/strict';
import { SharedStore, type SyncFs } from '../../../src/sync/sharedStore';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { retryWithBackoff } from '../../../src/util/writeRetry';
import { FakeClock, settled } from '../../support/fakeClock';
import { memoryFs } from '../../support/memorySyncFs';

const DELAYS = [1_000, 2_000, 4_000, 8_000, 16_000];

describe('work nobody awaits', () => {
  describe('the bounded retry', () => {
    it('tries again after each wait, each longer, and stops with the last error after the last one', async () => {
      const timers = new FakeClock();
      let tries = 0;
      const retry = retryWithBackoff(
        async () => {
          tries++;
          throw new Error(`try ${tries} failed`);
        },
        { delaysMs: DELAYS, timers },
      );
      let outcome: unknown;
      retry.then(
        (end) => (outcome = end),
        (error: unknown) => (outcome = error),
      );
      await settled();
      assert.equal(tries, 0, "the caller's own try failed: the first retry waits first");
      for (let i = 0; i < DELAYS.length; i++) await timers.fireNext();
      assert.equal(tries, DELAYS.length, 'one try after each wait');
      assert.deepEqual(timers.delays, DELAYS);
      assert.equal(timers.pending, 0, 'no wait left: it stopped');
      assert.ok(outcome instanceof Error);
      assert.equal(outcome.message, `try ${DELAYS.length} failed`);
    });

    it('stops at the first success', async () => {
      const timers = new FakeClock();
      let tries = 0;
      const retry = retryWithBackoff(
        async () => {
          if (++tries < 3) throw new Error('not yet');
        },
        { delaysMs: DELAYS, timers },
      );
      for (let i = 0; i < 3; i++) await timers.fireNext();
      assert.equal(await retry, 'done');
      assert.equal(tries, 3);
      assert.equal(timers.pending, 0);
    });

    it('stops waiting, and tries no more, when the window closes', async () => {
      const timers = new FakeClock();
      const closing = new AbortController();
      let tries = 0;
      const retry = retryWithBackoff(
        async () => {
          tries++;
          throw new Error('still broken');
        },
        { delaysMs: DELAYS, timers, signal: closing.signal },
      );
      await timers.fireNext();
      closing.abort();
      assert.equal(await retry, 'stopped');
      assert.equal(tries, 1);
      assert.equal(timers.pending, 0, 'its timer is cleared');
    });
  });

  describe('the shared store after a failed write', () => {
    /** An in-memory folder whose writes fail while `broken` is true. */
    function breakableFs(files: Map<string, string>) {
      const state = { broken: true };
      const fs = memoryFs(files);
      const breakable: SyncFs = {
        ...fs,
        writeAtomic: (name, text) => (state.broken ? Promise.reject(new Error('EROFS: read-only file system')) : fs.writeAtomic(name, text)),
      };
      return { fs: breakable, state };
    }

    it('keeps the change in this window, and a later try writes it whole', async () => {
      const files = new Map<string, string>();
      const { fs, state } = breakableFs(files);
      const store = new SharedStore(fs, 'w1', { info: () => undefined, warn: () => undefined });
      const written = store.update((s) => applyJobChange(s, 'proj', 'job_1', { track: true, fields: {} }, store.clock));
      assert.equal(store.state.jobs.proj?.job_1?.tracked.v, true, 'this window has it before the write');
      await assert.rejects(written, /EROFS/);
      assert.equal(store.writes, 0);
      const timers = new FakeClock();
      const retry = retryWithBackoff(() => store.write(), { delaysMs: DELAYS, timers });
      await timers.fireNext();
      state.broken = false;
      await timers.fireNext();
      assert.equal(await retry, 'done');
      assert.equal(store.writes, 1);
      const file = JSON.parse(files.get('w-w1.json') ?? '{}') as { state?: { jobs?: Record<string, Record<string, unknown>> } };
      assert.ok(file.state?.jobs?.proj?.job_1, 'the other windows can read the job now');
    });
  });
});
