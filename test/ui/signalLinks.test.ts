// Two windows link two reader signals to two agent jobs within the same second: both
// links survive, in both windows and after each reloads. The links used to be one globalState list
// that each window rewrote whole from its own copy, so the window that wrote last erased the other's.
// Two pages of one browser context, each its own extension host; clicks and keys only.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { DEMO_API_KEY } from '../simulator/demo';
import type { Simulator } from '../simulator/server';
import { PROJECT, UiSession } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

/** What a linked signal shows beside it (src/signals/signalJobs.ts jobBadge). */
const LINKED = /job asked|job active|PR ready|job done, no PR|job failed/;

describe('two windows link two reader signals at once (UI)', function () {
  this.timeout(6 * 60_000);
  let session: UiSession | undefined;
  let sim: Simulator;
  let a: Workbench;
  let b: Workbench;
  const paths: string[] = [];

  const signals = (wb: Workbench) => wb.treeRows('Reader Signals');
  const pageRow = (wb: Workbench, path: string): Locator =>
    signals(wb)
      .filter({ hasText: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`) })
      .first();

  /** Shows the Reader Signals view (expanded) in `wb`. */
  async function showSignals(wb: Workbench): Promise<void> {
    const header = wb.sidebar.locator('.pane-header').filter({ hasText: 'Reader Signals' });
    await expectVisible('the Reader Signals header', header);
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click({ timeout: TIMEOUTS.ui });
  }

  /** From the signal's inline action to the "Send to the agent as…" pick, left open for the caller's Enter. */
  async function askUpToThePick(wb: Workbench, path: string): Promise<void> {
    // A tooltip left by an earlier hover would cover the row's actions.
    await wb.page.mouse.move(0, 0);
    await wb.page.keyboard.press('Escape');
    await wb.hover.first().waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
    const address = await wb.inlineAction(pageRow(wb, path), 'Ask the Agent to Address This');
    await wb.clickAndExpect({
      what: `Ask the Agent to Address This on ${path}`,
      click: address,
      then: wb.quickInputTitled('Ask the Agent to Address This'),
      shows: 'the prompt box',
    });
    await wb.pressEnterAndWaitForClose();
    const ask = wb.notification('exactly what the agent will get');
    await expectVisible('the preview question', ask);
    await wb.clickAndExpect({
      what: 'Choose Where to Send…',
      click: ask.getByRole('button', { name: 'Choose Where to Send…' }),
      then: wb.quickInputTitled('Send to the agent as…'),
      shows: 'the choice of where to send',
    });
    await expectVisible('"New job" first in the pick', wb.quickInput.locator('.monaco-list-row.focused').filter({ hasText: 'New job' }));
  }

  async function expectBothLinked(wb: Workbench, where: string): Promise<void> {
    await showSignals(wb);
    for (const path of paths) await expectVisible(`${path} linked to its job in ${where}`, pageRow(wb, path).filter({ hasText: LINKED }));
  }

  before(async function () {
    this.timeout(8 * 60_000);
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`));
    sim = session.sim;
    a = session.workbench;
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const [name, wb] of [
      ['a', a],
      ['b', b],
    ] as const)
      if (wb && !wb.page.isClosed()) await wb.screenshot(`signal-links-failed-${name}`).catch(() => undefined);
  });

  after(async () => {
    await session?.stop();
  });

  it('both links survive in both windows, and after each window reloads', async () => {
    await a.signInToMintlify(DEMO_API_KEY);
    await a.setProjectId(PROJECT);
    await showSignals(a);
    await a.welcome.filter({ hasText: 'What readers disliked' }).getByRole('button', { name: 'Fetch Reader Signals' }).click({ timeout: TIMEOUTS.ui });
    const rows = signals(a).filter({ hasText: /^\/\S*/ });
    await expectVisible('page signals in A', rows.first());
    for (const text of (await rows.allInnerTexts()).slice(0, 2)) paths.push(text.split(/\s/)[0]);
    assert.equal(paths.length, 2, `two page signals: ${paths.join(', ')}`);

    // B reads the snapshot A kept: no second fetch.
    b = await a.openWindow(session!.url);
    await b.signInToMintlify(DEMO_API_KEY);
    await showSignals(b);
    await expectVisible(`${paths[1]} in B`, pageRow(b, paths[1]));

    await askUpToThePick(a, paths[0]);
    await askUpToThePick(b, paths[1]);
    const creates = () => sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith('/job'));
    const before = creates().length;
    // Both Enters at once: the two sends, and the two links, land within the same second.
    await Promise.all([a.quickInputField.press('Enter', { timeout: TIMEOUTS.ui }), b.quickInputField.press('Enter', { timeout: TIMEOUTS.ui })]);
    const deadline = Date.now() + TIMEOUTS.ui;
    while (creates().length < before + 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = creates().slice(before);
    assert.equal(sent.length, 2, 'one create from each window');
    assert.ok(Math.abs(sent[1].at - sent[0].at) < 1_000, `the two sends ${Math.abs(sent[1].at - sent[0].at)} ms apart`);

    await expectBothLinked(a, 'A');
    await expectBothLinked(b, 'B');
    for (const [name, wb] of [
      ['A', a],
      ['B', b],
    ] as const) {
      await wb.reload();
      await wb.signInToMintlify(DEMO_API_KEY);
      await expectBothLinked(wb, `${name} after its reload`);
    }
  });
});
