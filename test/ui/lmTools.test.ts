// An acting language model tool as a writer meets it: the AI asks to start an agent job, VS Code
// shows the tool's confirmation as a modal dialog (its title, the cost and the whole prompt, Cancel
// and Yes), Cancel sends nothing and Yes sends one POST whose job appears in Agent Jobs. code-server
// has no chat view, so the harness extension test/fixtures/lm-tool-invoker stands in for the chat:
// "Test Harness: Invoke a Language Model Tool" calls vscode.lm.invokeTool as agent mode does. (In
// the host tier VS Code answers such dialogs "yes" itself, so only this tier sees them.)
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { DEMO_API_KEY } from '../simulator/demo';
import { findRepoRoot } from '../host/codeServer';
import { PROJECT, stepsBuildOnEachOther, UiSession } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

const PROMPT = 'Rewrite step 3 of docs/quickstart.mdx for Windows readers; change nothing else.';

describe('a language model tool asks the writer first (UI)', function () {
  this.timeout(3 * 60_000);
  let session: UiSession | undefined;
  let wb: Workbench;

  stepsBuildOnEachOther();

  before(async function () {
    this.timeout(8 * 60_000); // the first run installs code-server
    const invoker = path.join(findRepoRoot(__dirname), 'test', 'fixtures', 'lm-tool-invoker');
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`), {}, [invoker]);
    wb = session.workbench;
    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.setProjectId(PROJECT);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.screenshot(`failed-lm-tools-${this.currentTest.title.replace(/[^\w]+/g, '-').slice(0, 50)}`).catch(() => undefined);
  });

  after(async () => {
    await session?.stop();
  });

  const dialog = () => wb.page.locator('.monaco-dialog-box');
  const posts = () => session!.sim.requests.filter((r) => r.method === 'POST' && decodeURIComponent(r.rawPath).endsWith(`/${PROJECT}/job`));

  /** The chat's stand-in: the tool and its input, as agent mode would call it. */
  async function invokeStartJob(): Promise<void> {
    await wb.runCommand('Test Harness: Invoke a Language Model Tool');
    await wb.pickItem('Tool', 'start_mintlifyAgentJob');
    await wb.typeInto('Tool input (JSON)', JSON.stringify({ prompt: PROMPT }));
    await wb.pressEnterAndWaitForClose();
    const confirmation = dialog().filter({ hasText: 'Start a Mintlify agent job?' });
    // The dialog, or the harness's word that the tool did not run (then the failure says why).
    await expectVisible('the tool\'s confirmation dialog', confirmation.or(wb.notification(/^Tool (not run|result):/)));
    if (!(await confirmation.isVisible())) {
      const said = await wb.notification(/^Tool (not run|result):/).first().textContent();
      assert.fail(`the tool's confirmation dialog did not open; the harness said: ${said}`);
    }
  }

  it('shows the whole prompt and its cost; Cancel sends nothing', async () => {
    session!.sim.clearRequests();
    await invokeStartJob();
    const text = (await dialog().textContent()) ?? '';
    const afterLabel = text.split('The prompt, exactly as it will be sent:')[1]?.trim() ?? '';
    assert.ok(afterLabel.startsWith(PROMPT), `the prompt in full on screen, after its label: ${text}`);
    assert.ok(text.includes(`project "${PROJECT}": one request to the agent API`), `the cost on screen: ${text}`);
    await wb.screenshot('lm-tools-1-confirmation');
    await wb.clickAndExpect({ what: 'the dialog\'s Cancel', click: dialog().getByRole('button', { name: 'Cancel' }), then: { gone: dialog() }, shows: 'the dialog closed' });
    await expectVisible('the harness saying the tool did not run', wb.notification(/^Tool not run: Canceled/));
    assert.equal(posts().length, 0, 'Cancel sends nothing');
    await wb.clearNotifications();
  });

  it('Yes sends one POST with the prompt, and the job appears in Agent Jobs', async () => {
    session!.sim.clearRequests();
    await invokeStartJob();
    await wb.clickAndExpect({ what: 'the dialog\'s Yes', click: dialog().getByRole('button', { name: 'Yes' }), then: { gone: dialog() }, shows: 'the dialog closed' });
    await expectVisible('the tool\'s answer', wb.notification(/Tool result: Started agent job "/), TIMEOUTS.poll);
    assert.equal(posts().length, 1, 'one POST');
    assert.deepEqual(posts()[0].body, { prompt: PROMPT });
    await expectVisible('the job in Agent Jobs', wb.treeRows('Agent Jobs').filter({ hasText: PROMPT.slice(0, 60) }));
    await wb.screenshot('lm-tools-2-job-started');
  });
});
