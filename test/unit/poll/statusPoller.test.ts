// The scheduler's timing, pinned with a fake clock: no real time passes in these tests.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import { StatusPoller, type PollVerdict } from '../../../src/poll/statusPoller';
import { DEFAULT_TIMINGS, WATCHDOG_MARGIN_MS } from '../../../src/poll/pollTimings';
import { FakeClock } from '../../support/fakeClock';

type Answer = { value: string } | { error: ApiError } | 'hang';

function setup(answer: (jobId: string, call: number) => Answer, verdict: (jobId: string, result: unknown) => PollVerdict = () => 'continue') {
  const clock = new FakeClock();
  const calls: { jobId: string; at: number; signal: AbortSignal }[] = [];
  const poller = new StatusPoller(
    {
      fetch(jobId, signal) {
        calls.push({ jobId, at: clock.now(), signal });
        const a = answer(jobId, calls.filter((c) => c.jobId === jobId).length);
        if (a === 'hang') return new Promise(() => undefined);
        return 'error' in a ? Promise.reject(a.error) : Promise.resolve(a.value);
      },
      onResult: (jobId, result) => verdict(jobId, result),
      random: () => 1,
    },
    DEFAULT_TIMINGS,
    clock,
  );
  const times = (jobId?: string) => calls.filter((c) => !jobId || c.jobId === jobId).map((c) => c.at / 1000);
  return { clock, calls, poller, times };
}

const ok = { value: 'active' };

describe('StatusPoller', () => {
  it('on standby sends nothing, and on taking over counts from the last read another window made', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.setStandby(true);
    poller.watch('j', { lastAt: 0 });
    await clock.advance(100_000);
    assert.deepEqual(times(), [], 'another window polls');
    poller.noteShared('j', 90_000, undefined);
    poller.setStandby(false);
    await clock.advance(60_000);
    assert.deepEqual(times(), [150], "one steady interval after the other window's read, not at once");
    poller.dispose();
  });

  it('opens a fast phase that another window opened', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.watch('j', { lastAt: 0 });
    await clock.advance(1_000);
    poller.noteShared('j', 1_000, 61_000);
    await clock.advance(15_000);
    assert.deepEqual(times(), [6, 11, 16]);
    poller.dispose();
  });

  it('polls every 5 s for the first minute after a follow-up, then every minute', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.watch('j', { fast: true });
    await clock.advance(185_000);
    assert.deepEqual(times(), [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 120, 180]);
    poller.dispose();
  });

  it('stops when the job reaches a terminal state and arms no timer', async () => {
    const { clock, poller, times } = setup(
      () => ok,
      (_id, result) => ((result as { value?: unknown }).value === 'active' && clock.now() < 15_000 ? 'continue' : 'stop'),
    );
    poller.watch('j', { fast: true });
    await clock.advance(600_000);
    assert.deepEqual(times(), [5, 10, 15]);
    assert.equal(poller.isWatching('j'), false);
    assert.equal(clock.pending, 0);
  });

  it('arms no timer when nothing is watched', async () => {
    const { clock, poller, calls } = setup(() => ok);
    poller.setFocused(false);
    poller.setFocused(true);
    await clock.advance(3_600_000);
    assert.equal(calls.length, 0);
    assert.equal(clock.pending, 0);
  });

  it('never has two requests in flight for one job (before the watchdog retires the first)', async () => {
    const { clock, poller, calls } = setup(() => 'hang');
    poller.watch('j', { fast: true });
    await clock.advance(20_000);
    poller.pollNow('j');
    await clock.advance(1_000);
    assert.equal(calls.length, 1);
    poller.dispose();
  });

  it('caps requests in flight and starts the next when one finishes', async () => {
    const resolvers: (() => void)[] = [];
    const clock = new FakeClock();
    let started = 0;
    const poller = new StatusPoller(
      {
        fetch: () => {
          started++;
          return new Promise((resolve) => resolvers.push(() => resolve('active')));
        },
        onResult: () => 'continue',
      },
      DEFAULT_TIMINGS,
      clock,
    );
    for (const id of ['a', 'b', 'c', 'd', 'e']) poller.watch(id, { pollNow: true });
    await clock.advance(0);
    assert.equal(started, DEFAULT_TIMINGS.maxInFlight);
    resolvers.shift()?.();
    await clock.advance(0);
    assert.equal(started, DEFAULT_TIMINGS.maxInFlight + 1);
    poller.dispose();
  });

  it('slows down four-fold while unfocused and catches up at once on refocus', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.watch('j');
    await clock.advance(60_000); // steady poll at 60
    poller.setFocused(false);
    await clock.advance(200_000); // next unfocused poll would be at 60 + 240 = 300
    assert.deepEqual(times(), [60]);
    poller.setFocused(true); // overdue by the focused interval (60 + 60 = 120 < 260): now
    await clock.advance(0);
    assert.deepEqual(times(), [60, 260]);
    await clock.advance(60_000);
    assert.deepEqual(times(), [60, 260, 320]);
    poller.dispose();
  });

  it('backs off exponentially on failures and recovers', async () => {
    const failing = new ApiError('serverError', 'boom', { status: 500 });
    const { clock, poller, times } = setup((_id, call) => (call <= 4 ? { error: failing } : ok));
    poller.watch('j', { fast: true });
    await clock.advance(220_000);
    // Four failures wait 10, 20, 40, 80 s (random() = 1 gives the top of the jitter range); the
    // success at 155 s is past the fast phase, so the next poll is a steady minute later.
    assert.deepEqual(times(), [5, 15, 35, 75, 155, 215]);
    poller.dispose();
  });

  it('waits at least Retry-After after a 429, even when Refresh is pressed', async () => {
    const limited = new ApiError('rateLimited', 'slow down', { status: 429, retryAfterMs: 300_000 });
    const { clock, poller, times } = setup((_id, call) => (call === 1 ? { error: limited } : ok));
    poller.watch('j', { fast: true });
    await clock.advance(10_000);
    poller.pollNow('j');
    await clock.advance(290_000);
    assert.deepEqual(times(), [5]);
    await clock.advance(10_000);
    assert.deepEqual(times(), [5, 305]);
    poller.dispose();
  });

  it('stops all polling on a 401 until resumed, then polls at once', async () => {
    const unauthorized = new ApiError('unauthorized', 'no', { status: 401 });
    let keyValid = false;
    const { clock, poller, times } = setup(() => (keyValid ? ok : { error: unauthorized }));
    poller.watch('a', { fast: true });
    poller.watch('b', { fast: true });
    await clock.advance(5_000);
    assert.equal(poller.isPaused, true);
    const before = times().length;
    await clock.advance(3_600_000);
    assert.equal(times().length, before, 'no request while paused');
    assert.equal(clock.pending, 0);
    keyValid = true;
    poller.resume();
    await clock.advance(0);
    assert.equal(times().length, before + 2);
    poller.dispose();
  });

  it('a follow-up drops the answer of a read that was already in flight', async () => {
    const resolvers: ((value: string) => void)[] = [];
    const clock = new FakeClock();
    const seen: unknown[] = [];
    const poller = new StatusPoller(
      {
        fetch: () => new Promise((resolve) => resolvers.push(resolve)),
        onResult: (_id, result) => (seen.push('value' in result ? result.value : 'error'), 'continue'),
      },
      DEFAULT_TIMINGS,
      clock,
    );
    poller.watch('j', { pollNow: true });
    await clock.advance(0);
    poller.watch('j', { fast: true }); // the follow-up's answer says "active"
    resolvers[0]?.('completed'); // the old read comes back late
    await clock.advance(5_000);
    assert.deepEqual(seen, [], 'the stale answer is not applied');
    assert.equal(resolvers.length, 2, 'the fast phase polls again');
    poller.dispose();
  });

  it('stretches the steady interval so many jobs share the steady reads an hour', async () => {
    const { clock, poller, times } = setup(() => ok);
    for (const id of ['a', 'b', 'c', 'd']) poller.watch(id);
    await clock.advance(600_000);
    // 4 jobs x 60 polls an hour would be 240; 60 steady reads an hour give each one every 4 min.
    assert.deepEqual(times('a'), [240, 480]);
    assert.equal(times().length, 8);
    poller.unwatch('b');
    poller.unwatch('c');
    poller.unwatch('d');
    await clock.advance(240_000);
    assert.deepEqual(times('a'), [240, 480, 600, 660, 720, 780, 840], 'alone again: at once (overdue), then every minute');
    poller.dispose();
  });

  it('does not slow the shared interval down again while unfocused', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.setFocused(false);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) poller.watch(id);
    await clock.advance(800_000);
    // Unfocused alone: every 4 min; six jobs sharing 60 reads an hour: every 6 min. The larger wins.
    assert.deepEqual(times('a'), [360, 720]);
    poller.dispose();
  });

  it('aborts what is in flight and leaves no timer on dispose', async () => {
    const { clock, poller, calls } = setup(() => 'hang');
    poller.watch('a', { pollNow: true });
    poller.watch('b', { fast: true });
    await clock.advance(0);
    poller.dispose();
    assert.equal(calls[0]?.signal.aborted, true);
    assert.equal(clock.pending, 0);
  });

  it('an answer after failures is not followed by a poll at once when the owner hears of a read meanwhile', async () => {
    // The tracker's handler writes the read to the shared store and hears it back (noteShared) before
    // it returns; the poller must already know the job's next poll is an interval away.
    const failing = new ApiError('serverError', 'boom', { status: 500 });
    const clock = new FakeClock();
    const calls: number[] = [];
    const poller: StatusPoller = new StatusPoller(
      {
        fetch: () => (calls.push(clock.now() / 1000), calls.length === 1 ? Promise.reject(failing) : Promise.resolve('active')),
        onResult: (jobId) => (poller.noteShared(jobId, clock.now() + 1, undefined), 'continue'),
        random: () => 1,
      },
      DEFAULT_TIMINGS,
      clock,
    );
    poller.watch('j', { fast: true });
    await clock.advance(30_000);
    assert.deepEqual(calls, [5, 15, 20, 25, 30], 'the backoff, then the fast interval: no second read at 15');
    poller.dispose();
  });

  describe('the watchdog', () => {
    const DEADLINE_MS = 5_000;
    type Pending = { at: number; signal: AbortSignal; resolve: (value: string) => void };

    /** A fetch whose answers come only when the test gives them (never, unless it does), and the poller's log. */
    function watched(onResult: (result: { value: unknown } | { error: ApiError }) => PollVerdict = () => 'continue') {
      const clock = new FakeClock();
      const pending: Pending[] = [];
      const results: string[] = [];
      const lines: string[] = [];
      const poller = new StatusPoller(
        {
          fetch: (_jobId, signal) => new Promise((resolve) => pending.push({ at: clock.now() / 1000, signal, resolve })),
          onResult: (_jobId, result) => (results.push('error' in result ? result.error.kind : String(result.value)), onResult(result)),
          random: () => 1,
          deadlineMs: () => DEADLINE_MS,
          log: { info: (line) => lines.push(`info ${line}`), warn: (line) => lines.push(`warn ${line}`) },
        },
        DEFAULT_TIMINGS,
        clock,
      );
      return { clock, pending, results, lines, poller, times: () => pending.map((p) => p.at) };
    }

    it('retires a poll that never settles at its deadline plus the margin, logs it, and polls again after the backoff', async () => {
      const { clock, pending, results, lines, poller, times } = watched();
      poller.watch('j', { pollNow: true });
      await clock.advance(DEADLINE_MS + WATCHDOG_MARGIN_MS - 1);
      assert.deepEqual(results, [], 'not before its deadline plus the margin');
      await clock.advance(1);
      assert.deepEqual(results, ['timeout'], 'told to the owner as a timeout');
      assert.equal(pending[0]?.signal.aborted, true, 'and aborted');
      // Backoffs of 10 s then 20 s (random() = 1: the top of the jitter range), each after a retirement at 10 s.
      await clock.advance(40_000);
      assert.deepEqual(times(), [0, 20, 50], 'one poll per backoff step, no more');
      pending[2]?.resolve('active');
      await clock.advance(60_000);
      assert.deepEqual(times(), [0, 20, 50, 110], 'back to the steady interval once it answers');
      assert.deepEqual(results, ['timeout', 'timeout', 'active']);
      assert.deepEqual(lines, [
        'warn job j: the watchdog retired a poll unanswered 10.0 s after it started (deadline 5.0 s, margin 5.0 s); counted as failed, next poll in 10.0 s',
        'warn job j: the watchdog retired a poll unanswered 10.0 s after it started (deadline 5.0 s, margin 5.0 s); counted as failed, next poll in 20.0 s',
      ]);
      poller.dispose();
    });

    it('drops the answer of a retired poll when it comes at last: it neither counts nor frees the poll after it', async () => {
      const { clock, pending, results, poller, times } = watched();
      poller.watch('j', { pollNow: true });
      await clock.advance(20_000);
      assert.deepEqual(times(), [0, 20]);
      pending[0]?.resolve('completed');
      await clock.advance(5_000);
      assert.deepEqual(results, ['timeout'], 'the late answer is not applied');
      assert.deepEqual(times(), [0, 20], 'and does not start another poll while the second is in flight');
      poller.dispose();
    });

    it('frees the slot a poll held: other jobs are polled while one request never settles', async () => {
      const { clock, pending, poller } = watched();
      for (const id of ['a', 'b', 'c']) poller.watch(id, { pollNow: true });
      await clock.advance(0);
      assert.equal(pending.length, DEFAULT_TIMINGS.maxInFlight, 'the third waits for a slot');
      await clock.advance(DEADLINE_MS + WATCHDOG_MARGIN_MS);
      assert.equal(pending.length, DEFAULT_TIMINGS.maxInFlight + 1, 'the third is polled once the watchdog frees a slot');
      poller.dispose();
    });

    it('logs a poll that ends by its deadline, with when the next one is due', async () => {
      const clock = new FakeClock();
      const lines: string[] = [];
      const poller = new StatusPoller(
        {
          fetch: () => Promise.reject(new ApiError('timeout', 'The Mintlify API did not answer in time.', { reached: 'maybe' })),
          onResult: () => 'continue',
          random: () => 1,
          log: { info: (line) => lines.push(line), warn: (line) => lines.push(line) },
        },
        DEFAULT_TIMINGS,
        clock,
      );
      poller.watch('j', { pollNow: true });
      await clock.advance(0);
      assert.deepEqual(lines, ['job j: the poll ended by its deadline (0.0 s after it started); next poll in 10.0 s']);
      poller.dispose();
    });
  });

  describe('requests that would never end', () => {
    /** A fetch that, like the API client, rejects when its signal aborts, and otherwise hangs on the first call. */
    function hangingSetup() {
      const clock = new FakeClock();
      const calls: { jobId: string; signal: AbortSignal }[] = [];
      const poller = new StatusPoller(
        {
          fetch(jobId, signal) {
            calls.push({ jobId, signal });
            if (calls.filter((c) => c.jobId === jobId).length > 1) return Promise.resolve('active');
            return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new ApiError('cancelled', 'aborted'))));
          },
          onResult: () => 'continue',
          random: () => 1,
        },
        DEFAULT_TIMINGS,
        clock,
      );
      return { clock, calls, poller };
    }

    it('a key change aborts the polls in flight with the old key and asks again at once', async () => {
      const { clock, calls, poller } = hangingSetup();
      poller.watch('a', { pollNow: true });
      await clock.advance(0);
      assert.equal(calls.length, 1);
      poller.restartInFlight();
      await clock.advance(0);
      assert.equal(calls[0]?.signal.aborted, true);
      assert.equal(calls.length, 2, 'polled again without waiting an interval');
      assert.equal(calls[1]?.signal.aborted, false);
    });

    it('Stop Tracking aborts the poll in flight for that job only', async () => {
      const { clock, calls, poller } = hangingSetup();
      poller.watch('a', { pollNow: true });
      poller.watch('b', { pollNow: true });
      await clock.advance(0);
      poller.unwatch('a');
      await clock.advance(0);
      assert.deepEqual(
        calls.map((c) => [c.jobId, c.signal.aborted]),
        [
          ['a', true],
          ['b', false],
        ],
      );
      assert.equal(poller.isWatching('a'), false);
    });
  });
});
