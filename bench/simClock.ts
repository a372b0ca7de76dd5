// Simulated time for the scheduler benchmarks. The JobPoller (through its Clock) and the simulator
// (through its `now`) read this one clock, while the requests between them are real HTTP on the
// loopback. Time moves only when nothing is in flight: run the earliest timer, wait until every
// request it started has been answered and its answer handled, then move on. So a poll costs no
// simulated time at all, and every figure measured on this clock is scheduling delay alone.
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

  /** Real work (an HTTP request) that simulated time waits for before it moves on. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
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

  /** Waits until no tracked request is in flight and what their answers set off has run. */
  async settle(): Promise<void> {
    do {
      await Promise.allSettled([...this.inFlight]);
      // A macrotask turn: every promise callback chained on those answers has run by then.
      await new Promise((resolve) => setImmediate(resolve));
    } while (this.inFlight.size > 0);
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }
}
