// Reader signals in the real VS Code host against the simulator: the snapshot's cost and a reload
// that costs nothing, the page's health in the status-bar tooltip, the inbox's groups and ranks,
// "Ask the Agent to Address This" with the prompt checked where it lands (the simulator), and
// "Did it help?" on a page with enough votes and one without.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { comparisonWindows } from '../../src/signals/didItHelp';
import { MAX_ITEMS, quote } from '../../src/prompt/quotedEvidence';
import { evidenceBlock } from '../support/evidenceBlock';
import { SignalsStore } from '../../src/signals/signalsStore';
import type { SignalNode } from '../../src/signals/signalsTree';
import { minimumRequests, SEARCH_PAGES, VIEW_PAGES } from '../../src/signals/snapshot';
import type { Simulator } from '../simulator/server';
import { HOSTILE_TEXTS } from '../simulator/signals';
import { freshAnalyticsHour, PROJECT, ScriptedUser, seam, setProject, signIn, tooltipText, waitFor, withSimulator } from './support';

const analytics = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/') && !r.rawPath.endsWith('/visitors'));
const fmt = (n: number) => n.toLocaleString('en-US');

describe('reader signals', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: vscode.Uri;
  let range: { dateFrom: string; dateTo: string };

  before(async () => {
    s = await seam();
    // More feedback than the default, so /quickstart has enough votes for "Did it help?".
    sim = await withSimulator({ analyticsLimitPerHour: 10_000, pathCount: 800, signals: { feedbackItems: 6_000, assistantTurns: 3_000, searchTerms: 600 } });
    await signIn(s);
    await setProject(PROJECT);
    root = vscode.workspace.workspaceFolders![0].uri;
    await s.signals.store.forget();
    sim.clearRequests();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sim.close();
  });

  it('fetches a snapshot with the documented number of requests; a reload reads it back with none', async () => {
    await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    const snapshot = s.signals.store.current();
    assert.ok(snapshot, 'a snapshot is kept');
    range = snapshot.range;
    const truth = sim.signalsFor(PROJECT, range);
    const expected = minimumRequests({
      pending: truth.feedback.filter((f) => f.status === 'pending').length,
      turns: truth.assistant.length,
      searches: Math.min(truth.searches.length, SEARCH_PAGES * 100),
      views: Math.min(truth.views.views.length, VIEW_PAGES * 250),
    });
    assert.equal(analytics(sim).length, expected, 'one request per page of each endpoint, at the largest page sizes');
    assert.equal(snapshot.requests, expected);

    sim.clearRequests();
    // What a reloaded window (or another window) does: read the kept file.
    const reloaded = new SignalsStore({
      api: {} as never,
      projectId: () => PROJECT,
      storageDir: s.signals.store.storageDir,
      gate: s.gate,
      windowShare: () => 20,
      log: { info() {}, warn() {} } as never,
    });
    try {
      assert.deepEqual(await reloaded.load(), JSON.parse(JSON.stringify(snapshot)), 'the same snapshot, as kept');
      assert.equal(analytics(sim).length, 0, 'a reload sends nothing');
    } finally {
      reloaded.dispose();
    }
  });

  it('shows docs/quickstart.mdx health in the page tooltip as the simulator counts it, without a request', async () => {
    const truth = sim.signalsFor(PROJECT, range);
    sim.clearRequests();
    await vscode.window.showTextDocument(vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx'), { preview: false });
    const shown = await waitFor('the page tooltip with reader signals', async () => {
      const state = s.readers.statusBar.shown;
      return state?.page.sitePath === '/quickstart' && tooltipText(state.tooltip).includes('Reader signals') ? state : undefined;
    });
    const text = tooltipText(shown.tooltip);
    const views = truth.views.views.find((v) => v.path === '/quickstart');
    const votes = truth.byPage.find((r) => r.path === '/quickstart');
    assert.ok(views && votes);
    assert.ok(text.includes(`View events: ${fmt(views.human)} human, ${fmt(views.ai)} AI`), text);
    assert.ok(text.includes(`Feedback: ${fmt(votes.thumbsUp)} helpful, ${fmt(votes.thumbsDown)} not helpful · code snippet reports ${fmt(votes.code)}`), text);
    const pending = truth.feedback.filter((f) => f.path === '/quickstart' && f.status === 'pending' && f.comment);
    const onBlocks = pending.filter((f) => f.source === 'code_snippet').length;
    assert.ok(text.includes(`Pending comments: ${fmt(pending.length - onBlocks)}`), "the page's own comments");
    assert.ok(
      onBlocks > 0 && text.includes(`Feedback on code blocks: ${fmt(onBlocks)} (shown at the blocks in the editor)`),
      'code-block feedback counted apart',
    );
    assert.ok(text.includes(`> ${HOSTILE_TEXTS.injection}`), 'the newest comment, quoted as text');
    const unanswered = truth.assistant.filter((t) => t.resolutionStatus === 'unanswered' && t.pageUrl?.endsWith('/quickstart'));
    assert.ok(text.includes(`Unanswered assistant questions: ${fmt(unanswered.length)}`));
    const raw = typeof shown.tooltip === 'string' ? shown.tooltip : shown.tooltip.value;
    // Reader markup stays inert: the tooltip renders no HTML, and a Markdown link in reader text is escaped.
    assert.ok(typeof shown.tooltip !== 'string' && !shown.tooltip.supportHtml, 'the tooltip never renders HTML');
    assert.ok(!raw.includes('[click](command:'), 'a link in reader text is escaped, never a link');
    assert.equal(analytics(sim).length, 0, 'opening a page costs no signals request');
  });

  it('lists the three groups, ranked as documented', async () => {
    const truth = sim.signalsFor(PROJECT, range);
    const roots = s.signals.tree.getChildren();
    assert.deepEqual(
      roots.map((n) => (n.type === 'group' ? n.id : '')),
      ['pages', 'searches', 'questions'],
    );
    const [pages, searches, questions] = roots.map((n) => s.signals.tree.getChildren(n));
    // Pages: 👎 + pending comments (one on a code block counts twice), then view events.
    const comments = new Map<string, number>();
    for (const f of truth.feedback)
      if (f.status === 'pending' && f.comment) comments.set(f.path, (comments.get(f.path) ?? 0) + (f.source === 'code_snippet' ? 2 : 1));
    const down = new Map(truth.byPage.slice(0, 100).map((r) => [r.path, r.thumbsDown]));
    const views = new Map(truth.views.views.slice(0, VIEW_PAGES * 250).map((v) => [v.path, v.total]));
    const expectedPages = [...new Set([...[...down].filter(([, d]) => d > 0).map(([p]) => p), ...comments.keys()])]
      .map((p) => ({ p, score: (down.get(p) ?? 0) + (comments.get(p) ?? 0), readers: views.get(p) ?? 0 }))
      .sort((a, b) => b.score - a.score || b.readers - a.readers || (a.p < b.p ? -1 : 1))
      .map((x) => x.p);
    assert.deepEqual(
      pages?.map((n) => (n.type === 'page' ? n.signal.path : '')),
      expectedPages,
    );
    const expectedSearches = truth.searches
      .slice(0, SEARCH_PAGES * 100)
      .filter((x) => x.topClickedPage === null && x.hits >= 10)
      .map((x) => x.searchQuery);
    assert.deepEqual(
      searches?.map((n) => (n.type === 'search' ? n.signal.searchQuery : '')),
      expectedSearches,
    );
    assert.ok(expectedSearches.includes(HOSTILE_TEXTS.injection.toLowerCase()));
    const unanswered = truth.assistant.filter((t) => t.resolutionStatus === 'unanswered').length;
    assert.equal(
      questions?.reduce((n, g) => n + (g.type === 'questionGroup' ? g.group.questions.length : 0), 0),
      unanswered,
    );
    const sizes = questions?.map((g) => (g.type === 'questionGroup' ? g.group.questions.length : 0)) ?? [];
    assert.deepEqual(
      sizes,
      [...sizes].sort((a, b) => b - a),
      'biggest group first',
    );
    const searchItem = s.signals.tree.getTreeItem(searches[0]);
    assert.match(String(searchItem.description), /searches · no click/);
    assert.equal(searchItem.tooltip, undefined, 'drawing a row builds no tooltip');
    const top = truth.searches.find((x) => x.searchQuery === expectedSearches[0]);
    assert.ok(top && searches[0]);
    const searchTip = tooltipText(s.signals.tree.resolveTreeItem(searchItem, searches[0]).tooltip);
    assert.ok(searchTip.includes(`"${top.searchQuery}" was searched ${fmt(top.hits)} times and no result was clicked.`), searchTip);
    assert.ok(searchTip.includes('Ask the Agent to Address This'), searchTip);
  });

  it("builds a page's tooltip on hover (resolveTreeItem), not with its row: the simulator's figures and the page's status-bar evidence", async () => {
    const truth = sim.signalsFor(PROJECT, range);
    await vscode.window.showTextDocument(vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx'), { preview: false });
    const statusBar = await waitFor('the page tooltip with reader signals', async () => {
      const state = s.readers.statusBar.shown;
      return state?.page.sitePath === '/quickstart' && typeof state.tooltip !== 'string' && state.tooltip.value.includes('Reader signals')
        ? state.tooltip.value
        : undefined;
    });
    sim.clearRequests();
    const node = s.signals.tree.getChildren(s.signals.tree.getChildren()[0]).find((n) => n.type === 'page' && n.signal.path === '/quickstart');
    assert.ok(node, '/quickstart is in the inbox');
    const item = s.signals.tree.getTreeItem(node);
    assert.equal(item.tooltip, undefined, 'drawing the row builds no tooltip');
    const tooltip = s.signals.tree.resolveTreeItem(item, node).tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString, 'hovering gives the Markdown tooltip');
    assert.ok(!tooltip.supportHtml, 'the tooltip never renders HTML');
    assert.deepEqual(tooltip.isTrusted, { enabledCommands: ['mintlifyAgent.askToAddress'] }, 'only Ask the Agent to Address This may run from it');
    const text = tooltipText(tooltip);
    const views = truth.views.views.find((v) => v.path === '/quickstart');
    const votes = truth.byPage.find((r) => r.path === '/quickstart');
    assert.ok(views && votes);
    assert.ok(text.startsWith('**/quickstart**'), text);
    assert.ok(text.includes(`View events: ${fmt(views.human)} human, ${fmt(views.ai)} AI`), text);
    assert.ok(text.includes(`Feedback: ${fmt(votes.thumbsUp)} helpful, ${fmt(votes.thumbsDown)} not helpful · code snippet reports ${fmt(votes.code)}`), text);
    const pending = truth.feedback.filter((f) => f.path === '/quickstart' && f.status === 'pending' && f.comment && f.source !== 'code_snippet');
    assert.ok(text.includes(`Pending comments: ${fmt(pending.length)}`), text);
    assert.ok(text.includes(`> ${HOSTILE_TEXTS.injection}`), 'the newest comment, quoted as text');
    const unanswered = truth.assistant.filter((t) => t.resolutionStatus === 'unanswered' && t.pageUrl?.endsWith('/quickstart'));
    assert.ok(text.includes(`Unanswered assistant questions: ${fmt(unanswered.length)}`), text);
    const link = /\[Ask the Agent to Address This\]\(command:mintlifyAgent\.askToAddress\?([^)]*)\)/.exec(tooltip.value);
    assert.deepEqual(JSON.parse(decodeURIComponent(link?.[1] ?? '')), [{ kind: 'page', path: '/quickstart' }], 'the link asks about this page');
    // The same evidence as before this tooltip was built on hover: what the page's own status-bar tooltip shows.
    const evidence = tooltip.value.slice(tooltip.value.indexOf('**Reader signals**'));
    assert.ok(evidence.length > 0 && statusBar.includes(evidence), `the status bar shows the same evidence:\n${evidence}`);
    assert.equal(analytics(sim).length, 0, 'hovering sends nothing');
  });

  it('asks the agent to address /quickstart: the writer edits the previewed prompt, and the evidence arrives quoted, capped and apart from the instruction', async () => {
    const user = new ScriptedUser(s.ui);
    let suggestion = '';
    user.type((options) => (suggestion = options.value ?? ''));
    user.pick((items) => items[0]); // New job
    user.answerMessage = (shown) =>
      !shown.message.includes('exactly what the agent will get')
        ? undefined
        : (async () => {
            const editor = vscode.window.activeTextEditor;
            assert.ok(editor?.document.isUntitled, 'the prompt is open for editing');
            await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'Writer note: keep the tone. '));
            return 'Choose Where to Send…';
          })();
    sim.clearRequests();
    const pageNode = s.signals.tree
      .getChildren(s.signals.tree.getChildren()[0])
      .find((n) => n.type === 'page' && n.signal.path === '/quickstart') as SignalNode;
    assert.ok(pageNode, '/quickstart is in the inbox');
    try {
      await vscode.commands.executeCommand('mintlifyAgent.askToAddress', pageNode);
    } finally {
      user.restore();
    }
    const post = sim.requests.find((r) => r.method === 'POST' && r.rawPath.endsWith('/job'));
    assert.ok(post, 'a job was created');
    const prompt = (post.body as { prompt: string }).prompt;
    assert.ok(prompt.startsWith(`Writer note: keep the tone. ${suggestion}\n`), 'the instruction as the writer left it comes first');
    const block = evidenceBlock(prompt);
    const [instruction, evidence] = [block.before, block.lines.join('\n')];
    assert.equal(block.after, '', 'the block ends the prompt');
    assert.equal(prompt.split(block.markers.end).length, 2, 'only its own end marker ends it: the forged ones are quoted inside');
    assert.ok(evidence.includes(quote(HOSTILE_TEXTS.forgedEnd)) && evidence.includes(quote(HOSTILE_TEXTS.forgedNonce)));
    assert.ok(!instruction.includes('Ignore previous instructions'), 'reader text never enters the instruction');
    assert.ok(evidence.includes(`- ${quote(HOSTILE_TEXTS.injection)}`), 'the injected comment is quoted as data');
    assert.ok(!evidence.includes('\u202e'));
    assert.match(evidence, /\(\d+ more not included\)/);
    assert.match(evidence, /more characters not included/);
    assert.ok(evidence.split('\n').filter((l) => l.startsWith('- ')).length <= 3 * MAX_ITEMS);
    assert.ok(evidence.includes('"docs/quickstart.mdx"'), 'the page file is named');
    const item = await waitFor('the signal shows its job', () => {
      const node = s.signals.tree.getChildren(s.signals.tree.getChildren()[0]).find((n) => n.type === 'page' && n.signal.path === '/quickstart');
      const description = node && String(s.signals.tree.getTreeItem(node).description);
      return description?.includes('job active') ? description : undefined;
    });
    assert.match(item, /job active/);
    const jobId = s.signals.links.jobFor(PROJECT, 'page:/quickstart')?.jobId;
    assert.ok(jobId);
    const node = s.signals.tree.getChildren(s.signals.tree.getChildren()[0]).find((n) => n.type === 'page' && n.signal.path === '/quickstart') as SignalNode;
    const tooltip = tooltipText(s.signals.tree.resolveTreeItem(s.signals.tree.getTreeItem(node), node).tooltip);
    assert.match(tooltip, new RegExp(`Agent job ${jobId}: (job active|PR ready)`), 'the tooltip names the job too');
  });

  it("reads a question's whole thread only when asked, with one request", async () => {
    const groups = s.signals.tree.getChildren(s.signals.tree.getChildren()[2]);
    const question = groups.flatMap((g) => s.signals.tree.getChildren(g))[0];
    assert.ok(question?.type === 'question');
    sim.clearRequests();
    const item = s.signals.tree.getTreeItem(question);
    assert.equal(item.tooltip, undefined, 'drawing the row builds no tooltip');
    const tooltip = tooltipText(s.signals.tree.resolveTreeItem(item, question).tooltip);
    assert.ok(tooltip.includes('Right-click › Show Full Thread reads the whole conversation (one request).'), tooltip);
    assert.equal(analytics(sim).length, 0, 'showing or hovering a question sends nothing');
    await vscode.commands.executeCommand('mintlifyAgent.showAssistantThread', question);
    assert.deepEqual(
      analytics(sim).map((r) => r.rawPath),
      [`/v1/analytics/${PROJECT}/assistant/threads/${question.question.id}`],
    );
    const thread = sim.assistantThreadFor(question.question.id);
    const shown = vscode.window.activeTextEditor?.document.getText() ?? '';
    for (const message of thread?.messages ?? []) assert.ok(shown.includes(message.content), message.content.slice(0, 40));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it("a background refresh stays inside this window's share: with a share of 0 it sends nothing", async () => {
    const config = vscode.workspace.getConfiguration('mintlifyAgent.signals');
    await config.update('backgroundShare', 0, vscode.ConfigurationTarget.Global);
    try {
      await s.signals.store.forget();
      sim.clearRequests();
      assert.deepEqual(await s.signals.store.refresh('background'), { kind: 'skipped', reason: 'notGranted' });
      assert.equal(analytics(sim).length, 0);
      assert.equal(
        (await s.signals.store.refresh({ grant: s.gate.granted(100) })).kind,
        'fetched',
        'what the writer asked is not held to the background share',
      );
    } finally {
      await config.update('backgroundShare', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("Fetch Reader Signals during a background refresh keeps the writer's grant: held to nothing of the background's, it fetches the snapshot", async () => {
    const config = vscode.workspace.getConfiguration('mintlifyAgent.signals');
    // A share the first estimate fits in but the whole snapshot does not: the background refresh starts, then stops.
    // (A team of one: this machine's background share is the whole ceiling, so the window's share is what holds it.)
    await config.update('backgroundShare', 12, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('mintlifyAgent.analytics').update('teamSize', 1, vscode.ConfigurationTarget.Global);
    try {
      await freshAnalyticsHour(s);
      await s.signals.store.forget();
      sim.clearRequests();
      const backgroundRefresh = s.signals.store.refresh('background');
      const asked = s.signals.store.refresh({ grant: s.gate.granted(100) });
      const outcome = await asked;
      assert.equal(outcome.kind, 'fetched', "the writer's fetch is not cut short by the background's share");
      await backgroundRefresh.catch(() => undefined);
      assert.ok(s.signals.store.current(), 'the snapshot is kept');
      assert.ok(analytics(sim).length > 12, 'the background refresh had started and was cut at its share');
    } finally {
      await vscode.workspace.getConfiguration('mintlifyAgent.analytics').update('teamSize', undefined, vscode.ConfigurationTarget.Global);
      await config.update('backgroundShare', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('"Did it help?" compares equal windows on a page with enough votes, and says "not enough data yet" on one without', async () => {
    // What the suite spent so far must not be what this fetch is refused for (it would ask first: up to 70 requests).
    await freshAnalyticsHour(s);
    const finishedAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
    s.signals.links.remember(PROJECT, {
      jobId: 'job_helped',
      signalIds: ['page:/quickstart'],
      path: '/quickstart',
      searches: [],
      askedAt: finishedAt,
      finishedAt,
    });
    const windows = comparisonWindows(Date.parse(finishedAt), Date.now());
    assert.ok(windows);
    const share = (w: { dateFrom: string; dateTo: string }) => {
      const votes = sim.signalsFor(PROJECT, w).feedback.filter((f) => f.path === '/quickstart' && f.source === 'contextual') as { helpful: boolean }[];
      assert.ok(votes.length >= 20, `enough votes (${votes.length})`);
      return `${Math.round((votes.filter((v) => !v.helpful).length / votes.length) * 1000) / 10}%`;
    };
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path: '/quickstart' });
      const message = user.lastMessage()?.message ?? '';
      assert.ok(message.includes(`not-helpful share: ${share(windows.before)} → ${share(windows.after)}`), message);
      // docs/quickstart.mdx has none of the code blocks readers flagged (test/simulator/signals.ts CODE_FEEDBACK): they changed since.
      const onBlocks = s.signals.store.current()?.pending.filter((c) => c.path === '/quickstart' && c.snippet).length ?? 0;
      assert.ok(
        onBlocks > 0 &&
          message.endsWith(
            `${onBlocks} of the ${onBlocks} pending comments on its code blocks are about a block that is no longer on the page: it changed since.`,
          ),
        message,
      );
      // No tracked job with a branch here, so no git to wait on: the notification says what it compares.
      assert.deepEqual(user.progressReports, [`comparing ${windows.days} days before and after…`]);

      const rare = sim.signalsFor(PROJECT, {}).byPage.at(-1)?.path ?? '';
      s.signals.links.remember(PROJECT, { jobId: 'job_rare', signalIds: [`page:${rare}`], path: rare, searches: [], askedAt: finishedAt, finishedAt });
      await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path: rare });
      assert.match(user.lastMessage()?.message ?? '', /not-helpful share: not enough data yet \(needs 20 votes in each window/);
    } finally {
      user.restore();
    }
  });
});
