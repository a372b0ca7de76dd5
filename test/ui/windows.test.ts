// Several windows of one workbench on one project: two, then three pages of one browser
// context, each its own extension host, the key set in each (secrets are per page in this web
// build). What one window tracks, stops tracking or sends shows in the others; one window polls;
// when it closes another takes over; a follow-up from a window that does not poll still gets the
// fast phase; a damaged store file is set aside and the extension still starts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_API_KEY } from '../simulator/demo';
import type { Simulator } from '../simulator/server';
import { loggedCalls } from './hostLogs';
import { ARTIFACTS_DIR, PROJECT, stepsBuildOnEachOther, UiSession } from './uiSession';
import { expectVisible, TIMEOUTS, Workbench } from './workbench';
import { waitFor } from '../support/waitFor';

/** One job's steady interval: the setting's default, and one job's share of the steady reads an hour. */
const INTERVAL_S = 60;
/** A window whose heartbeat stopped is taken over after this long (src/sync/lease.ts LEASE_TTL_MS). */
const LEASE_S = 15;

describe('several windows on one project (UI)', function () {
  this.timeout(5 * 60_000);
  let session: UiSession | undefined;
  let sim: Simulator;
  let a: Workbench;
  let b: Workbench;
  let c: Workbench | undefined;
  let kept = '';
  let dropped = '';
  /** When B no longer showed the job A stopped tracking. */
  let droppedAt = 0;
  /** Which window each page load was, in order: the server numbers extension hosts (and their logs) the same way. */
  const loads: string[] = [];
  /** The extension host of a window's latest load. */
  const hostOf = (name: string) => loads.lastIndexOf(name) + 1;

  const rows = (wb: Workbench) => wb.treeRows('Agent Jobs');

  /** Another window beside A, counted in `loads` before its extension host starts. */
  function openWindow(name: string): Promise<Workbench> {
    loads.push(name);
    return a.openWindow(session!.url);
  }

  /** The shared store's folder (src/sync/) in the server's user data, once a window made it. */
  function storeFolder(): string | undefined {
    const globalStorage = path.join(session!.userDataDir, 'User', 'globalStorage');
    return fs
      .readdirSync(globalStorage)
      .map((name) => path.join(globalStorage, name, 'sync'))
      .find((dir) => fs.existsSync(dir));
  }

  /** What each window's store file says of a job, for a failure's message. */
  function storeSays(id: string): string {
    const folder = storeFolder();
    if (!folder) return 'no store folder';
    return fs
      .readdirSync(folder)
      .map((name) => {
        try {
          const file = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as {
            presence?: unknown;
            state?: { jobs?: Record<string, Record<string, { tracked?: unknown }>> };
          };
          return `${name}: ${JSON.stringify({ presence: file.presence, tracked: file.state?.jobs?.[PROJECT]?.[id]?.tracked })}`;
        } catch (error) {
          return `${name}: ${String(error)}`;
        }
      })
      .join('; ');
  }

  /** The GETs of one job that reached the simulator, oldest first. */
  const getsOf = (id: string) => sim.requests.filter((r) => r.method === 'GET' && r.segments.at(-1) === id);

  async function waitForGets(id: string, count: number, bound: number = TIMEOUTS.poll): Promise<void> {
    await waitFor(
      () => `${count} reads of ${id}: saw ${getsOf(id).length}`,
      () => getsOf(id).length >= count,
      bound,
      250,
    );
  }

  stepsBuildOnEachOther();

  before(async function () {
    this.timeout(8 * 60_000);
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`));
    sim = session.sim;
    a = session.workbench;
    loads.push('A');
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const step = this.currentTest.title.slice(0, 1);
    // Each window's extension host log says which window sent what.
    fs.cpSync(path.join(session!.userDataDir, 'logs'), path.join(ARTIFACTS_DIR, `windows-failed-${step}-logs`), { recursive: true });
    for (const [name, wb] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const) {
      if (wb && !wb.page.isClosed()) await wb.screenshot(`windows-failed-${step}-${name}`).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.stop();
  });

  it('1. what A tracks shows in B, what B tracks shows in A, and a job A stops tracking leaves B too', async () => {
    await a.signInToMintlify(DEMO_API_KEY);
    await expectVisible('the project welcome in A', a.welcome.filter({ hasText: 'Set the Mintlify project ID' }));
    await a.setProjectId(PROJECT);
    b = await openWindow('B');
    await b.signInToMintlify(DEMO_API_KEY);

    dropped = sim.addJob(PROJECT, { prompt: 'Tracked in A, then dropped', activeForMs: 60 * 60_000 }).id;
    kept = sim.addJob(PROJECT, { prompt: 'Tracked in B and kept', activeForMs: 60 * 60_000 }).id;
    await a.trackJob(dropped);
    await expectVisible("A's job in B, without a reload", rows(b).filter({ hasText: dropped }));
    await b.trackJob(kept);
    await expectVisible("B's job in A, without a reload", rows(a).filter({ hasText: kept }));

    const row = rows(a).filter({ hasText: dropped });
    await a.chooseFromContextMenu(row, 'Stop Tracking', { gone: row }, 'the job gone from A');
    await rows(b)
      .filter({ hasText: dropped })
      .waitFor({ state: 'detached', timeout: TIMEOUTS.ui })
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\nA shows ${JSON.stringify(await rows(a).allInnerTexts())}; the store says of ${dropped}: ${storeSays(dropped)}`);
      });
    droppedAt = Date.now();
    assert.equal(await rows(b).filter({ hasText: kept }).count(), 1, 'B still has its own job');
  });

  it('2. after A reloads, both windows show exactly the jobs kept', async () => {
    loads.push('A');
    await a.reload();
    await a.signInToMintlify(DEMO_API_KEY);
    await expectVisible("B's job in A after the reload", rows(a).filter({ hasText: kept }));
    assert.equal(await rows(a).filter({ hasText: dropped }).count(), 0, 'the job stopped in A stays stopped');
    assert.equal(await rows(b).filter({ hasText: dropped }).count(), 0);
    // The running job's status bar item tells the shared ledger's count in its tooltip.
    await b.page
      .locator('.statusbar-item')
      .filter({ hasText: /1 agent job active/ })
      .hover({ timeout: TIMEOUTS.ui });
    await expectVisible(
      'the shared ledger in the status bar tooltip',
      b.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: /\d+ of 100 agent requests this hour/ }),
    );
  });

  it('3. with three windows open, one window polls: no job is read twice within a steady interval', async () => {
    c = await openWindow('C');
    await c.signInToMintlify(DEMO_API_KEY);
    await expectVisible('the kept job in C', rows(c).filter({ hasText: kept }));
    const from = getsOf(kept).length;
    await waitForGets(kept, from + 2, 3 * INTERVAL_S * 1_000 + TIMEOUTS.ui);
    const times = getsOf(kept)
      .slice(Math.max(0, from - 1))
      .map((r) => r.at);
    // One poller reads a job once an interval; three would read it up to three times.
    for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= (INTERVAL_S * 1_000) / 2, `two reads ${times[i] - times[i - 1]} ms apart`);
    // A job stopped in one window is not read again by the window that polls (a steady interval has passed since).
    assert.deepEqual(
      getsOf(dropped)
        .filter((r) => r.at > droppedAt)
        .map((r) => new Date(r.at).toISOString()),
      [],
      'reads of the job A stopped tracking',
    );
  });

  it('4. a follow-up sent from a window that does not poll gets the fast phase', async () => {
    // B started before A's reload and C: it polls. C sends.
    const target = c!;
    await target.runCommandForBox('Mintlify: Send Follow-up to Agent Job…', 'Send Follow-up to Agent Job');
    await target.pickItem('Send Follow-up to Agent Job', kept);
    await target.typeInto(/^Follow-up to/, 'Add one example');
    // Reads from here on: B's steady read while C's box was open is not one of them.
    const sentAt = Date.now();
    await target.pressEnterAndWaitForClose();
    await waitForGets(kept, getsOf(kept).filter((r) => r.at < sentAt).length + 2, TIMEOUTS.poll);
    const reads = getsOf(kept).filter((r) => r.at >= sentAt);
    assert.ok(reads[0].at - sentAt < INTERVAL_S * 1_000, 'the first read after the follow-up came at the fast pace');
    assert.ok(reads[1].at - reads[0].at < INTERVAL_S * 1_000, 'the second read came at the fast pace, before a steady interval');
  });

  it('5. when the polling window closes, another takes over within one steady interval, and nothing is read twice in a row', async () => {
    // The GETs of a job, by the window that sent them (each window's extension host logs its calls).
    const readsOf = (id: string) => loggedCalls(session!.userDataDir).filter((r) => r.method === 'GET' && r.path.endsWith(`/job/${id}`) && r.outcome === '200');
    async function waitForRead(what: string, id: string, test: (read: ReturnType<typeof readsOf>[number]) => boolean, bound: number): Promise<void> {
      await waitFor(
        () => `${what}; reads of ${id}: ${JSON.stringify(readsOf(id))}`,
        () => readsOf(id).some(test),
        bound,
        250,
      );
    }
    const late = sim.addJob(PROJECT, { prompt: 'Tracked just before the polling window closes', activeForMs: 60 * 60_000 }).id;
    await a.trackJob(late);
    await expectVisible('the new job in B, the polling window', rows(b).filter({ hasText: late }));
    await waitForRead("A's read of the job it tracked, in A's log", late, (r) => r.host === hostOf('A'), TIMEOUTS.ui);
    // B polls: of the live windows it started first (A was reloaded since, C came later).
    const polling = hostOf('B');
    assert.equal(readsOf(kept).at(-1)?.host, polling, `the last read of the kept job came from B (extension host ${polling})`);

    const closedAt = Date.now();
    await b.page.close({ runBeforeUnload: true });
    // Every job is read again, by a window that is still open, within one lease and one steady
    // interval (two jobs: their share of the steady reads an hour is 2 × 60 s); the bound is for waiting only.
    const bound = (LEASE_S + 2 * INTERVAL_S) * 1_000 + TIMEOUTS.ui;
    for (const id of [late, kept]) await waitForRead(`a read of ${id} by a window still open`, id, (r) => r.at > closedAt && r.host !== polling, bound);

    const reads = readsOf(late);
    const takeover = reads.findIndex((r) => r.at > closedAt && r.host !== polling);
    const gap = reads[takeover].at - reads[takeover - 1].at;
    assert.ok(gap >= (INTERVAL_S * 1_000) / 2, `the window that took over read ${late} ${gap} ms after the read before it, not a steady interval later`);
    // The simulator saw exactly the reads the windows logged: nothing was sent unlogged.
    assert.equal(getsOf(late).length, reads.length, 'the simulator counts what the windows logged');
    for (const id of [late, kept]) {
      const afterClose = readsOf(id).filter((r) => r.host === polling && r.at > closedAt + 2_000);
      assert.deepEqual(afterClose, [], `the closed window read ${id} after it closed`);
    }
  });

  it('6. a damaged store file is set aside with a warning and the extension still starts', async () => {
    const folder = storeFolder();
    assert.ok(folder, 'the shared store folder under the user data');
    fs.writeFileSync(path.join(folder, 'w-damaged.json'), '{"format":1,"presence":{"window":');
    loads.push('A');
    await a.reload();
    await a.signInToMintlify(DEMO_API_KEY);
    // Its label is now the follow-up sent in step 4, the first prompt this extension saw.
    await expectVisible('the kept job in A after the reload', rows(a).filter({ hasText: 'Add one example' }));
    await waitFor('w-damaged.json set aside', () => !fs.existsSync(path.join(folder, 'w-damaged.json')), TIMEOUTS.ui, 250);
    const names = fs.readdirSync(folder);
    assert.ok(!names.includes('w-damaged.json'), 'no longer read');
    assert.ok(
      names.some((n) => n.startsWith('w-damaged.json.damaged-')),
      `kept aside: ${names.join(', ')}`,
    );
  });
});
