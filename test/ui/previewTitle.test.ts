// Send to Agent… in a prompt preview's title bar: the notification that offers
// "Choose Where to Send…" hides itself after a few seconds; the title action stays beside the text
// for as long as the preview is open, shows on previews only, and sending from it closes the
// preview alone. Clicks and keys only, as a person does.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { DEMO_API_KEY } from '../simulator/demo';
import type { Simulator } from '../simulator/server';
import { PROJECT, UiSession } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

/** The title bar action of the active editor group, by its label (the command's title). */
function titleAction(wb: Workbench, label: string): Locator {
  return wb.page.locator('.editor-group-container.active .editor-actions').getByRole('button', { name: label });
}

/** The editor tabs' titles, left to right. */
function tabTitles(wb: Workbench): Promise<string[]> {
  return wb.page.locator('.tabs-container .tab .label-name').allInnerTexts();
}

describe('prompt preview: Send to Agent… in the title bar (UI)', function () {
  this.timeout(5 * 60_000);
  let session: UiSession | undefined;
  let sim: Simulator;
  let wb: Workbench;

  before(async function () {
    this.timeout(8 * 60_000);
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`));
    sim = session.sim;
    wb = session.workbench;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.screenshot('preview-title-failed').catch(() => undefined);
  });

  after(async () => {
    await session?.stop();
  });

  it('sends the preview from its title bar after the notification has hidden itself, and closes only the preview', async () => {
    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.setProjectId(PROJECT);
    await wb.goToFile('quickstart.mdx');
    await wb.runCommandForBox('Mintlify: Ask the Agent About This…', 'Ask the Agent About This');
    await wb.typeInto('Ask the Agent About This', 'Say who the page is for');
    await wb.pressEnterAndWaitForClose();
    await expectVisible('the preview', wb.page.locator('.monaco-editor .view-line').filter({ hasText: 'Say who the page is for' }));
    const ask = wb.notification('exactly what the agent will get');
    await expectVisible('the preview question', ask);
    // The toast hides itself (an info toast goes after about 15 s); the bound is for waiting only.
    await ask.waitFor({ state: 'hidden', timeout: 2 * TIMEOUTS.ui });
    const send = titleAction(wb, 'Send to Agent…');
    await expectVisible("Send to Agent… in the preview's title bar", send);
    await wb.screenshot('preview-title-send');
    const before = sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith('/job')).length;
    await wb.clickAndExpect({ what: 'Send to Agent…', click: send, then: wb.quickInputTitled('Send to the agent as…'), shows: 'the choice of where to send' });
    await wb.pickItem('Send to the agent as…', 'New job');
    await expectVisible('the job in Agent Jobs', wb.treeRows('Agent Jobs').filter({ hasText: 'Say who the page is for' }));
    const posts = sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith('/job')).slice(before);
    assert.equal(posts.length, 1, 'one create');
    assert.match((posts[0].body as { prompt?: string }).prompt ?? '', /^Say who the page is for\n\n=== About this page ===\nSite path: \/quickstart\n/);
    // The preview is gone; the page it was about is still open, and its title bar has no Send to Agent….
    await wb.page
      .locator('.tabs-container .tab')
      .filter({ hasText: /^Untitled/ })
      .first()
      .waitFor({ state: 'detached', timeout: TIMEOUTS.ui });
    assert.ok((await tabTitles(wb)).includes('quickstart.mdx'), `quickstart.mdx still open: ${(await tabTitles(wb)).join(', ')}`);
    await wb.page.locator('.tabs-container .tab').filter({ hasText: 'quickstart.mdx' }).first().click({ timeout: TIMEOUTS.ui });
    await expectVisible('Ask the Agent About This… on the page', titleAction(wb, 'Ask the Agent About This…'));
    assert.equal(await titleAction(wb, 'Send to Agent…').count(), 0, 'no Send to Agent… on a file that is not a preview');
  });
});
