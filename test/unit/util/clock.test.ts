// The system clock's timers (src/util/clock.ts): a delay node cannot take (past 2^31-1 ms, which node
// runs after 1 ms with a warning) is held at the longest one it can, so a wait of weeks never turns
// into a loop of timers firing at once.
import assert from 'node:assert/strict';
import { HOUR_MS, LONGEST_TIMER_MS, systemClock, timerDelay } from '../../../src/util/clock';

describe('the system clock’s timers', () => {
  it('takes a delay past what node can wait as the longest it can, and a negative or missing one as none', () => {
    assert.equal(timerDelay(42 * 24 * HOUR_MS), LONGEST_TIMER_MS);
    assert.equal(timerDelay(2 ** 31), LONGEST_TIMER_MS);
    assert.equal(timerDelay(30_000), 30_000);
    assert.equal(timerDelay(-5), 0);
    assert.equal(timerDelay(Number.NaN), 0);
  });

  it('never runs a timer of weeks at once: it does not fire before a timer of a few milliseconds armed after it, and node raises no overflow', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    let fired = false;
    const weeks = systemClock.setTimeout(() => (fired = true), 42 * 24 * HOUR_MS);
    // Timers fire in the order they fall due: a timer of weeks run after 1 ms would come first.
    await new Promise((resolve) => systemClock.setTimeout(() => resolve(undefined), 5));
    systemClock.clearTimeout(weeks);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    assert.equal(fired, false, 'the timer of weeks did not fire');
    assert.deepEqual(
      warnings.filter((name) => name === 'TimeoutOverflowWarning'),
      [],
    );
  });
});
