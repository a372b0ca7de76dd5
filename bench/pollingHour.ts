// Figure 3, request economy of polling: one scripted hour, run once with our scheduler and once with
// the naive loop of the platform docs, each against its own simulator on its own simulated clock
// (same script, same job timelines). Requests are counted by the simulator (what reached the API).
import { createApiClient, type ApiClient } from '../src/api';
import { DEFAULT_TIMINGS } from '../src/poll/pollTimings';
import { startSimulator, type AddJobInit } from '../test/simulator/server';
import { API_KEY, NaiveLoop, OurScheduler, PROJECT, TERMINAL, type Observer, type PollingClient } from './pollingClients';
import { SimulatedClock } from './simClock';
import { median, percentile } from './stats';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2025, 0, 6, 9);

/** How long a job created during the hour stays active (the simulator's jobDurationMs). */
const CREATED_JOB_MS = 8 * MINUTE + 14 * SECOND;

/** Jobs active when VS Code starts, and how long each still runs. */
const ACTIVE_AT_START: ReadonlyArray<{ id: string; remainingMs: number }> = [
  { id: 'job_active_1', remainingMs: 2 * MINUTE + 17 * SECOND },
  { id: 'job_active_2', remainingMs: 7 * MINUTE + 43 * SECOND },
  { id: 'job_active_3', remainingMs: 13 * MINUTE + 5 * SECOND },
  { id: 'job_active_4', remainingMs: 22 * MINUTE + 31 * SECOND },
  { id: 'job_active_5', remainingMs: 38 * MINUTE + 12 * SECOND },
  { id: 'job_active_6', remainingMs: 75 * MINUTE }, // still running when the hour ends
];

/** Finished jobs brought along from earlier sessions: 30 completed, 8 failed, 6 archived. */
const FINISHED: ReadonlyArray<{ id: string; init: AddJobInit }> = Array.from({ length: 44 }, (_, i) => {
  const id = `job_done_${String(i + 1).padStart(2, '0')}`;
  const init: AddJobInit = i < 30 ? { status: 'completed', outcome: i % 3 ? 'pr' : 'noChanges' } : i < 38 ? { status: 'failed' } : { status: 'archived' };
  return { id, init };
});

/** Follow-ups the user sends: to which job, when, and how long the job then works (its activeForMs). */
const FOLLOW_UPS: ReadonlyArray<{ at: number; id: string; activeForMs?: number }> = [
  { at: 5 * MINUTE, id: 'job_done_01', activeForMs: 3 * MINUTE + 8 * SECOND },
  { at: 12 * MINUTE, id: 'job_done_02', activeForMs: 41 * SECOND },
  { at: 24 * MINUTE, id: 'job_done_31', activeForMs: 6 * MINUTE + 22 * SECOND },
  { at: 50 * MINUTE, id: 'job_active_1' }, // works 2 min 17 s again, like its first run
  { at: 55 * MINUTE, id: 'job_done_04', activeForMs: 23 * SECOND },
];
const CREATE_AT = 18 * MINUTE;
const UNFOCUSED: { from: number; to: number } = { from: 25 * MINUTE, to: 45 * MINUTE };

/** A job's active period after a follow-up is as long as its first (the simulator's activeForMs). */
function workTime(followUp: (typeof FOLLOW_UPS)[number]): number {
  return followUp.activeForMs ?? ACTIVE_AT_START.find((j) => j.id === followUp.id)?.remainingMs ?? 0;
}

export const SCENARIO_TEXT = [
  `50 tracked jobs: ${ACTIVE_AT_START.length} active when VS Code starts (finishing after ${ACTIVE_AT_START.map((j) => minSec(j.remainingMs)).join(', ')}; the last outlives the hour), 44 finished (30 completed, 8 failed, 6 archived).`,
  `${FOLLOW_UPS.length} follow-ups (at ${FOLLOW_UPS.map((f) => f.at / MINUTE).join(', ')} min; the jobs then work ${FOLLOW_UPS.map((f) => minSec(workTime(f))).join(', ')}) and one new job at ${CREATE_AT / MINUTE} min (works ${minSec(CREATED_JOB_MS)}).`,
  `The window is unfocused from ${UNFOCUSED.from / MINUTE} to ${UNFOCUSED.to / MINUTE} min. Steady interval: the setting's default, ${DEFAULT_TIMINGS.intervalMs / SECOND} s.`,
].join(' ');

/** 137_000 → "2:17" */
function minSec(ms: number): string {
  const seconds = Math.round(ms / SECOND);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** One period in which a job is active and will change (finish) at `changeAt`. */
interface Stretch {
  jobId: string;
  /** When the client learned the job is active: startup, or the answer to a prompt. */
  start: number;
  /** End of the fast phase for stretches that began with a prompt. */
  fastUntil: number | undefined;
  changeAt: number;
  seenAt?: number;
}

export interface HourRun {
  getRequests: number;
  postRequests: number;
  /** Changes (a job finishing) that happened within the hour, and how many of them the client saw. */
  changes: number;
  seen: number;
  delaysMs: number[];
}

export interface HourResult {
  ours: HourRun;
  naive: HourRun;
  /** One read per change, right at the change: a clairvoyant scheduler. */
  oracleMinimum: number;
  /** The fewest reads that guarantee our per-phase delay bounds without knowing when jobs change. */
  blindFloor: number;
  /** Most jobs active at the same moment during the hour. */
  maxActive: number;
}

export async function measurePollingHour(): Promise<HourResult> {
  const ours = await runHour((api, clock, observe) => new OurScheduler(api, clock, observe));
  const naive = await runHour((api, clock, observe) => new NaiveLoop(api, clock, observe));
  return { ours: ours.run, naive: naive.run, oracleMinimum: ours.run.changes, blindFloor: blindFloor(ours.stretches), maxActive: maxActive(ours.stretches) };
}

type ClientFactory = (api: ApiClient, clock: SimulatedClock, observe: Observer) => PollingClient;

async function runHour(makeClient: ClientFactory): Promise<{ run: HourRun; stretches: Stretch[] }> {
  const clock = new SimulatedClock(T0);
  const sim = await startSimulator({ projects: [PROJECT], now: clock.now, jobDurationMs: CREATED_JOB_MS, agentPostLimitPerHour: 1_000 });
  const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
  const stretches: Stretch[] = [];
  for (const { id, remainingMs } of ACTIVE_AT_START) {
    sim.addJob(PROJECT, { id, status: 'active', outcome: 'pr', activeForMs: remainingMs });
    stretches.push({ jobId: id, start: T0, fastUntil: undefined, changeAt: T0 + remainingMs });
  }
  for (const { id, init } of FINISHED) {
    const followUp = FOLLOW_UPS.find((f) => f.id === id);
    sim.addJob(PROJECT, { id, ...init, ...(followUp && { activeForMs: workTime(followUp) }) });
  }

  const client = makeClient(api, clock, (jobId, job, at) => {
    if (!TERMINAL.has(job.status)) return;
    const open = stretches.find((s) => s.jobId === jobId && s.seenAt === undefined && s.changeAt <= at);
    if (open) open.seenAt = at;
  });
  const afterPrompt = (jobId: string, durationMs: number) => {
    const now = clock.now();
    stretches.push({ jobId, start: now, fastUntil: now + DEFAULT_TIMINGS.fastPhaseMs, changeAt: now + durationMs });
    client.afterPrompt(jobId);
  };

  const events: { at: number; run: () => Promise<void> | void }[] = [
    { at: 0, run: () => client.start(ACTIVE_AT_START.map((j) => j.id)) },
    { at: UNFOCUSED.from, run: () => client.setFocused(false) },
    { at: UNFOCUSED.to, run: () => client.setFocused(true) },
    {
      at: CREATE_AT,
      run: async () => {
        const job = await clock.track(api.createJob(PROJECT, 'Document the new webhooks page'));
        afterPrompt(job.id, CREATED_JOB_MS);
      },
    },
    ...FOLLOW_UPS.map((followUp) => ({
      at: followUp.at,
      run: async () => {
        await clock.track(api.sendMessage(PROJECT, followUp.id, 'Also update the changelog'));
        afterPrompt(followUp.id, workTime(followUp));
      },
    })),
  ].sort((a, b) => a.at - b.at);

  try {
    for (const event of events) {
      await clock.runUntil(T0 + event.at);
      await event.run();
    }
    await clock.runUntil(T0 + HOUR);
  } finally {
    client.dispose();
    await sim.close();
  }

  const inHour = sim.requests.filter((r) => r.at < T0 + HOUR);
  const changed = stretches.filter((s) => s.changeAt < T0 + HOUR);
  const seen = changed.filter((s) => s.seenAt !== undefined && s.seenAt < T0 + HOUR);
  return {
    run: {
      getRequests: inHour.filter((r) => r.method === 'GET').length,
      postRequests: inHour.filter((r) => r.method === 'POST').length,
      changes: changed.length,
      seen: seen.length,
      delaysMs: seen.map((s) => (s.seenAt as number) - s.changeAt),
    },
    stretches,
  };
}

/**
 * The fewest reads a scheduler that does not know when jobs finish needs to keep the delay bounds
 * ours promises: a change at time c is seen by c + bound(c), where bound is 5 s in the minute after
 * a prompt and 60 s after it, four times that while the window is unfocused, stretched so the jobs
 * running at that moment share 60 steady reads an hour, and a job found active
 * at startup is read once right away (it may have finished while VS Code was closed). Reads go as
 * late as those bounds allow and stop at the one that sees the change (or at the end of the hour).
 */
function blindFloor(stretches: readonly Stretch[]): number {
  const focusedAt = (t: number) => t < T0 + UNFOCUSED.from || t >= T0 + UNFOCUSED.to;
  const refocus = T0 + UNFOCUSED.to;
  let reads = 0;
  for (const s of stretches) {
    const bound = (t: number) => {
      const fast = s.fastUntil !== undefined && t < s.fastUntil;
      const base = (fast ? DEFAULT_TIMINGS.fastIntervalMs : DEFAULT_TIMINGS.intervalMs) * (focusedAt(t) ? 1 : DEFAULT_TIMINGS.unfocusedFactor);
      // The hourly budget shares the steady rate among the jobs running at t, as ours does.
      return fast ? base : Math.max(base, (activeAt(stretches, t) * HOUR) / DEFAULT_TIMINGS.steadyReadsPerHour);
    };
    let last = s.start;
    if (s.fastUntil === undefined) reads++; // the startup read
    for (;;) {
      // The latest next read that still meets every bound: changes just after the last read, or
      // just after a refocus (when the bound shrinks).
      let next = last + bound(last);
      if (refocus > last && refocus < next) next = Math.min(next, refocus + bound(refocus));
      if (next >= T0 + HOUR) break;
      reads++;
      if (next >= s.changeAt) break;
      last = next;
    }
  }
  return reads;
}

function activeAt(stretches: readonly Stretch[], t: number): number {
  return stretches.filter((s) => s.start <= t && t < s.changeAt).length;
}

function maxActive(stretches: readonly Stretch[]): number {
  return Math.max(...stretches.map((s) => activeAt(stretches, s.start)));
}

export function summarizeDelays(run: HourRun): { medianMs: number; p95Ms: number; maxMs: number } {
  return { medianMs: median(run.delaysMs), p95Ms: percentile(run.delaysMs, 95), maxMs: Math.max(...run.delaysMs) };
}
