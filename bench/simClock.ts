// Simulated time for the scheduler benchmarks. The StatusPoller (through its Clock) and the simulator
// (through its `now`) read this one clock, while the requests between them are real HTTP on the
// loopback. Time moves only when nothing is in flight: run the earliest timer, wait until every
// request it started has been answered and its answer handled, then move on. So a poll costs no
// simulated time at all, and every figure measured on this clock is scheduling delay alone.
// Tracked work that waits on one of this clock's timers by design (an export waiting out a 429's
// named wait, through `waits`) is parked meanwhile: it does not hold time back, and goes on when
// its timer fires.
import type { Clock } from '../src/util/clock';

interface Timer {
  at: number;
  seq: number;
  callback: () => void;
}

export class SimulatedClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: Timer[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Tracked works now waiting on a timer of `waits`. */
  private parked = 0;
  /** Resolves the settle() waiting for a change: a work ended, or one parked. */
  private changed: (() => void) | undefined;

  constructor(start: number) {
    this.time = start;
  }

  readonly now = (): number => this.time;

  readonly setTimeout = (callback: () => void, ms: number): unknown => {
    const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, callback };
    this.timers.push(timer);
    return timer;
  };

  readonly clearTimeout = (handle: unknown): void => {
    this.timers = this.timers.filter((t) => t !== handle);
  };

  /** A timer that arms itself again each time it fires; the handle is what clearInterval takes. */
  readonly setInterval = (callback: () => void, ms: number): unknown => {
    const interval: { current?: unknown } = {};
    const arm = () => {
      interval.current = this.setTimeout(() => (arm(), callback()), ms);
    };
    arm();
    return interval;
  };

  readonly clearInterval = (handle: unknown): void => {
    this.clearTimeout((handle as { current?: unknown }).current);
  };

  /**
   * The timers of tracked work that waits for a time (an export waiting out a 429): while one is
   * armed, the work that armed it is parked and time moves on without it.
   */
  readonly waits: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'> = {
    now: this.now,
    setTimeout: (callback, ms) => {
      this.parked++;
      this.changed?.();
      return this.setTimeout(() => {
        this.parked--;
        callback();
      }, ms);
    },
    clearTimeout: (handle) => {
      if (this.timers.includes(handle as Timer)) this.parked--;
      this.clearTimeout(handle);
    },
  };

  /** Real work (an HTTP request) that simulated time waits for before it moves on. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => {
      this.inFlight.delete(work);
      this.changed?.();
    };
    work.then(forget, forget);
    return work;
  }

  /** Runs every timer due up to `end` in order, letting the requests each one starts finish first. */
  async runUntil(end: number): Promise<void> {
    for (;;) {
      await this.settle();
      const next = this.earliest();
      if (!next || next.at > end) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    this.time = Math.max(this.time, end);
    await this.settle();
  }

  /** Waits until no tracked request is in flight (but parked works) and what their answers set off has run. */
  async settle(): Promise<void> {
    for (;;) {
      // A macrotask turn: every promise callback chained on the answers so far has run by then.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.inFlight.size <= this.parked) return;
      await new Promise<void>((resolve) => (this.changed = resolve));
      this.changed = undefined;
    }
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }
}
