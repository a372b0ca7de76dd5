// Polling through a storm of bad answers, in the real host under load. Stalled bodies (headers and
// half a body, then silence), resets mid-body and bodies that trickle past the deadline, in a seeded
// random order, reach three active jobs, while the extension host makes short-lived garbage and runs
// a full garbage collection every 200 ms (a host busy with other extensions). Every request must
// end by its deadline and polling go on at the backoff's pace: once the faults stop, every job shows
// its true status within its backoff plus one interval, and the API saw no request beyond the
// schedule (one per fault, then one per job).
//
// npm test runs a short storm; the full one, with a report file:
//   MINTLIFY_STRESS_FAULTS=200 MINTLIFY_STRESS_SEED=<n> MINTLIFY_STRESS_REPORT=<file> \
//   MINTLIFY_TEST_GREP='bad answers' node out/test/run.js host
// The report file gets one JSON line per run: faults served, each job's time to recover, pass or fail.
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { DEFAULT_TIMINGS, WATCHDOG_MARGIN_MS } from '../../src/poll/pollTimings';
import type { TestSeam } from '../support/extensionUnderTest';
import { collectGarbage } from '../support/gc';
import { mulberry32, pick, randomInt } from '../simulator/random';
import type { Simulator } from '../simulator/server';
import type { Fault } from '../simulator/types';
import { leaveWindowClean, PROJECT, ScriptedUser, seam, setProject, setUserSetting, signIn, waitFor, withSimulator, FAST_POLL_TIMINGS } from './support';

const FAULTS = Number(process.env.MINTLIFY_STRESS_FAULTS ?? 24);
const SEED = Number(process.env.MINTLIFY_STRESS_SEED ?? 34);
const REPORT = process.env.MINTLIFY_STRESS_REPORT;

const TIMEOUT_SECONDS = 1;
/** What a loaded 2-core machine may add to any wait below; a bound on the wait, not on the outcome. */
const SLACK_MS = 10_000;
/** The longest a job may go between two polls: a deadline (or the watchdog's), then the longest backoff. */
const BETWEEN_POLLS_MS = TIMEOUT_SECONDS * 1_000 + WATCHDOG_MARGIN_MS + FAST_POLL_TIMINGS.backoffMaxMs + SLACK_MS;
/** After the last fault: that poll's deadline, its backoff, one interval. */
const RECOVERY_MS = TIMEOUT_SECONDS * 1_000 + FAST_POLL_TIMINGS.backoffMaxMs + FAST_POLL_TIMINGS.intervalMs + SLACK_MS;

/** The storm: each fault ends a poll in failure (a job's answer is about 250 bytes, so a trickle of 20 ms a byte or more is past the deadline). */
function storm(seed: number, count: number): Fault[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (): Fault => {
    const kind = pick(random, ['stall', 'reset', 'slow'] as const);
    if (kind === 'stall') return { kind: 'stallAfterHeaders' };
    if (kind === 'reset') return { kind: 'answerThenReset' };
    return { kind: 'trickle', intervalMs: 20 + randomInt(random, 40) };
  });
}

/** Short-lived garbage every 10 ms and a full collection every 200 ms; returns how to stop. */
function loadTheHost(): () => void {
  let ticks = 0;
  // Each batch lives for five ticks, long enough for some of it to reach the old generation.
  const batches: unknown[][] = [];
  const timer = setInterval(() => {
    batches.push(Array.from({ length: 20_000 }, (_, i) => ({ i, text: `garbage ${i}` })));
    if (batches.length > 5) batches.shift();
    if (++ticks % 20 === 0) collectGarbage();
  }, 10);
  return () => {
    clearInterval(timer);
    batches.length = 0;
  };
}

describe('polling through bad answers under load', function () {
  this.timeout(FAULTS * BETWEEN_POLLS_MS + 4 * RECOVERY_MS);
  let s: TestSeam;
  let sim: Simulator;

  before(async () => {
    s = await seam();
    sim = await withSimulator({ jobDurationMs: 3_600_000 });
    await signIn(s);
    await setProject(PROJECT);
    await waitFor('the store to switch project', () => s.jobs.projectId === PROJECT);
    // A new simulator numbers its jobs from the start again: an earlier suite's job of the same id must not be tracked still.
    for (const tracked of s.jobs.all()) await s.tracker.stopTracking(tracked.id);
    await setUserSetting('requestTimeoutSeconds', TIMEOUT_SECONDS);
  });
  after(async () => {
    s.tracker.poller.setTimings(DEFAULT_TIMINGS);
    await setUserSetting('requestTimeoutSeconds', undefined);
    await leaveWindowClean(s);
    await sim.close();
  });

  it(`${FAULTS} stalled, reset and slow answers across three jobs, then every job shows its true status within its backoff plus one interval`, async () => {
    await s.sync.update((state) => void Object.assign(state, { waits: {}, ledger: {} }));
    const user = new ScriptedUser(s.ui);
    // No poll before the storm is in place: the jobs are tracked with a poll an hour away.
    s.tracker.poller.setTimings({ ...FAST_POLL_TIMINGS, fastIntervalMs: 3_600_000, intervalMs: 3_600_000 });
    const jobs = ['archived', 'completed', 'failed'].map((truth) => ({ id: sim.addJob(PROJECT).id, truth, recoveredMs: Number.NaN }));
    try {
      for (const { id } of jobs) {
        user.type(id);
        await vscode.commands.executeCommand('mintlifyAgent.trackJob');
        assert.ok(s.tracker.poller.isWatching(id), `${id} is polled`);
      }
    } finally {
      user.restore();
    }

    sim.clearRequests();
    for (const fault of storm(SEED, FAULTS)) sim.addFault({ fault, times: 1, method: 'GET', pathIncludes: '/job/' });
    // Each job ends while the API misbehaves: what the next good answer says is its true status.
    const [archived, completed, failed] = jobs.map((j) => j.id);
    sim.archiveJob(PROJECT, archived);
    for (const [id, status] of [
      [completed, 'completed'],
      [failed, 'failed'],
    ] as const) {
      sim.setRawJob(PROJECT, id, { ...sim.peekJob(PROJECT, id), status, ...(status === 'completed' && { prLink: 'https://github.com/acme/docs/pull/34' }) });
    }
    const stormStartedAt = Date.now();
    const polls = () => sim.requests.filter((r) => r.method === 'GET' && r.rawPath.includes('/job/'));
    const ended = () => s.requests.filter((r) => r.method === 'GET' && r.path.includes('/job/') && r.startedAt >= stormStartedAt);
    const shown = (id: string) => (s.tree.getChildren() ?? []).map((node) => s.tree.getTreeItem(node)).find((item) => item.id === `job:${id}`);
    const stopLoad = loadTheHost();
    let outcome = 'pass';
    try {
      s.tracker.poller.setTimings(FAST_POLL_TIMINGS);
      for (let seen = 0; seen < FAULTS; seen = polls().length) {
        await waitFor(
          () =>
            `faulted poll ${seen + 1} of ${FAULTS}: none came for ${BETWEEN_POLLS_MS} ms; the client's calls that ended: ${ended().length}; next polls due in ${jobs.map((j) => String((s.tracker.poller.nextDueAt(j.id) ?? Number.NaN) - Date.now())).join(', ')} ms`,
          () => polls().length > seen,
          BETWEEN_POLLS_MS,
        );
      }
      const stormEndedAt = Date.now();
      await Promise.all(
        jobs.map(async (job) => {
          let description = '';
          await waitFor(
            () => `${job.id} to show "${job.truth}"; it shows "${description}"`,
            () => {
              description = String(shown(job.id)?.description);
              return description.startsWith(`${job.truth} `) && !description.includes('cannot refresh');
            },
            RECOVERY_MS,
          );
          job.recoveredMs = Date.now() - stormEndedAt;
        }),
      );
      await waitFor('every job to stop polling', () => jobs.every((j) => !s.tracker.poller.isWatching(j.id)));
      // Every request the API got ended in the client, by an answer or by its deadline.
      await waitFor(
        () => `every call to end: the API got ${polls().length} polls, ${ended().length} calls ended`,
        () => ended().length === polls().length,
        TIMEOUT_SECONDS * 1_000 + SLACK_MS,
      );
      assert.equal(polls().length, FAULTS + jobs.length, 'one request per fault, then one per job: nothing beyond the backoff schedule');
    } catch (error) {
      outcome = `fail: ${(error as Error).message}`;
      throw error;
    } finally {
      stopLoad();
      if (REPORT) {
        const recovered = Object.fromEntries(jobs.map((j) => [j.truth, Number.isNaN(j.recoveredMs) ? null : j.recoveredMs]));
        appendFileSync(
          REPORT,
          `${JSON.stringify({ seed: SEED, faults: FAULTS, served: Math.min(polls().length, FAULTS), requests: polls().length, callsEnded: ended().length, longestCallMs: Math.round(Math.max(0, ...ended().map((r) => r.durationMs))), recoveredMs: recovered, outcome })}\n`,
        );
      }
      for (const { id } of jobs) {
        sim.setRawJob(PROJECT, id, undefined);
        await s.tracker.stopTracking(id);
      }
      sim.clearFaults();
    }
  });
});
