// The scheduler's timing, pinned with a fake clock: no real time passes in these tests.
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api';
import { DEFAULT_TIMINGS, JobPoller, type PollVerdict } from '../../src/jobs/jobPoller';
import { FakeClock } from '../support/fakeClock';

type Answer = { value: string } | { error: ApiError } | 'hang';

function setup(answer: (jobId: string, call: number) => Answer, verdict: (jobId: string, result: unknown) => PollVerdict = () => 'continue') {
  const clock = new FakeClock();
  const calls: { jobId: string; at: number; signal: AbortSignal }[] = [];
  const poller = new JobPoller(
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

describe('JobPoller', () => {
  it('on standby sends nothing, and on taking over counts from the last read another window made', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.setStandby(true);
    poller.watch('j', { lastAt: 0 });
    await clock.advance(100_000);
    assert.deepEqual(times(), [], 'another window polls');
    poller.noteShared('j', 90_000, undefined);
    poller.setStandby(false);
    await clock.advance(60_000);
    assert.deepEqual(times(), [150], 'one steady interval after the other window\'s read, not at once');
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

  it('never has two requests in flight for one job', async () => {
    const { clock, poller, calls } = setup(() => 'hang');
    poller.watch('j', { fast: true });
    await clock.advance(300_000);
    poller.pollNow('j');
    await clock.advance(1_000);
    assert.equal(calls.length, 1);
    poller.dispose();
  });

  it('caps requests in flight and starts the next when one finishes', async () => {
    const resolvers: (() => void)[] = [];
    const clock = new FakeClock();
    let started = 0;
    const poller = new JobPoller(
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
    const poller = new JobPoller(
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

  it('stretches the steady interval so many jobs share an hourly budget', async () => {
    const { clock, poller, times } = setup(() => ok);
    for (const id of ['a', 'b', 'c', 'd']) poller.watch(id);
    await clock.advance(600_000);
    // 4 jobs x 60 polls an hour would be 240; the budget of 60 an hour gives each one every 4 min.
    assert.deepEqual(times('a'), [240, 480]);
    assert.equal(times().length, 8);
    poller.unwatch('b');
    poller.unwatch('c');
    poller.unwatch('d');
    await clock.advance(240_000);
    assert.deepEqual(times('a'), [240, 480, 600, 660, 720, 780, 840], 'alone again: at once (overdue), then every minute');
    poller.dispose();
  });

  it('does not slow the budgeted interval down again while unfocused', async () => {
    const { clock, poller, times } = setup(() => ok);
    poller.setFocused(false);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) poller.watch(id);
    await clock.advance(800_000);
    // Unfocused alone: every 4 min; six jobs in a budget of 60 an hour: every 6 min. The larger wins.
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

  describe('requests that would never end', () => {
    /** A fetch that, like the API client, rejects when its signal aborts, and otherwise hangs on the first call. */
    function hangingSetup() {
      const clock = new FakeClock();
      const calls: { jobId: string; signal: AbortSignal }[] = [];
      const poller = new JobPoller(
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
      assert.deepEqual(calls.map((c) => [c.jobId, c.signal.aborted]), [['a', true], ['b', false]]);
      assert.equal(poller.isWatching('a'), false);
    });
  });
});
