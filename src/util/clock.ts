// The one clock every timer-driven part runs on: the system's here, a test's fake one
// (test/support/fakeClock.ts) in the unit tests, so none of them waits for real time to pass.

/** The hour every rate limit of the platform counts in. */
export const HOUR_MS = 3_600_000;

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/**
 * The longest delay a timer takes. Node runs a timer asked for longer than 2^31-1 ms after 1 ms (with
 * a warning), so a wait of weeks would become a loop; a timer of ours that would wait longer fires at
 * this bound instead, and whoever armed it looks again and arms the rest.
 */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A delay as a timer can take it: 0 to LONGEST_TIMER_MS (NaN: 0). */
export function timerDelay(ms: number): number {
  return Number.isNaN(ms) ? 0 : Math.min(Math.max(0, ms), LONGEST_TIMER_MS);
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, timerDelay(ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => setInterval(callback, timerDelay(ms)),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};
