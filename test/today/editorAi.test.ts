// What only today's VS Code has, with the extension installed from the packaged .vsix: the docs
// site's search MCP server listed in VS Code's own MCP list (MCP server definition providers, 1.101+),
// and the AI opt-out (chat.disableAIFeatures, 1.104+). With the opt-out on, nothing of ours offers
// the editor's AI: a chat can no longer run our language model tools (the harness extension
// test/fixtures/lm-tool-invoker calls one as agent mode does), Fix This
// Code Block with the Editor's AI leaves the palette; the Mintlify agent's commands stay. Off again:
// all back, in the same window (no reload), the MCP server listed again.
import { DEMO_API_KEY } from '../simulator/demo';
import { waitFor } from '../support/waitFor';
import { TOOL_INVOKER, ToolInvoker } from '../ui/toolInvoker';
import { PROJECT, stepsBuildOnEachOther, UiSession, screenshotOnFailure } from '../ui/uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from '../ui/workbench';

/** An address nothing here can reach: listing the server must not need it. */
const SITE = 'https://docs.example.com';
const SERVER_LABEL = 'Mintlify docs search: docs.example.com';
const FIX_WITH_EDITOR_AI = "Mintlify: Fix This Code Block with the Editor's AI";
const ASK_THE_AGENT = 'Mintlify: Ask the Agent to Fix This Code Block';
/** A tool that answers from what the extension tracks: no request. */
const TOOL = 'get_mintlifyAgentJobs';

describe("today's VS Code: the docs site's search server and the AI opt-out (UI)", function () {
  this.timeout(3 * 60_000);
  let session: UiSession | undefined;
  let wb: Workbench;

  stepsBuildOnEachOther();

  before(async function () {
    this.timeout(8 * 60_000); // the first run installs code-server
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`), { 'mintlifyAgent.docsSiteUrl': SITE }, [TOOL_INVOKER]);
    wb = session.workbench;
    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.setProjectId(PROJECT);
    // Marks this page: a reload would lose the mark.
    await wb.page.evaluate(() => ((window as unknown as { mintlifyNotReloaded?: boolean }).mintlifyNotReloaded = true));
  });

  screenshotOnFailure('today-editor-ai', () => wb);
  const invoker = new ToolInvoker(
    () => wb,
    () => session!.userDataDir,
  );

  after(async () => {
    await session?.stop();
  });

  /** Chat: Disable AI Features, ticked or cleared in the Settings editor as a person does (VS Code applies it live). */
  async function setAiFeaturesOff(off: boolean): Promise<void> {
    const search = wb.page.locator('.settings-editor .settings-header .suggest-input-container');
    await wb.runCommand('Preferences: Open Settings (UI)', { then: search, shows: 'the Settings editor' });
    await search.click({ timeout: TIMEOUTS.ui });
    await wb.page.keyboard.press('Control+A');
    await wb.page.keyboard.type('chat.disableAIFeatures');
    const box = wb.page.locator('.settings-editor .setting-item-bool').filter({ hasText: 'Disable AI Features' }).first().locator('.setting-value-checkbox');
    await expectVisible('the Disable AI Features setting', box);
    if ((await box.getAttribute('aria-checked')) !== String(off)) await box.click({ timeout: TIMEOUTS.ui });
    await waitFor(
      () => `Disable AI Features ${off ? 'ticked' : 'cleared'}`,
      async () => (await box.getAttribute('aria-checked')) === String(off),
      TIMEOUTS.ui,
    );
    await wb.closeAllEditors();
  }

  async function escape(): Promise<void> {
    await wb.page.keyboard.press('Escape');
    await wb.quickInput.waitFor({ state: 'hidden', timeout: TIMEOUTS.ui });
  }

  /** MCP: List Servers: whether it lists the docs site's server. */
  async function expectServerListed(): Promise<void> {
    const row = wb.quickInput.locator('.monaco-list-row').filter({ hasText: SERVER_LABEL });
    await wb.runCommand('MCP: List Servers', { then: row, shows: `"${SERVER_LABEL}" in MCP: List Servers` });
    await escape();
  }

  /**
   * A chat's call of our tool (the harness calls vscode.lm.invokeTool as agent mode does): whether it
   * runs. VS Code's list of tools (vscode.lm.tools) keeps naming every contributed tool, its own too,
   * with the opt-out on; what the editor's AI can no longer do is run ours.
   */
  async function expectToolRuns(runs: boolean): Promise<void> {
    await invoker.invoke(TOOL, {});
    const answer = await invoker.answer();
    if (runs ? !answer.startsWith('Tool result:') : !answer.startsWith('Tool not run:'))
      throw new Error(`${TOOL} ${runs ? 'should run' : 'should not run'} for a chat; the harness got: ${answer.slice(0, 300)}`);
  }

  /** The palette filtered by "Code Block": the agent's action always, the editor's AI's as `offered` says. */
  async function expectFixWithEditorAiInPalette(offered: boolean): Promise<void> {
    const row = await wb.paletteFilteredBy('Code Block');
    await expectVisible(`"${ASK_THE_AGENT}" in the command palette`, row(ASK_THE_AGENT));
    if (offered) await expectVisible(`"${FIX_WITH_EDITOR_AI}" in the command palette`, row(FIX_WITH_EDITOR_AI));
    else
      await waitFor(
        () => `"${FIX_WITH_EDITOR_AI}" gone from the command palette`,
        async () => (await row(FIX_WITH_EDITOR_AI).count()) === 0,
        TIMEOUTS.ui,
      );
    await escape();
  }

  it("lists the docs site's search server in MCP: List Servers", async () => {
    await expectServerListed();
    await expectToolRuns(true);
    await expectFixWithEditorAiInPalette(true);
  });

  it("with the editor's AI turned off: no tool of ours, no Fix with the Editor's AI; the agent stays", async () => {
    await setAiFeaturesOff(true);
    await expectFixWithEditorAiInPalette(false);
    await expectToolRuns(false);
  });

  it('turned on again: the tools, the action and the server are back, without a reload', async () => {
    await setAiFeaturesOff(false);
    await expectFixWithEditorAiInPalette(true);
    await expectToolRuns(true);
    await expectServerListed();
    const sameWindow = await wb.page.evaluate(() => (window as unknown as { mintlifyNotReloaded?: boolean }).mintlifyNotReloaded === true);
    if (!sameWindow) throw new Error('the window was reloaded');
  });
});
