// After the API said yes, nothing local turns the send into "failed": with the shared store's
// folder unwritable (replaced by a plain file, so every write of this window fails in the real file
// layer, as a full or read-only disk would fail it), a Start New Job and a Send Follow-up are each
// one POST, told as sent, tracked and polled in this window, never kept as an unsent prompt, and
// the user is warned once that the other windows may not see the job yet. Once the folder is back,
// the job, and every follow-up sent meanwhile, reach the shared store by themselves.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { PromptSent } from '../../src/jobs/jobCommands';
import { DEFAULT_TIMINGS } from '../../src/jobs/pollTimings';
import type { Simulator } from '../simulator/server';
import {
  freshAnalyticsHour,
  leaveWindowClean,
  PROJECT,
  requestsTo,
  ScriptedUser,
  seam,
  setProject,
  signIn,
  waitFor,
  withSimulator,
  FAST_POLL_TIMINGS,
} from './support';

const OTHER_WINDOWS = /Other VS Code windows may not see this job yet/;
const UNCERTAIN = /cannot be counted for certain/;

describe('a send the API took while the shared store cannot be written', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let folder: string;
  const aside = () => `${folder}.aside`;

  /** The folder every window shares becomes a plain file: this window's writes fail from now on. */
  function breakSharedFolder(): void {
    renameSync(folder, aside());
    writeFileSync(folder, 'not a folder');
  }

  function repairSharedFolder(): void {
    if (!existsSync(aside())) return;
    rmSync(folder, { force: true });
    renameSync(aside(), folder);
  }

  /** The job as this window's own file in the shared folder holds it (what other windows read), if it does. */
  function sharedJob(jobId: string): { tracked?: { v?: boolean }; p?: Record<string, { text?: string }> } | undefined {
    try {
      const file = JSON.parse(readFileSync(join(folder, `w-${s.sync.windowId}.json`), 'utf8')) as {
        state?: { jobs?: Record<string, Record<string, { tracked?: { v?: boolean }; p?: Record<string, { text?: string }> }>> };
      };
      return file.state?.jobs?.[PROJECT]?.[jobId];
    } catch {
      return undefined;
    }
  }

  /** The analytics requests of the hour this window's own file holds (what other windows count). */
  function analyticsInSharedFile(): number {
    try {
      const file = JSON.parse(readFileSync(join(folder, `w-${s.sync.windowId}.json`), 'utf8')) as {
        state?: { ledger?: Record<string, Record<string, number>> };
      };
      return Object.entries(file.state?.ledger ?? {})
        .filter(([bucket]) => bucket.startsWith('analytics:'))
        .reduce((sum, [, entries]) => sum + Object.keys(entries).length, 0);
    } catch {
      return -1;
    }
  }

  /** Whether this window's own file holds the job, tracked. */
  function sharedFileHolds(jobId: string): boolean {
    return sharedJob(jobId)?.tracked?.v === true;
  }

  /** The prompts of the job's history that this window's own file holds. */
  function sharedPrompts(jobId: string): string[] {
    return Object.values(sharedJob(jobId)?.p ?? {}).map((p) => p.text ?? '');
  }

  const warnings = () => user.messages.filter((m) => m.level === 'warning' && OTHER_WINDOWS.test(m.message));
  const errors = () => user.messages.filter((m) => m.level === 'error');

  before(async () => {
    s = await seam();
    sim = await withSimulator({ jobDurationMs: 600_000 });
    await signIn(s);
    await setProject(PROJECT);
    await waitFor('the store to switch project', () => s.jobs.projectId === PROJECT);
    // A new simulator numbers its jobs from the start again: an earlier suite's job of the same id must not be tracked still.
    for (const tracked of s.jobs.all()) await s.tracker.stopTracking(tracked.id);
    await s.sync.ready;
    folder = s.sync.dir.fsPath;
    s.tracker.poller.setTimings(FAST_POLL_TIMINGS);
  });
  after(async () => {
    repairSharedFolder();
    s.tracker.poller.setTimings(DEFAULT_TIMINGS);
    await leaveWindowClean(s);
    await sim.close();
  });
  beforeEach(async () => {
    user = new ScriptedUser(s.ui);
    sim.clearRequests();
    // A fresh server's limits: the shared ledger's count and 429 wait go too.
    await s.sync.update((state) => void Object.assign(state, { waits: {}, ledger: {} }));
  });
  afterEach(() => {
    repairSharedFolder();
    user.restore();
  });

  it('Start New Job: one POST, told it started, tracked and polled, the prompt not kept, one warning', async () => {
    breakSharedFolder();
    user.type('Explain the rate limits page');
    const sent = await vscode.commands.executeCommand<PromptSent | undefined>('mintlifyAgent.startJob');

    assert.equal(requestsTo(sim, 'POST', '/job').length, 1, 'exactly one POST');
    assert.deepEqual(errors(), [], 'no failure shown');
    assert.ok(sent?.sent, 'the command says it was sent');
    const { jobId } = sent;
    assert.deepEqual(
      user.messages.filter((m) => m.level === 'info').map((m) => m.message),
      ['Agent job started: “Explain the rate limits page”.'],
      'the user is told it started',
    );
    assert.ok(s.jobs.get(jobId), 'tracked in this window at once');
    await waitFor('a poll of the new job', () => requestsTo(sim, 'GET', `/job/${jobId}`).length > 0);
    // Shown only when a write failed: the fault is real.
    await waitFor('the warning about the other windows', () => warnings().length > 0);

    // The next Start New Job box opens empty, and Escape sends nothing.
    let offered: string | undefined;
    user.type((options) => ((offered = options.value), undefined));
    await vscode.commands.executeCommand('mintlifyAgent.startJob');
    assert.equal(offered, '', 'the sent prompt is not offered again');
    assert.equal(requestsTo(sim, 'POST', '/job').length, 1, 'nothing sent again');
    assert.equal(warnings().length, 1, 'warned once');

    repairSharedFolder();
    await waitFor('the job to reach the shared folder once it can be written', () => sharedFileHolds(jobId));
    await s.tracker.stopTracking(jobId);
  });

  it('Send Follow-up: one POST, told it was sent, polled again, the prompt not kept, one warning for two sends', async () => {
    const job = sim.addJob(PROJECT, { status: 'completed', prLink: 'https://github.com/acme/docs/pull/7' });
    await s.tracker.track(job.id);
    await waitFor('the tracked job in the shared folder', () => sharedFileHolds(job.id));
    breakSharedFolder();
    sim.clearRequests();

    user.type('Add an example request');
    const sent = await vscode.commands.executeCommand<PromptSent | undefined>('mintlifyAgent.sendFollowUp', job.id);

    const posts = () => requestsTo(sim, 'POST', `/job/${job.id}/message`);
    assert.equal(posts().length, 1, 'exactly one POST');
    assert.deepEqual(errors(), [], 'no failure shown');
    assert.deepEqual(sent, { sent: true, jobId: job.id });
    assert.ok(
      user.messages.some((m) => m.level === 'info' && m.message.startsWith(`Follow-up sent to “Job ${job.id}”`)),
      'the user is told it was sent',
    );
    assert.deepEqual(
      s.jobs
        .get(job.id)
        ?.prompts.map((p) => p.text)
        .at(-1),
      'Add an example request',
      'the prompt is in the job’s history',
    );
    assert.equal(s.jobs.get(job.id)?.unsentPrompt, undefined);
    await waitFor('a poll of the job after the follow-up', () => requestsTo(sim, 'GET', `/job/${job.id}`).length > 0);
    // Shown only when a write failed: the fault is real.
    await waitFor('the warning about the other windows', () => warnings().length > 0);

    // The next prompt box opens empty; a second follow-up, sent while the folder is still broken, warns no more.
    let offered: string | undefined;
    user.type((options) => ((offered = options.value), 'Also link the changelog'));
    await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', job.id);
    assert.equal(offered, '', 'the sent prompt is not offered again');
    assert.equal(posts().length, 2, 'the second prompt, once');
    assert.deepEqual(
      posts().map((p) => (p.body as { prompt?: unknown } | undefined)?.prompt),
      ['Add an example request', 'Also link the changelog'],
    );
    assert.deepEqual(errors(), []);
    assert.equal(warnings().length, 1, 'warned once');

    // The job itself was in the file before the folder broke: what must arrive is both follow-ups.
    repairSharedFolder();
    await waitFor('both follow-ups to reach the shared folder', () =>
      ['Add an example request', 'Also link the changelog'].every((text) => sharedPrompts(job.id).includes(text)),
    );
    await s.tracker.stopTracking(job.id);
  });

  it('the analytics hour meanwhile: not known, background work held, a writer’s request goes and is told once; known again once the folder is back, the request in the shared file', async () => {
    await freshAnalyticsHour(s);
    breakSharedFolder();
    await waitFor('the count not known once the folder fails (the heartbeat’s write, the next read)', () => s.gate.used() === undefined);
    assert.equal(s.gate.background('readers', 1), undefined, 'background work is held');
    const grant = s.gate.granted(2);
    const reservations = await Promise.all([grant.reserve(), grant.reserve()]);
    for (const reservation of reservations) reservation?.end(true);
    assert.equal(reservations.filter(Boolean).length, 2, 'what the writer asked for goes');
    assert.equal(user.messages.filter((m) => m.level === 'warning' && UNCERTAIN.test(m.message)).length, 1, 'told once that the count is uncertain');

    repairSharedFolder();
    await waitFor('the count known again, holding the two', () => s.gate.used() === 2);
    await waitFor('the two in the shared file, for the other windows', () => analyticsInSharedFile() === 2);
  });
});
