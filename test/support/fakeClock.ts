// The one fake clock of the unit tests: it implements src/util/clock.ts's Clock, and time moves only
// when the test says so (advance, fireNext, fireAll), so no unit test waits for real time to pass.
import assert from 'node:assert/strict';
import type { Clock } from '../../src/util/clock';

interface Armed {
  id: number;
  at: number;
  callback: () => void;
  /** Set for an interval: it arms itself again each time it fires. */
  everyMs?: number;
}

export class FakeClock implements Clock {
  /** Monotonic time: what timers run on. */
  private time = 0;
  /** The wall clock's step from it (step()): what now() adds, as a clock set back or forward does; timers are not moved. */
  private offset = 0;
  private armed: Armed[] = [];
  private nextId = 1;
  /** Every delay asked of setTimeout, in order (intervals not included). */
  readonly delays: number[] = [];

  constructor(start = 0) {
    this.offset = start;
  }

  now = (): number => this.time + this.offset;
  setTimeout = (callback: () => void, ms: number): unknown => {
    this.delays.push(ms);
    return this.arm(callback, ms);
  };
  clearTimeout = (handle: unknown): void => this.cancel(handle);
  setInterval = (callback: () => void, ms: number): unknown => this.arm(callback, ms, ms);
  clearInterval = (handle: unknown): void => this.cancel(handle);

  /** Timers and intervals armed and not cleared (a timer that fired is gone; an interval stays). */
  get pending(): number {
    return this.armed.length;
  }

  /** Moves time forward, firing what falls due in order and letting what each one started run before the next. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settled();
      const next = this.earliest();
      if (!next || next.at > end) break;
      this.fire(next);
    }
    this.time = end;
    await settled();
  }

  /** Steps the wall clock by `ms` (back when negative), as a manual change or an NTP correction does: timers keep their own time. */
  step(ms: number): void {
    this.offset += ms;
  }

  /** Moves time to the one timer armed, fires it and lets what it started run. */
  async fireNext(): Promise<void> {
    assert.equal(this.armed.length, 1, 'one timer at a time');
    const next = this.earliest();
    if (next) this.fire(next);
    await settled();
  }

  /** Fires everything armed at once, whatever its delay: timers once (then gone), intervals once (still armed). */
  fireAll(): void {
    for (const timer of [...this.armed]) this.fire(timer);
  }

  private arm(callback: () => void, ms: number, everyMs?: number): number {
    const id = this.nextId++;
    this.armed.push({ id, at: this.time + Math.max(0, ms), callback, everyMs });
    return id;
  }

  private cancel(handle: unknown): void {
    this.armed = this.armed.filter((t) => t.id !== handle);
  }

  private earliest(): Armed | undefined {
    return [...this.armed].sort((a, b) => a.at - b.at || a.id - b.id)[0];
  }

  private fire(timer: Armed): void {
    this.time = Math.max(this.time, timer.at);
    if (timer.everyMs === undefined) this.armed = this.armed.filter((t) => t !== timer);
    else timer.at = this.time + timer.everyMs;
    timer.callback();
  }
}

/** Every promise reaction queued so far has run (a macrotask comes after all of them). */
export const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
