// Readers' feedback on a code block, in the real VS Code host against the simulator (which serves
// code-snippet feedback on /quickstart's blocks, test/simulator/signals.ts CODE_FEEDBACK): opening
// the page shows the Problems entries on the block's lines, the CodeLens and the hover, with no
// request; editing the block moves its feedback to "no longer on this page" and undo brings it
// back; the Problems entries can be turned off, keeping the CodeLens; Ask the Agent to Fix It
// previews a prompt with the file, lines and quoted evidence, with its cost, and sends nothing
// before the preview's Send.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { quote } from '../../src/prompt/quotedEvidence';
import { evidenceBlock } from '../support/evidenceBlock';
import type { Simulator } from '../simulator/server';
import { CODE_FEEDBACK, FLAGGED_PAGE_LINES } from '../simulator/signals';
import {
  freshAnalyticsHour,
  leaveWindowClean,
  PROJECT,
  requestsTo,
  ScriptedUser,
  seam,
  setProject,
  setUserSetting,
  signIn,
  waitFor,
  withSimulator,
} from './support';

const PAGE = FLAGGED_PAGE_LINES.join('\r\n');
/** The install block's fence lines (0-based) in PAGE. */
const INSTALL = { start: 9, end: 12 };
const SNIPPET = ['```bash title="deploy-staging.sh"', 'acme deploy --prod', '```', '', '```bash title="deploy.sh"', 'acme deploy --prod', '```', ''].join('\n');

const SEND = 'Choose Where to Send…';
// Opening a docs page fetches its readers figure (visitors, src/readers): not ours.
const analytics = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/') && !r.rawPath.endsWith('/visitors'));
/** A Markdown source as it reads: our hover escapes every ASCII punctuation character. */
const unescaped = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('code-block feedback', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let page: vscode.Uri;
  let snippet: vscode.Uri;
  let original: Uint8Array;

  const readers = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Readers');
  const lenses = async (uri: vscode.Uri) => (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  const ours = (found: vscode.CodeLens[]) => found.filter((l) => /flagged this block|no longer on this page|Fix It|Editor's AI/.test(l.command?.title ?? ''));

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 10_000 });
    await signIn(s);
    await setProject(PROJECT);
    await freshAnalyticsHour(s);
    const root = vscode.workspace.workspaceFolders![0].uri;
    page = vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx');
    snippet = vscode.Uri.joinPath(root, 'docs', 'snippets', 'deploy.mdx');
    original = await vscode.workspace.fs.readFile(page);
    await vscode.workspace.fs.writeFile(page, new TextEncoder().encode(PAGE));
    await vscode.workspace.fs.writeFile(snippet, new TextEncoder().encode(SNIPPET));
    await s.signals.store.forget();
    await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    assert.ok(s.signals.store.current(), 'the reader signals are kept');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.writeFile(page, original);
    // The snippet file alone: its folder holds the fixture's own snippets (the agent branch deletes one).
    await vscode.workspace.fs.delete(snippet);
    await leaveWindowClean(s);
    await sim.close();
  });

  it("opening the page shows the Problems entries on the block's lines, the CodeLens and the hover, with no request", async () => {
    sim.clearRequests();
    await vscode.window.showTextDocument(page, { preview: false });
    const onPage = await waitFor('the Readers entries on the page', () => (readers(page).length === 2 ? readers(page) : undefined));
    const block = onPage.find((d) => d.range.start.line === INSTALL.start);
    assert.ok(block, `an entry on the install block's lines: ${onPage.map((d) => `${d.range.start.line}: ${d.message}`).join(' | ')}`);
    assert.equal(block.range.end.line, INSTALL.end, 'from its opening fence to its closing one');
    assert.equal(block.severity, vscode.DiagnosticSeverity.Warning, '3 readers: a Warning');
    assert.ok(block.message.startsWith('3 readers flagged this code block (last 30 days): “'), block.message);
    assert.ok(block.message.endsWith(`“${CODE_FEEDBACK.install.comments[0]}”`), 'the newest comment quoted');
    const gone = onPage.find((d) => d.range.start.line === 0);
    assert.ok(
      gone?.message.startsWith('1 reader’s feedback (last 30 days) is about a code block that is no longer on this page: “--legacy was removed in v2.”'),
      gone?.message,
    );
    assert.equal(gone?.severity, vscode.DiagnosticSeverity.Information);

    // The block of the imported snippet file, found there, on the twin named deploy.sh.
    const inSnippet = await waitFor('the entry in the snippet file', () => readers(snippet)[0]);
    assert.deepEqual([inSnippet.range.start.line, inSnippet.range.end.line, inSnippet.severity], [4, 6, vscode.DiagnosticSeverity.Information]);
    assert.ok(inSnippet.message.includes(CODE_FEEDBACK.deploy.comments[0]), inSnippet.message);

    const titles = ours(await lenses(page)).map((l) => [l.range.start.line, l.command?.title, l.command?.command]);
    assert.deepEqual(titles, [
      [0, '1 reader’s feedback is about a code block that is no longer on this page', ''],
      [INSTALL.start, '3 readers flagged this block', ''],
      [INSTALL.start, 'Ask the Agent to Fix It', 'mintlifyAgent.askAgentToFixBlock'],
      [INSTALL.start, "Fix with the Editor's AI", 'mintlifyAgent.fixBlockWithEditorAi'],
    ]);

    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', page, new vscode.Position(INSTALL.start + 1, 6))) ?? [];
    const md = hovers
      .flatMap((h) => h.contents)
      .find((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString && c.value.includes('feedback on this code block'));
    assert.ok(md, 'a hover on the block');
    assert.ok(!md.isTrusted && !md.supportHtml, 'nothing in it runs or renders HTML');
    const text = unescaped(md.value);
    for (const comment of CODE_FEEDBACK.install.comments.slice(0, 2)) assert.ok(text.includes(`> ${comment}`), `"${comment}" quoted`);
    assert.ok(
      text.includes('``` <img src=x onerror=alert(1)> **bold** [run](command:workbench.action.terminal.new) \\u202eswodniW no sliaf'),
      'the hostile comment shown as its text, on one line',
    );
    assert.ok(!/(^|[^\\])(<img|\]\(command:|```|\*\*bold)/.test(md.value), 'no tag, link, fence or emphasis left unescaped in the Markdown');
    assert.ok(!md.value.includes('\u202e'), 'no raw direction override');
    assert.ok(text.includes('· pending · from a reader'), "each comment's date, status and author");
    assert.deepEqual(
      analytics(sim).map((r) => r.rawPath),
      [],
      'all of it from the kept signals',
    );
  });

  it('editing the block moves its feedback to "no longer on this page"; undo brings it back; no request', async () => {
    sim.clearRequests();
    const editor = await vscode.window.showTextDocument(page, { preview: false });
    await editor.edit((edit) => edit.replace(new vscode.Range(INSTALL.start + 2, 4, INSTALL.start + 2, 14), 'acme signin'));
    const moved = await waitFor("the block's entry gone", () => (readers(page).length === 1 ? readers(page)[0] : undefined));
    assert.ok(moved.message.startsWith('4 readers’ feedback (last 30 days) is about a code block that is no longer on this page'), moved.message);
    assert.deepEqual(
      ours(await lenses(page)).map((l) => l.command?.title),
      ['4 readers’ feedback is about a code block that is no longer on this page'],
    );

    await vscode.commands.executeCommand('undo');
    await waitFor("the block's entry back", () => readers(page).find((d) => d.range.start.line === INSTALL.start && d.message.startsWith('3 readers')));
    assert.equal(readers(page).length, 2);
    assert.equal(analytics(sim).length, 0);
  });

  it('with the Problems entries turned off, keeps the CodeLens', async () => {
    try {
      await setUserSetting('codeFeedback.problems', false);
      await waitFor('no Readers entry', () => readers(page).length === 0 && readers(snippet).length === 0);
      assert.ok(
        ours(await lenses(page)).some((l) => l.command?.title === '3 readers flagged this block'),
        'the CodeLens stays',
      );
    } finally {
      await setUserSetting('codeFeedback.problems', undefined);
    }
    await waitFor('the entries back', () => readers(page).length === 2);
  });

  it('Ask the Agent to Fix It previews the file, lines and quoted evidence with its cost, and sends nothing before Send', async () => {
    const user = new ScriptedUser(s.ui);
    const seen = { previewed: '', message: '', postsBeforeSend: -1 };
    user.answerMessage = (shown) => {
      if (!shown.actions.includes(SEND)) return undefined;
      seen.previewed = vscode.window.activeTextEditor?.document.getText() ?? '';
      seen.message = shown.message;
      seen.postsBeforeSend = sim.requests.filter((r) => r.method === 'POST').length;
      return SEND;
    };
    user.pick((items) => items.find((i) => i.label.includes('New job')));
    sim.clearRequests();
    const lens = ours(await lenses(page)).find((l) => l.command?.title === 'Ask the Agent to Fix It');
    assert.ok(lens?.command);
    try {
      await vscode.commands.executeCommand(lens.command.command, ...((lens.command.arguments ?? []) as unknown[]));
    } finally {
      user.restore();
    }
    assert.equal(seen.postsBeforeSend, 0, "nothing sent before the preview's Send");
    assert.match(seen.message, /1 agent request of the project's hour \(\d+ of 100 used, \d+ left\)/, 'the cost is shown with the preview');
    const post = await waitFor('the create', () => requestsTo(sim, 'POST', '/job')[0]);
    const prompt = (post.body as { prompt: string }).prompt;
    assert.equal(prompt, seen.previewed, 'what was sent is what was previewed');
    const found = evidenceBlock(prompt);
    assert.ok(found.before.startsWith(`Fix the code block at lines ${INSTALL.start + 1}-${INSTALL.end + 1} of docs/quickstart.mdx`), found.before);
    assert.ok(!found.before.includes('Windows'), 'no reader text in the instruction');
    const evidence = found.lines.join('\n');
    assert.ok(evidence.includes(`File: "docs/quickstart.mdx", lines ${INSTALL.start + 1}-${INSTALL.end + 1}`), evidence);
    assert.ok(evidence.includes(quote('    npm i -g acme\n    acme login')), 'the block quoted');
    for (const comment of CODE_FEEDBACK.install.comments) assert.ok(evidence.includes(quote(comment)), `"${comment.slice(0, 20)}" quoted as data`);
    assert.ok(!prompt.includes('\u202e'), 'no raw direction override reaches the agent');
  });

  it("Fix with the Editor's AI puts the same evidence in the chat, unsent; without a chat it says it needs one", async () => {
    const real = s.codeFeedback.chat;
    const user = new ScriptedUser(s.ui);
    const opened: string[] = [];
    const lens = ours(await lenses(page)).find((l) => l.command?.title === "Fix with the Editor's AI");
    assert.ok(lens?.command);
    const click = () => vscode.commands.executeCommand(lens.command!.command, ...((lens.command!.arguments ?? []) as unknown[]));
    try {
      s.codeFeedback.chat = { open: async (prompt) => (opened.push(prompt), true) };
      sim.clearRequests();
      await click();
      assert.equal(opened.length, 1, 'the chat opened once');
      const found = evidenceBlock(opened[0] ?? '');
      const agent = evidenceBlock((await s.codeFeedback.promptFor(page, INSTALL.start)) ?? '');
      assert.equal(found.before.replaceAll(found.markers.nonce, 'N'), agent.before.replaceAll(agent.markers.nonce, 'N'), 'the same instruction and note');
      assert.deepEqual(found.lines, agent.lines, 'the same evidence as Ask the Agent to Fix It');
      assert.equal(sim.requests.length, 0, 'nothing sent to the API');
      assert.equal(user.messages.length, 0);

      s.codeFeedback.chat = { open: async () => false };
      await click();
      assert.deepEqual(
        user.messages.map((m) => m.message),
        [
          "Fix with the Editor's AI needs a chat in the editor (GitHub Copilot Chat, for example), and this editor has none. Ask the Agent to Fix It works without one.",
        ],
      );
    } finally {
      s.codeFeedback.chat = real;
      user.restore();
    }
  });
});
