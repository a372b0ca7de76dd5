// How often the job poller reads (statusPoller.ts): the steady and fast intervals, the unfocused
// slow-down, the reads' own hourly bound, backoff, and the watchdog's margin. No vscode import.

export interface PollTimings {
  /** Steady interval (the user's setting). */
  intervalMs: number;
  /** Interval during the fast phase. */
  fastIntervalMs: number;
  /** Length of the fast phase after a job is created or sent a follow-up. */
  fastPhaseMs: number;
  /** Multiplier while the window is unfocused. */
  unfocusedFactor: number;
  /**
   * Steady-phase polls an hour across all jobs: with many jobs running, each is polled less often
   * so that together they stay within this many. The platform counts only sends (creating a job, a
   * follow-up) in the agent's hour; this is the reads' own bound, with the fast phase (one per send).
   */
  steadyReadsPerHour: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** First backoff after a failure; doubles per consecutive failure. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_TIMINGS: PollTimings = {
  intervalMs: 60_000,
  fastIntervalMs: 5_000,
  fastPhaseMs: 60_000,
  unfocusedFactor: 4,
  steadyReadsPerHour: 60,
  maxInFlight: 2,
  backoffBaseMs: 10_000,
  backoffMaxMs: 15 * 60_000,
};

/** How long past its deadline a poll may go unanswered before the watchdog retires it. */
export const WATCHDOG_MARGIN_MS = 5_000;
