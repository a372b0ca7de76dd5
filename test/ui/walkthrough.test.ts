// The first-run walkthrough, as a person meets it: opened from the Mintlify view's welcome, each
// step's checkmark ticking only once the real thing has happened (key stored, project set, job
// tracked, panel opened), never on the click that starts it.
//
// The workbench shows a step's checkmark as a checkbox (`[data-done-step-id]`, its aria-checked
// what a screen reader announces) that it updates live from the walkthrough's completion events.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { DEMO_API_KEY } from '../simulator/demo';
import { ARTIFACTS_DIR, PROJECT, stepsBuildOnEachOther, UiSession } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

const TITLE = 'Get Started with Mintlify Agent & Analytics';
const STEPS = ['setApiKey', 'setProject', 'startOrTrackJob', 'openAnalytics', 'askAboutPage', 'pageReaders'] as const;
type Step = (typeof STEPS)[number];

const DOCS_PAGE = 'quickstart.mdx';
/** How long the walkthrough must go unchanged to count as drawn. */
const QUIET_MS = 750;

describe('the first-run walkthrough (UI)', function () {
  this.timeout(3 * 60_000);
  let session: UiSession | undefined;
  let wb: Workbench;

  stepsBuildOnEachOther();

  before(async function () {
    this.timeout(8 * 60_000); // the first run installs code-server
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`));
    wb = session.workbench;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && session) {
      const name = `failed-walkthrough-${this.currentTest.title.replace(/[^\w]+/g, '-').slice(0, 50)}`;
      await wb.screenshot(name).catch(() => undefined);
      // The extension host's logs (ours among them) say what it was doing.
      fs.cpSync(path.join(session.userDataDir, 'logs'), path.join(ARTIFACTS_DIR, `${name}-logs`), { recursive: true });
    }
  });

  after(async () => {
    await session?.stop();
  });

  /** The walkthrough's page in the editor area. */
  const page = (): Locator => wb.page.locator('.part.editor .gettingStartedContainer');
  /** A step's checkmark: a checkbox the workbench ticks when the step's completion event comes. */
  const checkmark = (step: Step): Locator => page().locator(`[data-done-step-id$="#${step}"]`);

  async function expectTicked(step: Step, ticked: boolean): Promise<void> {
    const box = checkmark(step);
    await expectVisible(`the checkmark of step "${step}"`, box);
    try {
      await wb.page.waitForFunction(
        ([selector, expected]) => document.querySelector(selector)?.getAttribute('aria-checked') === expected,
        [`.part.editor .gettingStartedContainer [data-done-step-id$="#${step}"]`, String(ticked)] as const,
        { timeout: TIMEOUTS.ui },
      );
    } catch {
      throw new Error(`step "${step}": expected ${ticked ? 'ticked' : 'not ticked'}, aria-checked is ${await box.getAttribute('aria-checked')}.`);
    }
  }

  /**
   * Before a step acts: the previous step's checkmark is drawn, and the walkthrough has stopped
   * re-rendering after it (a tick re-renders the steps and takes the focus back, which closes a
   * palette opened meanwhile). Settled means no change to the editor area for `QUIET_MS`, waited
   * for with a bound; a walkthrough still changing after it is said on the output, not failed.
   */
  async function afterTick(previous: Step): Promise<void> {
    await expectTicked(previous, true);
    const settled = await wb.page.evaluate(
      ({ quietMs, bound }) =>
        new Promise<boolean>((resolve) => {
          const root = document.querySelector('.part.editor') ?? document.body;
          const observer = new MutationObserver(() => {
            clearTimeout(quiet);
            quiet = setTimeout(done, quietMs, true);
          });
          let quiet = setTimeout(done, quietMs, true);
          const cap = setTimeout(done, bound, false);
          function done(ok: boolean): void {
            observer.disconnect();
            clearTimeout(quiet);
            clearTimeout(cap);
            resolve(ok);
          }
          observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'aria-checked', 'aria-expanded'] });
        }),
      { quietMs: QUIET_MS, bound: TIMEOUTS.ui },
    );
    if (!settled) process.stdout.write(`      (the walkthrough was still changing ${TIMEOUTS.ui / 1000} s after "${previous}" ticked: going on)\n`);
  }

  /** Brings the walkthrough's editor tab to the front again (an opened panel may have covered it). */
  async function showWalkthrough(): Promise<void> {
    if (await page().isVisible()) return;
    const tab = wb.page.locator('.part.editor .tabs-container .tab').filter({ hasText: /^Walkthrough: / });
    await wb.clickAndExpect({ what: "the walkthrough's tab", click: tab, then: page(), shows: 'the walkthrough, back in front' });
  }

  it("opens from the Mintlify view's welcome, with every step still to do", async () => {
    await wb.openFromActivityBar('Mintlify');
    const link = wb.welcome.getByText('Walk through the first steps', { exact: true }).first();
    await wb.clickAndExpect({
      what: "the welcome's walkthrough link",
      click: link,
      then: page().getByText(TITLE, { exact: true }).first(),
      shows: "the walkthrough's title",
    });
    for (const step of STEPS) await expectTicked(step, false);
    await wb.screenshot('walkthrough-1-opened');
  });

  it('ticks "Set your API key" once the key is stored, not when its button is clicked', async () => {
    // The first step to do is the one the walkthrough opens expanded, its button on show.
    await wb.clickAndExpect({
      what: "the step's Set API Key button",
      click: page().getByRole('button', { name: 'Set API Key', exact: true }),
      then: wb.quickInputTitled('Mintlify: Set API Key'),
      shows: 'the key box',
    });
    await expectTicked('setApiKey', false);
    await wb.quickInputField.fill(DEMO_API_KEY);
    await wb.pressEnterAndWaitForClose();
    await expectTicked('setApiKey', true);
  });

  it('ticks "Choose the project" once the project ID is saved', async () => {
    await expectTicked('setProject', false);
    await afterTick('setApiKey');
    await wb.runCommandForBox('Mintlify: Set Project ID', 'Mintlify: Set Project ID');
    await wb.typeInto('Mintlify: Set Project ID', PROJECT);
    await wb.pressEnterAndWaitForClose();
    await expectTicked('setProject', true);
  });

  it('ticks "Start or track an agent job" once a job is tracked', async () => {
    assert.ok(session);
    const job = session.sim.addJob(PROJECT, { status: 'completed', prompt: 'Fix the broken links in the quickstart' });
    await expectTicked('startOrTrackJob', false);
    await afterTick('setProject');
    await wb.runCommandForBox('Mintlify: Track Job…', 'Track Agent Job');
    await wb.typeInto('Track Agent Job', job.id);
    await wb.pressEnterAndWaitForClose();
    await expectTicked('startOrTrackJob', true);
  });

  it('ticks "Open Visitor Analytics" once the panel is opened', async () => {
    await expectTicked('openAnalytics', false);
    await afterTick('startOrTrackJob');
    // Opening the panel is safe to run twice (it is one panel): a run the palette lost is made again.
    await wb.runCommand('Mintlify: Open Visitor Analytics', { then: wb.webview().locator('#range-label'), shows: 'the analytics panel' });
    await showWalkthrough();
    await expectTicked('openAnalytics', true);
    await wb.screenshot('walkthrough-2-four-done');
  });

  /**
   * Opens a page of the fixture's docs beside the walkthrough, as a person does (Go to File, its
   * name, Ctrl+Enter for "open to the side"), so that the page is the active editor while the
   * walkthrough's checkmarks stay on screen. A page already open is brought to the front.
   */
  async function openDocsPage(): Promise<void> {
    const tab = wb.page.locator('.part.editor .tabs-container .tab').filter({ hasText: DOCS_PAGE });
    if (await tab.count()) {
      await wb.clickAndExpect({
        what: `the ${DOCS_PAGE} tab`,
        click: tab.first(),
        then: wb.page.locator('.part.editor .tabs-container .tab.active').filter({ hasText: DOCS_PAGE }),
        shows: `the ${DOCS_PAGE} tab, active`,
      });
    } else {
      await wb.goToFile(DOCS_PAGE, { toSide: true });
    }
    await expectVisible(`the ${DOCS_PAGE} tab, active`, wb.page.locator('.part.editor .tabs-container .tab.active').filter({ hasText: DOCS_PAGE }));
    await expectVisible('the walkthrough beside it', page());
  }

  it('ticks "See who reads a page" once a docs page\'s readers figure shows', async () => {
    await expectTicked('pageReaders', false);
    await afterTick('openAnalytics');
    await openDocsPage();
    // The figure needs one analytics request after the page opens: a poll-sized bound.
    await wb.page.waitForFunction(
      (selector) => document.querySelector(selector)?.getAttribute('aria-checked') === 'true',
      '.part.editor .gettingStartedContainer [data-done-step-id$="#pageReaders"]',
      { timeout: TIMEOUTS.poll },
    );
  });

  it('ticks "Ask the agent about a page" once the command runs on a docs page', async () => {
    await expectTicked('askAboutPage', false);
    await afterTick('pageReaders');
    await openDocsPage();
    // Whatever it asks next (a prompt box), the person changes their mind: nothing is sent.
    await wb.runCommandForBox('Mintlify: Ask the Agent About This…', 'Ask the Agent About This');
    await wb.page.keyboard.press('Escape');
    await expectTicked('askAboutPage', true);
  });
});
