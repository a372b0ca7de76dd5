// The editor's AI never spends the organisation's analytics hour unasked: a model that calls a
// reading tool in a loop (the harness test/fixtures/lm-tool-invoker stands in for the chat and
// calls vscode.lm.invokeTool as agent mode does) meets the tool's confirmation dialog every time it
// would send; Cancel sends nothing, call after call. After one Yes the kept figures answer the next
// calls with no request and no dialog; the fetch tool answers its recent snapshot the same way.
// Requests are counted at the simulator. (In the host tier VS Code answers such dialogs "yes"
// itself, so only this tier sees them.)
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { DEMO_API_KEY } from '../simulator/demo';
import { findRepoRoot } from '../host/codeServer';
import { PROJECT, stepsBuildOnEachOther, UiSession, screenshotOnFailure } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

describe('the editor’s AI spends the hour only when the writer says yes (UI)', function () {
  this.timeout(4 * 60_000);
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

  screenshotOnFailure('lm-spend', () => wb);

  after(async () => {
    await session?.stop();
  });

  const dialog = () => wb.page.locator('.monaco-dialog-box');
  const analytics = () => session!.sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/')).length;
  const result = () => wb.notification(/^Tool (not run|result):/);

  /** The chat's stand-in calls `tool` with `input`; resolves once its dialog or its answer shows. */
  async function call(tool: string, input: object): Promise<'dialog' | 'answer'> {
    await wb.clearNotifications();
    await wb.runCommandForBox('Test Harness: Invoke a Language Model Tool', 'Tool');
    await wb.pickItem('Tool', tool);
    await wb.typeInto('Tool input (JSON)', JSON.stringify(input));
    await wb.pressEnterAndWaitForClose();
    await expectVisible(`${tool}'s dialog or answer`, dialog().or(result()), TIMEOUTS.poll);
    return (await dialog().isVisible()) ? 'dialog' : 'answer';
  }

  async function press(button: 'Cancel' | 'Yes'): Promise<void> {
    await wb.clickAndExpect({
      what: `the dialog's ${button}`,
      click: dialog().getByRole('button', { name: button }),
      then: { gone: dialog() },
      shows: 'the dialog closed',
    });
  }

  it('a reading tool called again and again asks every time it would send; each Cancel sends nothing', async () => {
    session!.sim.clearRequests();
    for (let round = 1; round <= 3; round++) {
      assert.equal(await call('get_mintlifyVisitors', { range: 'last90' }), 'dialog', `call ${round}: the dialog, before any request`);
      const text = (await dialog().textContent()) ?? '';
      assert.match(text, /Fetch visitors\?/);
      // Nothing of the range is kept: its size is not known, and the question says where a yes stops.
      assert.match(
        text,
        /takes one analytics request per 250 paths \(the site’s size is not known yet\), stopping at \d+, of the \d+ left this hour on this machine’s count/,
      );
      if (round === 1) await wb.screenshot('lm-spend-1-visitors-dialog');
      await press('Cancel');
      await expectVisible('the harness saying the tool did not run', wb.notification(/^Tool not run: Canceled/));
      assert.equal(analytics(), 0, `call ${round}: nothing sent`);
    }
  });

  it('after one Yes the kept figures answer the next calls: no dialog, no request', async () => {
    assert.equal(await call('get_mintlifyVisitors', { range: 'last90' }), 'dialog');
    await press('Yes');
    await expectVisible('the tool’s answer', wb.notification(/^Tool result: Visitors, last90/), TIMEOUTS.poll);
    const sent = analytics();
    assert.ok(sent > 0, 'the fetch the writer said yes to');
    for (let round = 1; round <= 2; round++) {
      assert.equal(await call('get_mintlifyVisitors', { range: 'last90' }), 'answer', `call ${round}: no dialog`);
      await expectVisible('the kept figures', wb.notification(/^Tool result: Visitors, last90 .*no request was sent/));
      assert.equal(analytics(), sent, `call ${round}: no request`);
    }
  });

  it('the fetch tool, called twice in a row, fetches once after Yes and answers the second call from what it kept', async () => {
    session!.sim.clearRequests();
    assert.equal(await call('fetch_mintlifyReaderSignals', {}), 'dialog');
    assert.match((await dialog().textContent()) ?? '', /Fetch reader signals\?/);
    await press('Yes');
    await expectVisible('the fetch’s answer', wb.notification(/^Tool result: Fetched the reader signals/), TIMEOUTS.poll);
    const sent = analytics();
    assert.ok(sent > 0);
    assert.equal(await call('fetch_mintlifyReaderSignals', {}), 'answer', 'no dialog: nothing to send');
    await expectVisible('the kept snapshot’s answer', wb.notification(/^Tool result: Nothing was fetched: the reader signals kept were fetched \d+ min ago/));
    assert.equal(analytics(), sent, 'the second call sent nothing');
  });
});
