// The searches readers gave up on, checked against the site's own search, in the real VS Code host
// against the simulator (its search has ground truth: an index of the simulated site that a deploy
// changes) and real git: Set Assistant Key with the site's domain; a term with no click → Check →
// the live results shown; the inbox's group checked (the count said first); a job started from them
// records the before; the branch merged and the site deployed → one replay → the job's row, its
// notification and Did It Help? say before and after, term by term; a reload shows the same with no
// request; the misses go back as one follow-up; a refused key and a 429 are worded and held.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { JobNode } from '../../src/jobs/jobsTree';
import { replayOutcome } from '../../src/search/searchOutcome';
import { replayNote } from '../../src/search/searchText';
import { LIVE_SEARCH_TITLE } from '../../src/signals/evidencePrompt';
import { MAX_RESULT_CHARS } from '../../src/tools/toolTexts';
import type { SignalNode } from '../../src/signals/signalsTree';
import { SharedStore } from '../../src/sync/sharedStore';
import type { Simulator } from '../simulator/server';
import { DEFAULT_TIMINGS } from '../../src/poll/pollTimings';
import { evidenceBlock, quotedItem } from '../support/evidenceBlock';
import { nodeSyncFs } from '../support/nodeSyncFs';
import {
  FAST_POLL_TIMINGS,
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

const ASSISTANT_KEY = 'mint_dsc_integration_test_key';
const DOMAIN = 'acme-docs';
const BRANCH = 'mintlify/answer-searches';
const REMOTE = 'search-mirror';
const NEW_PAGE = '/guides/zebra-herding';
const SEND = 'Choose Where to Send…';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A result's path as a site path, from the form the API used (a path without its slash, or a URL). */
/** The job's row (the tree's nodes are the extension bundle's own classes: matched by shape, not instanceof). */
const isRowOf =
  (jobId: string) =>
  (n: unknown): n is JobNode =>
    (n as Partial<JobNode>).tracked?.id === jobId;

const sitePath = (path: string) => decodeURI(new URL(path, `https://${DOMAIN}.mintlify.site/`).pathname);

describe("searches readers gave up on, checked against the site's own search", function () {
  this.timeout(180_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: string;
  let scratch: string | undefined;
  let mirrorUrl = '';
  let terms: string[] = [];
  let jobId = '';
  const searches = () => sim.requests.filter((r) => r.rawPath.startsWith('/discovery/'));
  const searchNode = (term: string) =>
    s.signals.tree
      .getChildren(s.signals.tree.getChildren()[1])
      .find((n): n is SignalNode & { type: 'search' } => n.type === 'search' && n.signal.searchQuery === term);

  before(async () => {
    s = await seam();
    // Every third term a gap: the inbox has more searches with no click than a check does unasked.
    sim = await withSimulator({
      analyticsLimitPerHour: 10_000,
      jobDurationMs: 1_500,
      search: { domain: DOMAIN },
      signals: { feedbackItems: 400, assistantTurns: 3_000, searchTerms: 600, searchGapEvery: 3 },
    });
    await signIn(s);
    await setProject(PROJECT);
    await freshAnalyticsHour(s);
    s.tracker.poller.setTimings(FAST_POLL_TIMINGS);
    await setUserSetting('search.deployWaitMinutes', 0);
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    terms = (s.signals.tree.getChildren(s.signals.tree.getChildren()[1]) as (SignalNode & { type: 'search' })[]).map((n) => n.signal.searchQuery);
    assert.ok(terms.length > 10, `the inbox has many searches with no click (${terms.length})`);
  });
  after(async () => {
    if (scratch) {
      git(root, ['remote', 'remove', REMOTE]);
      rmSync(scratch, { recursive: true, force: true });
    }
    await s.sync.update((state) => delete state.waits.search);
    await vscode.commands.executeCommand('mintlifyAgent.clearAssistantKey');
    await setUserSetting('search.siteDomain', undefined);
    await setUserSetting('search.deployWaitMinutes', undefined);
    s.tracker.poller.setTimings(DEFAULT_TIMINGS);
    await leaveWindowClean(s);
    await sim.close();
  });

  it('offers nothing of search without the assistant key; Set Assistant Key refuses an admin key, takes a mint_dsc_ key and the domain from the dashboard URL', async () => {
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch', searchNode(terms[0]));
      assert.match(user.lastMessage()?.message ?? '', /needs the site’s assistant API key .* Nothing was sent\./);
      assert.equal(searches().length, 0);
      let box: vscode.InputBoxOptions | undefined;
      user.type((options) => ((box = options), undefined));
      await vscode.commands.executeCommand('mintlifyAgent.setAssistantKey');
      const refused = await box?.validateInput?.('mint_admin_key_typed_here');
      assert.match(typeof refused === 'string' ? refused : '', /This is an admin API key: it goes in "Mintlify: Set API Key"/);
      assert.equal(s.search.searchable(), undefined, 'Escape: nothing stored');
      user.type(ASSISTANT_KEY).type(`https://app.mintlify.com/acme-org/${DOMAIN}`);
      await vscode.commands.executeCommand('mintlifyAgent.setAssistantKey');
      assert.match(user.lastMessage()?.message ?? '', /Assistant key saved .* live search of “acme-docs”/);
      assert.equal(s.search.searchable(), DOMAIN);
      assert.equal(vscode.workspace.getConfiguration('mintlifyAgent').inspect('search.siteDomain')?.globalValue, DOMAIN);
    } finally {
      user.restore();
    }
  });

  it('a term with no click → Check → the live results, best first, as the site search returns them; its row says so', async () => {
    const term = terms.find((t) => sim.search.resultsFor(t).length > 0) ?? terms[0];
    const truth = sim.search.resultsFor(term, 10).map((r) => sitePath(r.path));
    sim.clearRequests();
    const user = new ScriptedUser(s.ui);
    let shown: string[] = [];
    let title = '';
    const picked = new Promise<void>((resolve) =>
      user.pick((items) => {
        shown = items.map((i) => i.label);
        resolve();
        return undefined;
      }),
    );
    const original = s.ui.showQuickPick;
    s.ui.showQuickPick = ((items: readonly vscode.QuickPickItem[], options: vscode.QuickPickOptions) => {
      title = options.title ?? '';
      return original(items, options);
    }) as typeof original;
    try {
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch', searchNode(term));
      await picked;
    } finally {
      s.ui.showQuickPick = original;
      user.restore();
    }
    assert.equal(searches().length, 1, 'one request');
    assert.deepEqual(searches()[0]?.body, { query: term, pageSize: 10 });
    assert.equal(searches()[0]?.authorization, `Bearer ${ASSISTANT_KEY}`);
    assert.deepEqual(
      shown,
      truth.map((p, i) => `${i + 1}. ${p}`),
    );
    assert.match(title, /Readers click none of these results/);
    const row = s.signals.tree.getTreeItem(searchNode(term)!);
    assert.match(String(row.description), new RegExp(`live search: ${truth.length} results`));
  });

  it('checks the inbox’s group of them: the count said before it is sent, one request per term not checked yet', async () => {
    sim.clearRequests();
    const group = s.signals.tree.getChildren()[1];
    const user = new ScriptedUser(s.ui);
    let asked = '';
    user.answerMessage = (shown) => {
      if (!shown.message.startsWith('Checking')) return undefined;
      asked = shown.message;
      return shown.actions[0];
    };
    try {
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch', group);
    } finally {
      user.restore();
    }
    const notChecked = terms.length - 1;
    assert.match(asked, new RegExp(`^Checking ${notChecked} searches is ${notChecked} requests of the site’s search of “acme-docs” \\(1 more were checked`));
    assert.equal(searches().length, notChecked, 'one per term, the one checked before reused');
    assert.equal(new Set(searches().map((r) => (r.body as { query: string }).query)).size, notChecked);
    const nothing = terms.filter((t) => sim.search.resultsFor(t).length === 0).length;
    assert.match(user.lastMessage()?.message ?? '', new RegExp(`Checked ${terms.length} of ${terms.length} searches .* ${nothing} find nothing`));
    assert.match(String(s.signals.tree.getTreeItem(group).description), new RegExp(`${terms.length} checked, ${nothing} find nothing`));
  });

  it('a job started from them sends their live results as evidence and records them with the job (the before), with no new request', async () => {
    sim.setNewJobSource(undefined);
    const group = s.signals.tree.getChildren()[1] as SignalNode & { type: 'group' };
    assert.equal(group.ref?.kind, 'searches');
    const asked = group.ref?.kind === 'searches' ? group.ref.searchQueries : [];
    // The job's repository is a mirror of the workspace's; its branch is merged there later.
    scratch = mkdtempSync(join(tmpdir(), 'mintlify-search-mirror-'));
    const bare = join(scratch, 'mirror.git');
    git(scratch, ['clone', '--quiet', '--bare', root, bare]);
    mirrorUrl = pathToFileURL(bare).href;
    sim.setNewJobSource({ repository: mirrorUrl, ref: BRANCH });
    sim.clearRequests();
    const user = new ScriptedUser(s.ui);
    let instruction = '';
    user.type((options) => (instruction = options.value ?? ''));
    user.answerMessage = (shown) => (shown.actions.includes(SEND) ? SEND : undefined);
    user.pick((items) => items.find((i) => i.label.includes('New job')));
    try {
      await vscode.commands.executeCommand('mintlifyAgent.askToAddress', group);
    } finally {
      user.restore();
      sim.setNewJobSource(undefined);
    }
    assert.equal(searches().length, 0, 'the checks kept a moment ago are the evidence');
    assert.match(instruction, /Readers search the docs for the terms below/);
    assert.match(instruction, /content gap|findability gap/, 'the instruction says which gap');
    const [create] = requestsTo(sim, 'POST', '/job');
    const prompt = (create?.body as { prompt: string }).prompt;
    const block = evidenceBlock(prompt);
    const title = block.lines.indexOf(`${LIVE_SEARCH_TITLE}:`);
    assert.ok(title > 0, 'the live results are in the evidence block');
    assert.deepEqual(
      block.lines.slice(title + 1, title + 1 + asked.length).map((l) => quotedItem(l)),
      asked,
    );
    const created = await waitFor('the created job tracked', () => s.jobs.all().find((t) => t.prompts[0]?.text === prompt));
    jobId = created.id;
    const replay = await waitFor('the before recorded with the job', () => s.search.replays.get(PROJECT, jobId));
    assert.deepEqual(Object.keys(replay.terms), asked);
    for (const term of asked)
      assert.deepEqual(
        replay.terms[term]?.before.hits.map((h) => h.p),
        sim.search.resultsFor(term, 10).map((r) => sitePath(r.path)),
        term,
      );
    assert.equal(replay.afterAt, undefined);
    const row = await waitFor('the row says the searches are recorded', () => {
      const node = s.tree.getChildren().find(isRowOf(jobId));
      const item = node && s.tree.getTreeItem(node);
      return item && String(item.description).includes(`${asked.length} searches before`) ? item : undefined;
    });
    assert.match(String(row.contextValue), /\bsearches\b/);
  });

  it('once merged and deployed: one replay, and the row, the notification and Did It Help? say before and after, term by term', async () => {
    await waitFor('the job finished with a pull request', () => s.jobs.get(jobId)?.job?.prLink);
    assert.ok(scratch);
    const asked = Object.keys(s.search.replays.get(PROJECT, jobId)?.terms ?? {});
    // The agent's page answers the first five terms; the site's deploy lands with it.
    const answered = asked.slice(0, 5);
    const text = `---\ntitle: Zebra herding\n---\n\n${answered.map((t) => `${t} ${t} ${t}`).join('. ')}\n`;
    const work = join(scratch, 'work');
    git(scratch, ['clone', '--quiet', mirrorUrl, work]);
    git(work, ['checkout', '--quiet', '-b', BRANCH]);
    mkdirSync(join(work, 'docs', 'guides'), { recursive: true });
    writeFileSync(join(work, 'docs', 'guides', 'zebra-herding.mdx'), text);
    git(work, ['add', '-A']);
    git(work, ['commit', '--quiet', '-m', 'Agent: a page readers search for']);
    git(work, ['checkout', '--quiet', 'main']);
    git(work, ['merge', '--quiet', '--no-ff', '-m', 'Merge pull request #7', BRANCH]);
    git(work, ['push', '--quiet', 'origin', 'main', BRANCH]);
    sim.search.deploy({ [NEW_PAGE]: text });
    const after = new Map(asked.map((t) => [t, sim.search.resultsFor(t, 10).map((r) => sitePath(r.path))]));
    const finds = asked.filter((t) => after.get(t)?.includes(NEW_PAGE));
    const ranks = finds.map((t) => (after.get(t)?.indexOf(NEW_PAGE) ?? 0) + 1);
    const nothing = asked.filter((t) => !after.get(t)?.length);
    assert.ok(finds.length >= answered.length, 'the ground truth finds the new page for the terms it answers');

    sim.clearRequests();
    const user = new ScriptedUser(s.ui);
    user.answerMessage = (shown) => (shown.actions.includes('Open Page') ? 'Open Page' : undefined);
    try {
      // The writer fetches: the workspace's git learns of the merge.
      git(root, ['remote', 'add', REMOTE, mirrorUrl]);
      git(root, ['fetch', '--quiet', REMOTE]);
      git(root, ['remote', 'set-head', REMOTE, 'main']);
      // As VS Code's Git does when the window sees the change: it reads the repository again.
      const api = vscode.extensions.getExtension<{ getAPI(v: 1): { repositories: { status(): Promise<void> }[] } }>('vscode.git')!.exports.getAPI(1);
      await Promise.all(api.repositories.map((r) => r.status()));
      const replay = await waitFor(
        'the searches replayed once the change is live',
        () => {
          const r = s.search.replays.get(PROJECT, jobId);
          return r?.afterAt === undefined ? undefined : r;
        },
        120_000,
      );
      const [low, high] = [Math.min(...ranks), Math.max(...ranks)];
      const summary = `${finds.length} of ${asked.length} searches readers gave up on now find ${NEW_PAGE} (${low === high ? `rank ${low}` : `ranks ${low}–${high}`})`;
      const notice = await waitFor('the notification', () => user.messages.find((m) => m.message.includes('searches readers gave up on')));
      assert.ok(notice.message.includes(summary), notice.message);
      if (nothing.length) assert.ok(notice.message.includes(`${nothing.length} still find nothing`), notice.message);
      assert.deepEqual(replay.live?.pages, [NEW_PAGE], 'the page the merge brought in, by the one mapping');
      await waitFor('the page opened on the site', () => user.opened.length > 0);
      assert.deepEqual(user.opened, [`https://${DOMAIN}.mintlify.site${NEW_PAGE}`], 'not in this workspace yet: the site’s own https page');
      assert.equal(searches().length, asked.length, 'one replay: one request per term');
      for (const term of asked)
        assert.deepEqual(
          replay.terms[term]?.after?.hits.map((h) => h.p),
          after.get(term),
          term,
        );

      const node = s.tree.getChildren().find(isRowOf(jobId));
      const row = node && s.tree.getTreeItem(node);
      assert.ok(String(row?.description).includes(`${finds.length}/${asked.length} searches now find the page`), String(row?.description));
      const tooltip = (row?.tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1').replace(/&nbsp;/g, ' ');
      assert.ok(tooltip.includes(summary), tooltip);
      const firstFound = finds[0];
      assert.ok(tooltip.includes(`“${firstFound}”: `) && tooltip.includes(` → ${NEW_PAGE} #`), 'each term, before → after');

      user.messages.length = 0;
      await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'search', searchQuery: asked[0] });
      const answer = user.lastMessage()?.message ?? '';
      assert.ok(answer.startsWith('The site’s search, the same day:') && answer.includes(summary), answer);
      // Each term, cut to a line's length as the row's words cut it.
      for (const term of asked) assert.ok(answer.includes(`“${term.slice(0, 40)}`), term);
      // Whatever asks again (a poll, a git change, the focus): the after is there, nothing is sent.
      await Promise.all(api.repositories.map((r) => r.status()));
      s.search.replays.considerAll();
      assert.equal(searches().length, asked.length, 'replayed once');
    } finally {
      user.restore();
    }
  });

  it('a reload shows the same before and after, with no request', async () => {
    sim.clearRequests();
    const replay = s.search.replays.get(PROJECT, jobId);
    assert.ok(replay?.afterAt);
    // What a reloaded window does: read every window's file of the shared store.
    const reloaded = new SharedStore(nodeSyncFs(s.sync.dir.fsPath), 'reloaded', { info: () => undefined, warn: () => undefined });
    await reloaded.refresh();
    const kept = reloaded.state.searchJobs[PROJECT]?.[jobId]?.v;
    assert.deepEqual(kept, replay);
    assert.deepEqual(replayNote(kept, replayOutcome(kept)), replayNote(replay, replayOutcome(replay)));
    assert.ok(Object.keys(reloaded.state.searchChecks[DOMAIN] ?? {}).length >= terms.length, 'the checks are kept for every window');
    assert.equal(searches().length, 0);
    assert.equal(sim.requests.length, 0, 'no request at all');
  });

  it("gives the editor's AI the checks and the job's before and after: read-only, capped, quoted as data", async () => {
    sim.clearRequests();
    const result = await vscode.lm.invokeTool('get_mintlifySearchChecks', { input: {}, toolInvocationToken: undefined });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.equal(sim.requests.length, 0, 'it never searches');
    assert.ok(text.length <= MAX_RESULT_CHARS, `capped: ${text.length}`);
    const block = evidenceBlock(text);
    assert.equal(text.split(block.markers.end).length, 2, 'one end marker: no term closes the block');
    assert.match(block.before, /checked against the docs site's own search .* no request was sent/);
    const inside = block.lines.join('\n');
    for (const term of Object.keys(s.search.replays.get(PROJECT, jobId)?.terms ?? {})) {
      assert.ok(inside.includes(JSON.stringify(term.slice(0, 30)).slice(0, -1)), `${term}, quoted inside the block`);
      assert.ok(!block.before.includes(term), `${term}, never outside it`);
    }
    assert.ok(inside.includes(`job "${jobId}": after its change went live`), 'the job, before and after');
  });

  it('sends the misses back as one follow-up, quoted as data, and they start the next round', async () => {
    const replay = s.search.replays.get(PROJECT, jobId);
    assert.ok(replay);
    const missed = replayOutcome(replay)
      .terms.filter((t) => t.after?.kind !== 'finds')
      .map((t) => t.term);
    assert.ok(missed.length > 0);
    sim.clearRequests();
    const user = new ScriptedUser(s.ui);
    user.pick((items) => items.find((i) => i.label.includes('misses to the agent')));
    user.answerMessage = (shown) => (shown.actions.includes('Send Follow-up') ? 'Send Follow-up' : undefined);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.showSearchReplay', jobId);
    } finally {
      user.restore();
    }
    const sent = requestsTo(sim, 'POST', `/job/${jobId}/message`);
    assert.equal(sent.length, 1, 'one follow-up');
    const prompt = (sent[0]?.body as { prompt: string }).prompt;
    const block = evidenceBlock(prompt);
    assert.match(block.before, /^Your change is live/);
    assert.deepEqual(block.lines.flatMap((l) => quotedItem(l) ?? []).sort(), [...missed].sort());
    const next = await waitFor('the next round', () => {
      const r = s.search.replays.get(PROJECT, jobId);
      return r && r.afterAt === undefined ? r : undefined;
    });
    assert.deepEqual(Object.keys(next.terms).sort(), [...missed].sort());
    assert.equal(searches().length, 0, 'the follow-up costs no search');
  });

  it('a revoked key says so and offers Set Assistant Key; a 429 waits, and holds every window back', async () => {
    const user = new ScriptedUser(s.ui);
    try {
      sim.revokeKey(ASSISTANT_KEY);
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch', searchNode(terms[1]));
      const refused = await waitFor('the failure', () => user.messages.find((m) => m.level === 'error'));
      assert.match(refused.message, /^Searching the site failed: .*\(401\)/);
      assert.deepEqual(refused.actions, ['Set Assistant Key', 'Show Log']);
      user.messages.length = 0;
      user.type('mint_dsc_a_new_key');
      await vscode.commands.executeCommand('mintlifyAgent.setAssistantKey');
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 120 }, times: 1, pathIncludes: '/discovery/' });
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch', searchNode(terms[1]));
      const limited = await waitFor('the 429', () => user.messages.find((m) => m.level === 'warning'));
      assert.match(limited.message, /asked to wait \(429\)\. Try again in 2 min\./);
      sim.clearRequests();
      user.messages.length = 0;
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch', searchNode(terms[2]));
      await waitFor('the shared wait', () => user.messages.find((m) => m.level === 'warning'));
      assert.equal(searches().length, 0, 'held back: nothing sent');
      assert.ok(s.sync.ledger.familyWaitMs('search') > 0 && s.sync.ledger.familyWaitMs('analytics') === 0, 'its own family only');
    } finally {
      user.restore();
    }
  });
});
