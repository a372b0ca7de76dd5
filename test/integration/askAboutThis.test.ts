// "Ask the Agent About This…" in the real editor: the exact prompt that reaches the simulator.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { MAX_SELECTION_CHARS } from '../../src/agent/agentPrompt';
import type { Simulator } from '../simulator/server';
import { leaveWindowClean, PROJECT, requestsTo, ScriptedUser, seam, setProject, waitFor, withSimulator, signIn } from './support';

const SEND = 'Choose Where to Send…';

describe('Ask the Agent About This', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let root: vscode.Uri;

  /** Opens a workspace file and selects lines `from`..`to` (1-based, whole lines). */
  async function select(relative: string, from: number, to: number): Promise<vscode.TextEditor> {
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(root, relative), { preview: false, viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(from - 1, 0, to - 1, editor.document.lineAt(to - 1).text.length);
    return editor;
  }

  /** The user types `instruction`, reads the preview, sends it to `target`. Returns the previewed text. */
  function answer(instruction: string, target: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined): { previewed: string } {
    const seen = { previewed: '' };
    user.type(instruction);
    user.answerMessage = (m) => {
      if (!m.actions.includes(SEND)) return undefined;
      seen.previewed = vscode.window.activeTextEditor?.document.getText() ?? '';
      return SEND;
    };
    user.pick(target);
    return seen;
  }

  before(async () => {
    s = await seam();
    sim = await withSimulator({ jobDurationMs: 60_000 });
    root = vscode.workspace.workspaceFolders![0].uri;
    await setProject(PROJECT);
    await signIn(s);
  });
  after(async () => {
    await leaveWindowClean(s);
    await sim.close();
  });
  beforeEach(() => {
    user = new ScriptedUser(s.ui);
    sim.requests.length = 0;
  });
  afterEach(() => user.restore());

  it('sends the instruction, the page and the selected lines as a new job, exactly as previewed', async () => {
    const editor = await select('docs/quickstart.mdx', 5, 5);
    const selected = editor.document.lineAt(4).text;
    const seen = answer('Make this friendlier', (items) => items.find((i) => i.label.includes('New job')));
    await vscode.commands.executeCommand('mintlifyAgent.askAboutThis');
    const expected = `Make this friendlier\n\n=== About this page ===\nSite path: /quickstart\nFile in the repository: docs/quickstart.mdx\n=== Selected text (line 5) ===\n${selected}\n=== End ===`;
    assert.equal(seen.previewed, expected, 'the preview shows exactly what is sent');
    const posts = await waitFor('the create', () => requestsTo(sim, 'POST', '/job').at(0) && requestsTo(sim, 'POST', '/job'));
    assert.deepEqual(
      posts.map((r) => r.body),
      [{ prompt: expected }],
    );
    await waitFor('the job tracked', () => s.jobs.all().find((t) => t.prompts[0]?.text === expected));
    assert.ok(
      !vscode.workspace.textDocuments.some(
        (d) => d.isUntitled && d.getText() === expected && !d.isClosed && vscode.window.visibleTextEditors.some((e) => e.document === d),
      ),
      'the preview is closed after sending',
    );
  });

  it('sends an edited preview as a follow-up to the picked job; the pick marks the active job', async () => {
    const job = sim.addJob(PROJECT, { status: 'completed', prompt: 'Earlier work' });
    await s.tracker.track(job.id);
    await select('docs/guides/webhooks.md', 1, 3);
    let shown: readonly vscode.QuickPickItem[] = [];
    user.type('Link this to the API reference');
    user.answerMessage = async (m) => {
      if (!m.actions.includes(SEND)) return undefined;
      // The user edits the preview before sending: what is sent is the edited text.
      const preview = vscode.window.activeTextEditor!;
      assert.ok(preview.document.isUntitled, 'the preview is the active editor');
      await preview.edit((e) => e.insert(new vscode.Position(0, 0), 'Please: '));
      return SEND;
    };
    user.pick((items) => {
      shown = items;
      return items.find((i) => (i as { jobId?: string }).jobId === job.id);
    });
    await vscode.commands.executeCommand('mintlifyAgent.askAboutThis');
    const posts = await waitFor(
      'the follow-up',
      () => requestsTo(sim, 'POST', `/job/${job.id}/message`).at(0) && requestsTo(sim, 'POST', `/job/${job.id}/message`),
    );
    const prompt = (posts[0].body as { prompt: string }).prompt;
    assert.match(
      prompt,
      /^Please: Link this to the API reference\n\n=== About this page ===\nSite path: \/guides\/webhooks\nFile in the repository: docs\/guides\/webhooks\.md\n=== Selected text \(lines 1-3\) ===\n/,
    );
    const active = shown.filter((i) => i.description?.includes('still working'));
    assert.ok(active.length >= 1 && active.every((i) => i.label.startsWith('$(sync~spin)')), 'active jobs are marked');
    assert.ok(
      shown.some((i) => (i as { jobId?: string }).jobId === job.id && i.description === 'completed'),
      'status shown for each job',
    );
    assert.equal(requestsTo(sim, 'POST', '/job').length, 0, 'no new job');
  });

  it(`cuts a selection longer than ${MAX_SELECTION_CHARS} characters and says so`, async () => {
    const long = await vscode.workspace.openTextDocument({ language: 'markdown', content: `${'A long paragraph. '.repeat(400)}\n` });
    const editor = await vscode.window.showTextDocument(long, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    const seen = answer('Shorten this', (items) => items.find((i) => i.label.includes('New job')));
    await vscode.commands.executeCommand('mintlifyAgent.askAboutThis');
    const posts = await waitFor('the create', () => requestsTo(sim, 'POST', '/job').at(0) && requestsTo(sim, 'POST', '/job'));
    const prompt = (posts[0].body as { prompt: string }).prompt;
    assert.equal(prompt, seen.previewed);
    assert.ok(prompt.endsWith(`${'A long paragraph. '.repeat(400).slice(0, MAX_SELECTION_CHARS)}\n(selection shortened)\n=== End ===`), prompt.slice(-200));
    assert.match(prompt, /=== Selected text \(line 1\) ===/);
  });

  it('a file outside the docs root still works: its repository path, no site path', async () => {
    const outside = vscode.Uri.joinPath(root, 'notes', 'outside.md');
    await vscode.workspace.fs.writeFile(outside, new TextEncoder().encode('# Team notes\n\nNot a docs page.\n'));
    try {
      await select('notes/outside.md', 3, 3);
      const seen = answer('Turn this into a docs page', (items) => items.find((i) => i.label.includes('New job')));
      await vscode.commands.executeCommand('mintlifyAgent.askAboutThis');
      const posts = await waitFor('the create', () => requestsTo(sim, 'POST', '/job').at(0) && requestsTo(sim, 'POST', '/job'));
      const expected =
        'Turn this into a docs page\n\n=== About this page ===\nFile in the repository: notes/outside.md\n=== Selected text (line 3) ===\nNot a docs page.\n=== End ===';
      assert.equal(seen.previewed, expected);
      assert.deepEqual(
        posts.map((r) => r.body),
        [{ prompt: expected }],
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, 'notes'), { recursive: true });
    }
  });

  it('sends after the writer went back to their own file: only the preview closes, their file stays open with its unsaved edit', async () => {
    const own = vscode.Uri.joinPath(root, 'notes', 'own.md');
    await vscode.workspace.fs.writeFile(own, new TextEncoder().encode('# My notes\n\nWork in progress.\n'));
    const focusOwn = () => vscode.window.showTextDocument(own, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    let refocus: vscode.Disposable | undefined;
    try {
      const mine = await focusOwn();
      await mine.edit((e) => e.insert(new vscode.Position(2, 0), 'Unsaved line.\n'));
      const typed = mine.document.getText();
      await select('docs/quickstart.mdx', 5, 5);
      user.type('Make this friendlier');
      user.pick((items) => items.find((i) => i.label.includes('New job')));
      user.answerMessage = async (m) => {
        if (!m.actions.includes(SEND)) return undefined;
        // The writer clicks back into their own file before sending, and again whenever the preview takes the focus.
        await focusOwn();
        refocus = vscode.window.onDidChangeActiveTextEditor((editor) => {
          if (editor?.document.isUntitled) vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup').then(undefined, () => undefined);
        });
        return SEND;
      };
      await vscode.commands.executeCommand('mintlifyAgent.askAboutThis');
      await waitFor('the create', () => requestsTo(sim, 'POST', '/job').at(0));
      const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined));
      assert.ok(
        tabs().some((uri) => uri?.toString() === own.toString()),
        "the writer's file is still open",
      );
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === own.toString());
      assert.equal(doc?.getText(), typed, "the writer's unsaved edit is kept");
      assert.ok(!tabs().some((uri) => uri?.scheme === 'untitled'), 'the preview is closed');
      assert.equal(requestsTo(sim, 'POST', '/job').length, 1);
    } finally {
      refocus?.dispose();
      const doc = await vscode.workspace.openTextDocument(own);
      if (doc.isDirty) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(own, new vscode.Range(0, 0, doc.lineCount, 0), '');
        await vscode.workspace.applyEdit(edit);
        await doc.save();
      }
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, 'notes'), { recursive: true });
    }
  });

  it('refuses an empty instruction in the box and sends nothing', async () => {
    await select('docs/quickstart.mdx', 1, 1);
    let validate: vscode.InputBoxOptions['validateInput'];
    user.type((options) => {
      validate = options.validateInput?.bind(options);
      return undefined; // Escape after seeing the refusal
    });
    await vscode.commands.executeCommand('mintlifyAgent.askAboutThis');
    assert.equal(await validate?.('   '), 'Type an instruction for the agent; an empty prompt cannot be sent.');
    assert.deepEqual(
      sim.requests.filter((r) => r.method === 'POST'),
      [],
      'nothing sent',
    );
  });
});
