// Figure 2, status freshness: how long after a job changes on the server our scheduler knows it.
//
// Method: one simulated clock drives the real StatusPoller and the real simulator (see simClock.ts);
// requests are real HTTP through the real ApiClient. Each trial takes a finished job, sends it a
// real follow-up (POST .../message), hands it to the scheduler as JobTracker does after a prompt,
// and lets the job finish on the server at a random moment (seeded). The delay is the simulated
// time from the job's change on the server to the poll answer that shows it; loopback round trips
// cost no simulated time, and the tree repaints from that answer in the same turn.
import { createApiClient } from '../src/api';
import { startSimulator } from '../test/simulator/server';
import { mulberry32 } from '../test/simulator/random';
import { API_KEY, OurScheduler, PROJECT, TERMINAL } from './pollingClients';
import { SimulatedClock } from './simClock';
import { median, percentile } from './stats';

export interface FreshnessPhase {
  name: string;
  /** When in the job's life the change falls, as described in the report. */
  changeWindow: string;
  trials: number;
  delaysMs: number[];
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  pollsPerTrial: number;
}

interface PhaseSpec {
  name: string;
  changeWindow: string;
  focused: boolean;
  /** The job's active time after the follow-up, from a uniform [0, 1) draw. */
  activeFor: (u: number) => number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

const PHASES: PhaseSpec[] = [
  { name: 'fast phase (first minute after a follow-up)', changeWindow: 'uniform in 0–60 s after the follow-up', focused: true, activeFor: (u) => u * MINUTE },
  { name: 'steady phase, window focused', changeWindow: 'uniform in 1–16 min after the follow-up', focused: true, activeFor: (u) => MINUTE + u * 15 * MINUTE },
  {
    name: 'steady phase, window unfocused',
    changeWindow: 'uniform in 1–31 min after the follow-up',
    focused: false,
    activeFor: (u) => MINUTE + u * 30 * MINUTE,
  },
];

export interface FreshnessResult {
  phases: FreshnessPhase[];
  /** Median real duration of the requests, from the ApiClient's own log (not on the simulated clock). */
  requestMs: number;
}

export async function measureFreshness(trials: number, seed = 6): Promise<FreshnessResult> {
  const clock = new SimulatedClock(Date.UTC(2025, 0, 6, 9));
  const sim = await startSimulator({ projects: [PROJECT], now: clock.now, agentPostLimitPerHour: 1_000_000 });
  const requestMs: number[] = [];
  const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY, onRequest: (entry) => requestMs.push(entry.durationMs) });
  const random = mulberry32(seed);
  const results: FreshnessPhase[] = [];
  try {
    for (const [p, phase] of PHASES.entries()) {
      const delaysMs: number[] = [];
      let polls = 0;
      for (let trial = 0; trial < trials; trial++) {
        const activeForMs = Math.round(phase.activeFor(random()));
        const id = `job_fresh_${p}_${trial}`;
        sim.addJob(PROJECT, { id, status: 'completed', outcome: 'pr', activeForMs });
        let seenAt: number | undefined;
        const scheduler = new OurScheduler(api, clock, (_jobId, job, at) => {
          polls++;
          if (TERMINAL.has(job.status)) seenAt ??= at;
        });
        scheduler.setFocused(phase.focused);
        const sentAt = clock.now();
        await clock.track(api.sendMessage(PROJECT, id, 'Bench follow-up'));
        scheduler.afterPrompt(id);
        const changedAt = sentAt + activeForMs;
        await clock.runUntil(changedAt + 10 * MINUTE);
        scheduler.dispose();
        if (seenAt === undefined) throw new Error(`freshness: ${id} was not seen finishing within 10 min of its change`);
        delaysMs.push(seenAt - changedAt);
      }
      results.push({
        name: phase.name,
        changeWindow: phase.changeWindow,
        trials,
        delaysMs,
        medianMs: median(delaysMs),
        p95Ms: percentile(delaysMs, 95),
        maxMs: Math.max(...delaysMs),
        pollsPerTrial: polls / trials,
      });
    }
  } finally {
    await sim.close();
  }
  return { phases: results, requestMs: median(requestMs) };
}
