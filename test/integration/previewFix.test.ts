// A failed preview's build, in the real VS Code with the simulator: its log stays out of the shared
// state (every window rewrites and re-reads that), yet every window shows it and quotes it, and a
// line cut in the quote says how much of what the platform sent it leaves out; Ask the Agent to Fix
// the Build is sent once per build, from the failure notice and the row at once, or from two windows.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createApiClient } from '../../src/api';
import type { Logger } from '../../src/log';
import { askToFixBuild, type FixBuildSent } from '../../src/preview/askToFixBuild';
import { BuildFixes } from '../../src/preview/buildFixes';
import { BuildLogs } from '../../src/preview/buildLogs';
import { PreviewModel } from '../../src/preview/previewModel';
import type { SharedPreview } from '../../src/preview/previewRecord';
import { fileOf } from '../../src/sync/sharedStore';
import { WindowSync } from '../../src/sync/windowSync';
import type { Simulator } from '../simulator/server';
import type { TestSeam } from '../support/extensionUnderTest';
import { git, pushBranch, writeFile } from '../support/gitRepo';
import { KEY, leaveWindowClean, PROJECT, requestsTo, ScriptedUser, seam, setProject, signIn, stepsBuildOnEachOther, waitFor, withSimulator } from './support';

const BRANCH = 'mintlify/agent-preview-fix';
const LONG = `error: ${'x'.repeat(20_020)}`;
const LOGS = [...Array.from({ length: 240 }, (_, i) => `step ${i}: building`), 'error: quickstart.mdx:5:1: Expected a closing tag for <Note>', LONG];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, scoped: () => quiet } as unknown as Logger;
const memento: vscode.Memento = { get: () => undefined, update: () => Promise.resolve(), keys: () => [] };
/** The fix's question beside its preview (not the notice of a job that finished, which offers Send Follow-up too). */
const isFixQuestion = (m: { message: string; actions: string[] }) =>
  m.actions.includes('Send Follow-up') && m.message.includes('The preview is exactly what the agent will get');

describe("a failed preview's build: its log kept apart, and one fix of it sent", function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let jobId: string;
  const messagePosts = () => requestsTo(sim, 'POST', `/job/${jobId}/message`);
  const row = () => (s.tree.getChildren() ?? []).map((n) => s.tree.getTreeItem(n)).find((i) => i.id === `job:${jobId}`);
  const logsDir = () => vscode.Uri.joinPath(s.sync.dir, '..', 'previewLogs');

  /**
   * Closes another window and waits until this one has taken in its file and removed it: what the
   * suite deletes at its end would otherwise come back from that file, into the next suite's jobs.
   */
  async function close(other: WindowSync, model: PreviewModel): Promise<void> {
    model.dispose();
    other.dispose();
    await waitFor("the other window's file taken in and removed", () => !existsSync(join(s.sync.dir.fsPath, fileOf(other.windowId))));
  }

  /** Deploys the branch (its build fails) and waits for the row to say so: the new deployment's record. */
  async function failedBuild(): Promise<SharedPreview> {
    const before = s.preview.model.get(jobId)?.statusId;
    user.answerMessage = (m) => (m.actions.includes('Deploy Preview') ? 'Deploy Preview' : undefined);
    await vscode.commands.executeCommand('mintlifyAgent.previewBranch', jobId);
    return waitFor(
      `a new failed build (the row says ${String(row()?.description)})`,
      () => {
        const preview = s.preview.model.get(jobId);
        return preview && preview.statusId !== before && preview.status === 'failure' ? preview : undefined;
      },
      60_000,
    );
  }

  before(async () => {
    s = await seam();
    sim = await withSimulator({ previews: { queuedMs: 200, buildMs: 500 } });
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const origin = git(root, 'remote', 'get-url', 'origin');
    await setProject(PROJECT);
    await signIn(s);
    pushBranch({ url: origin }, BRANCH, (clone) => writeFile(clone, 'docs/quickstart.mdx', '---\ntitle: Quickstart\n---\n\n<Note>Install the CLI first.\n'));
    jobId = sim.addJob(PROJECT, { status: 'completed', prompt: 'Rewrite the quickstart', source: { repository: origin, ref: BRANCH }, activeForMs: 500 }).id;
    await s.tracker.track(jobId);
    sim.previews.setOutcome(BRANCH, { status: 'failure', summary: 'The build failed: 1 page could not be parsed', logs: LOGS });
  });
  after(async () => {
    await s.sync.update((state) => {
      delete state.previews[PROJECT];
      delete state.buildFixes[PROJECT];
    });
    await leaveWindowClean(s);
    await sim.close();
  });
  stepsBuildOnEachOther(
    () => s,
    (next) => (user = next),
  );

  it('keeps the log out of the shared state; the follow-up counts what it leaves out from what the platform sent', async () => {
    const preview = await failedBuild();
    const shared = s.sync.state.previews[PROJECT]?.[jobId]?.v;
    assert.equal(shared?.status, 'failure');
    assert.equal(shared?.logs, undefined, 'no log in the shared state');
    await s.sync.store.write();
    const file = readFileSync(join(s.sync.dir.fsPath, fileOf(s.sync.windowId)), 'utf8');
    assert.ok(!file.includes('step 17: building') && !file.includes('x'.repeat(300)), "this window's shared file holds no log");

    let previewText = '';
    user.answerMessage = async (m) => {
      if (!isFixQuestion(m)) return undefined;
      assert.match(m.message, /The build log is quoted from its last 60 lines \(182 earlier ones left out\)\./);
      const editor = await waitFor('the prompt to be the active editor', () =>
        vscode.window.activeTextEditor?.document.getText().startsWith('The preview deployment') ? vscode.window.activeTextEditor : undefined,
      );
      previewText = editor.document.getText();
      return 'Send Follow-up';
    };
    const before = messagePosts().length;
    const result = await vscode.commands.executeCommand<FixBuildSent | undefined>('mintlifyAgent.askToFixBuild', jobId);
    assert.ok(result?.sent?.sent, JSON.stringify(user.messages.map((m) => m.message)));
    assert.equal(messagePosts().length, before + 1);
    const prompt = (messagePosts().at(-1)!.body as { prompt: string }).prompt;
    assert.equal(prompt, previewText);
    assert.match(prompt, /Log \(60 of 242 lines, the first 182 not included\):/);
    assert.match(prompt, /- "error: x{293}" \(19727 more characters not included\)/, 'the 20,027-character line: 300 quoted, 19,727 left out');
    assert.match(prompt, /Summary: "The build failed: 1 page could not be parsed"/);
    assert.equal(preview.statusId, s.preview.model.get(jobId)?.statusId);
  });

  it('shows the log in every window, Show Build Log saying what it does not keep', async () => {
    // Another window of the profile, which never read the status: the log is on this machine, beside the shared folder.
    const other = new WindowSync(s.sync.dir, quiet, memento);
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY });
    const model = new PreviewModel(
      other,
      api,
      () => PROJECT,
      quiet,
      () => 5_000,
      new BuildLogs(logsDir(), quiet),
    );
    const statusReads = () => sim.requests.filter((r) => r.rawPath.startsWith('/v1/project/update-status/')).length;
    const sent = statusReads();
    try {
      await other.ready;
      await waitFor('the other window to read the failed preview', () => model.get(jobId)?.status === 'failure');
      const read = await model.logOf(jobId);
      assert.ok(read && 'log' in read, JSON.stringify(read));
      assert.equal(read.log.total, LOGS.length);
      assert.deepEqual(read.log.lines.at(-2), LOGS.at(-2));
      assert.equal(read.log.lengths.at(-1), LONG.length);
      assert.equal(statusReads(), sent, 'read from this machine, not the platform');
    } finally {
      await close(other, model);
    }
    await vscode.commands.executeCommand('mintlifyAgent.showPreviewLog', jobId);
    const shown = await waitFor('the build log open', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'mintlify-preview-log'));
    const text = shown.getText();
    assert.match(text, /^Preview of mintlify\/agent-preview-fix: failure\nSummary: The build failed: 1 page could not be parsed/);
    assert.match(text, /\(the first 42 of its 242 lines are not kept\)/);
    assert.match(text, /x… \(19027 more characters not kept\)$/);
  });

  it('a build whose log this machine does not keep has it read again from the platform, once', async () => {
    await vscode.workspace.fs.delete(logsDir(), { recursive: true });
    const before = requestsTo(sim, 'GET', `/v1/project/update-status/${s.preview.model.get(jobId)!.statusId}`).length;
    const [a, b] = await Promise.all([s.preview.model.logOf(jobId), s.preview.model.logOf(jobId)]);
    assert.ok(a && 'log' in a && b && 'log' in b);
    assert.equal(a.log.total, LOGS.length);
    assert.equal(requestsTo(sim, 'GET', `/v1/project/update-status/${s.preview.model.get(jobId)!.statusId}`).length, before + 1, 'one status read for both');
  });

  it('asking again to fix a build already fixed says so first; from the notice and the row at once, and from two windows, the fix is sent once', async () => {
    // The fix of this build went in the first step.
    user.answerMessage = () => undefined;
    const before = messagePosts().length;
    assert.equal(await vscode.commands.executeCommand('mintlifyAgent.askToFixBuild', jobId), undefined);
    assert.match(user.messages[0]?.message ?? '', /The agent was already asked to fix this build of “.*” at \d\d?:\d\d( [AP]M)?\. Send it again\?/);
    assert.equal(messagePosts().length, before, 'nothing sent');

    // A new failed build: its notice's button and its row's, clicked at once.
    await failedBuild();
    user.messages.length = 0;
    user.answerMessage = (m) => (isFixQuestion(m) ? 'Send Follow-up' : undefined);
    const once = await Promise.all([
      vscode.commands.executeCommand<FixBuildSent | undefined>('mintlifyAgent.askToFixBuild', jobId),
      vscode.commands.executeCommand<FixBuildSent | undefined>('mintlifyAgent.askToFixBuild', jobId),
    ]);
    assert.equal(messagePosts().length, before + 1, `one request; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
    assert.equal(once.filter((r) => r?.sent?.sent).length, 1);
    assert.ok(user.messages.some((m) => /already being asked for from this window/.test(m.message)));

    // Two windows, the writer saying "send it again" in both at once: one request.
    const other = new WindowSync(s.sync.dir, quiet, memento);
    other.lease.setProject(PROJECT);
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY });
    const model = new PreviewModel(
      other,
      api,
      () => PROJECT,
      quiet,
      () => 5_000,
      new BuildLogs(logsDir(), quiet),
    );
    const fixes = new BuildFixes(other, () => PROJECT);
    try {
      await other.ready;
      await waitFor(
        'each window to see the other',
        () => s.sync.lease.peersOn(PROJECT).some((p) => p.window === other.windowId) && other.lease.peersOn(PROJECT).length > 0,
      );
      await waitFor('the other window to see the fix sent', () => fixes.sentFor(jobId, model.get(jobId)?.statusId ?? '') !== undefined);
      user.messages.length = 0;
      user.answerMessage = (m) =>
        isFixQuestion(m) ? 'Send Follow-up' : m.actions.includes('Send Again') && /fix this build/.test(m.message) ? 'Send Again' : undefined;
      const [here, there] = await Promise.all([
        vscode.commands.executeCommand<FixBuildSent | undefined>('mintlifyAgent.askToFixBuild', jobId),
        askToFixBuild({ jobs: s.jobs, ui: s.ui, ledger: s.sync.ledger, logOf: (id) => model.logOf(id), fixes, log: quiet }, jobId, model.get(jobId)!),
      ]);
      assert.equal(messagePosts().length, before + 2, `one more request; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
      assert.equal([here, there].filter((r) => r?.sent?.sent).length, 1, 'one window sent it');
      assert.ok(
        user.messages.some((m) =>
          /Nothing was sent: the fix of the build of “.*” is being sent from another window|was sent from another window meanwhile/.test(m.message),
        ),
        JSON.stringify(user.messages.map((m) => m.message)),
      );
    } finally {
      await close(other, model);
    }
  });
});
