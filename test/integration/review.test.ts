// Review Changes and Check Out Branch on real git: the workspace is a clone of a bare repository
// made by test/support/gitRepo.ts, and the jobs point at it through the simulator.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { ReviewResult } from '../../src/git/registerReviewChanges';
import type { Simulator } from '../simulator/server';
import { AGENT_BRANCH, AGENT_BRANCH_CHANGES, MINTLIFY_BOT, pushBranch, pushCommit, writeFile } from '../support/gitRepo';
import { leaveWindowClean, PROJECT, rowCommands, ScriptedUser, seam, setProject, waitFor, withSimulator, signIn } from './support';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' }).trim();
}

interface GitApiLike {
  repositories: { rootUri: vscode.Uri; status(): Promise<void>; state: { HEAD?: { name?: string } } }[];
}

describe('review the agent branch (Review Changes, Check Out Branch)', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let root: string;
  let origin: string;

  /** Refreshes what the Git extension knows after the test ran git itself. */
  async function gitRefresh(): Promise<void> {
    const api = vscode.extensions.getExtension<{ getAPI(v: 1): GitApiLike }>('vscode.git')!.exports.getAPI(1);
    await Promise.all(api.repositories.map((r) => r.status()));
  }

  /** A finished job in the simulator, tracked here. */
  async function finishedJob(source: { repository: string; ref: string | null }, status: 'completed' | 'active' = 'completed'): Promise<string> {
    const job = sim.addJob(PROJECT, { status, source, prompt: 'Improve the docs' });
    await s.tracker.track(job.id);
    return job.id;
  }

  const tree = () => (s.tree.getChildren() ?? []).map((n) => s.tree.getTreeItem(n));
  const untouched = () => {
    assert.equal(git(root, 'status', '--porcelain'), '', 'the working tree is unchanged');
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), 'main', 'still on main');
  };

  before(async () => {
    s = await seam();
    sim = await withSimulator();
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    origin = git(root, 'remote', 'get-url', 'origin');
    await setProject(PROJECT);
    await signIn(s);
  });
  after(async () => {
    await leaveWindowClean(s);
    await sim.close();
  });
  beforeEach(() => (user = new ScriptedUser(s.ui)));
  afterEach(() => user.restore());

  it('opens every file the branch changes in the multi-file diff, against the merge base, and changes no file', async () => {
    const headBefore = git(root, 'rev-parse', 'HEAD');
    const jobId = await finishedJob({ repository: origin.replace(/\.git$/, ''), ref: AGENT_BRANCH });
    const result = (await vscode.commands.executeCommand<ReviewResult | undefined>('mintlifyAgent.reviewChanges', jobId))!;
    assert.ok(result, `no review; messages: ${JSON.stringify(user.messages)}`);
    assert.equal(result.shownAs, 'multiDiff');
    const tip = git(root, 'rev-parse', `origin/${AGENT_BRANCH}`);
    const base = git(root, 'merge-base', 'HEAD', tip);
    const file = (p: string) => vscode.Uri.file(join(root, p)).toString();
    const ref = (uri: vscode.Uri | undefined) =>
      uri
        ? `${uri.scheme}:${vscode.workspace.asRelativePath(uri.with({ scheme: 'file', query: '' }))}@${(JSON.parse(uri.query) as { ref: string }).ref}`
        : 'none';
    const rows = result.resources
      .map(([resource, original, modified]) => [resource.toString(), ref(original), ref(modified)])
      .sort((a, b) => a[0].localeCompare(b[0]));
    const c = AGENT_BRANCH_CHANGES;
    assert.deepEqual(
      rows,
      [
        [file(c.added), 'none', `git:${c.added}@${tip}`],
        [file(c.renamedTo), `git:${c.renamedFrom}@${base}`, `git:${c.renamedTo}@${tip}`],
        [file(c.modified), `git:${c.modified}@${base}`, `git:${c.modified}@${tip}`],
        [file(c.deleted), `git:${c.deleted}@${base}`, 'none'],
      ].sort((a, b) => a[0].localeCompare(b[0])),
    );
    // The right side really is the agent's text, read through the Git extension's content provider.
    const modified = result.resources.find(([r]) => r.toString() === file(c.modified))![2]!;
    assert.match((await vscode.workspace.openTextDocument(modified)).getText(), /The agent added this line\./);
    await waitFor(`the multi-diff tab (tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(' | ')})`, () =>
      vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label.startsWith(result.title))),
    );
    untouched();
    assert.equal(git(root, 'rev-parse', 'HEAD'), headBefore);
    assert.doesNotMatch(readFileSync(join(root, c.modified), 'utf8'), /agent added/);
  });

  it('marks finished jobs of this repository "review here" in the tree, not those of another', async () => {
    const here = await finishedJob({ repository: origin, ref: AGENT_BRANCH });
    const elsewhere = await finishedJob({ repository: 'https://github.com/acme/docs', ref: AGENT_BRANCH });
    const item = await waitFor('the hint', () => tree().find((i) => i.id === `job:${here}` && String(i.description).includes('review here')));
    assert.match(String(item.contextValue), /^job completed (pr )?review$/);
    assert.ok(rowCommands(item.contextValue).includes('mintlifyAgent.reviewChanges'), 'the row offers Review Changes');
    const other = tree().find((i) => i.id === `job:${elsewhere}`)!;
    assert.doesNotMatch(String(other.description), /review here/);
    assert.doesNotMatch(String(other.contextValue), /review/);
    assert.ok(!rowCommands(other.contextValue).includes('mintlifyAgent.reviewChanges'));
  });

  it('checks the branch out on a clean tree, tracking the remote branch', async () => {
    const jobId = await finishedJob({ repository: origin, ref: AGENT_BRANCH });
    await vscode.commands.executeCommand('mintlifyAgent.checkOutBranch', jobId);
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), AGENT_BRANCH, JSON.stringify(user.messages));
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', '@{upstream}'), `origin/${AGENT_BRANCH}`);
    assert.match(user.lastMessage()!.message, /Checked out mintlify\/agent-review, tracking origin/);
    git(root, 'checkout', '--quiet', 'main');
    git(root, 'branch', '-D', AGENT_BRANCH);
    await gitRefresh();
    untouched();
  });

  it('refuses to check out over local changes until the user chooses to stash them', async () => {
    const jobId = await finishedJob({ repository: origin, ref: AGENT_BRANCH });
    const quickstart = join(root, AGENT_BRANCH_CHANGES.modified);
    appendFileSync(quickstart, '\nMy unsaved thought.\n');
    await gitRefresh();
    user.answerMessage = () => undefined; // Cancel
    await vscode.commands.executeCommand('mintlifyAgent.checkOutBranch', jobId);
    const refusal = user.messages.find((m) => m.level === 'warning')!;
    assert.match(refusal.message, /working tree has 1 changed file/);
    assert.deepEqual(refusal.actions, ['Stash and Check Out']);
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), 'main', 'cancel checks nothing out');
    assert.match(readFileSync(quickstart, 'utf8'), /My unsaved thought/);

    user.answerMessage = (m) => m.actions[0];
    await vscode.commands.executeCommand('mintlifyAgent.checkOutBranch', jobId);
    assert.equal(git(root, 'rev-parse', '--abbrev-ref', 'HEAD'), AGENT_BRANCH);
    assert.match(git(root, 'stash', 'list'), /Mintlify: before checking out mintlify\/agent-review/);
    git(root, 'checkout', '--quiet', 'main');
    git(root, 'branch', '-D', AGENT_BRANCH);
    git(root, 'stash', 'pop', '--quiet');
    assert.match(readFileSync(quickstart, 'utf8'), /My unsaved thought/, 'the stash gives the change back');
    git(root, 'checkout', '--', AGENT_BRANCH_CHANGES.modified);
    await gitRefresh();
    untouched();
  });

  describe('a completed job without a pull request: published directly, or not', () => {
    // The project's deployment branch, the job's branch: the agent commits straight to it (no pull request).
    const LIVE = 'docs-live';
    const MINUTE = 60_000;
    const TEAMMATE = { name: 'Ada', email: 'ada@example.com' };
    const commits: Record<string, string> = {};
    let start: number;
    const item = (jobId: string) => tree().find((i) => i.id === `job:${jobId}`)!;
    const tooltip = (jobId: string) => (item(jobId).tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\/g, '');
    const noPullRequestJob = (createdAt: number) =>
      sim.addJob(PROJECT, { status: 'completed', prLink: null, source: { repository: origin, ref: LIVE }, createdAt: new Date(createdAt).toISOString() });

    before(() => {
      start = Date.now() - 30 * MINUTE;
      // Before the job: a teammate's work, and an earlier job of the agent's.
      pushBranch({ url: origin }, LIVE, (clone) => writeFile(clone, 'docs/live-note.mdx', 'Live.\n'));
      const on = (name: string, file: string, who: typeof TEAMMATE, at: number) =>
        (commits[name] = pushCommit({ url: origin }, LIVE, name, (clone) => writeFile(clone, file, `${name}\n`), { ...who, at }));
      on('earlier job', 'docs/earlier.mdx', MINTLIFY_BOT, start - 60 * MINUTE);
      // While it ran: two commits of the agent, a teammate's, one more of the agent's.
      on('agent: add the SDK page', 'docs/direct-sdks.mdx', MINTLIFY_BOT, start + 5 * MINUTE);
      on('agent: clarify the quickstart', AGENT_BRANCH_CHANGES.modified, MINTLIFY_BOT, start + 6 * MINUTE);
      on('teammate: a note', 'docs/team-note.mdx', TEAMMATE, start + 10 * MINUTE);
      on('agent: fix the SDK page', 'docs/direct-sdks.mdx', MINTLIFY_BOT, start + 12 * MINUTE);
    });

    it('says only that there is no pull request; Review Changes fetches the branch and shows exactly the agent’s commits while it ran', async () => {
      const headBefore = git(root, 'rev-parse', 'HEAD');
      const job = noPullRequestJob(start);
      await s.tracker.track(job.id);
      const before = await waitFor('the row', () => (String(item(job.id)?.description).includes('review here') ? item(job.id) : undefined));
      assert.match(String(before.description), /^completed · no pull request · review here/);
      assert.doesNotMatch(String(before.description), /no changes/);
      assert.match(tooltip(job.id), /The agent opened no pull request: it changed nothing, or committed directly to docs-live/);
      assert.doesNotMatch(tooltip(job.id), /no files changed/);

      const result = (await vscode.commands.executeCommand<ReviewResult | undefined>('mintlifyAgent.reviewChanges', job.id))!;
      assert.ok(result, `no review; messages: ${JSON.stringify(user.messages)}`);
      const agent = ['agent: add the SDK page', 'agent: clarify the quickstart', 'agent: fix the SDK page'].map((name) => commits[name]);
      assert.deepEqual(result.commits, agent, 'the agent’s three commits, not the teammate’s, not the earlier job’s');
      // Two runs, each its own diff: the teammate's commit between them is in neither.
      const rows = result.resources.map(([resource, original, modified]) => [
        vscode.workspace.asRelativePath(resource),
        original ? (JSON.parse(original.query) as { ref: string }).ref : 'none',
        modified ? (JSON.parse(modified.query) as { ref: string }).ref : 'none',
      ]);
      assert.deepEqual(rows, [
        ['docs/direct-sdks.mdx', 'none', agent[1]],
        [AGENT_BRANCH_CHANGES.modified, commits['earlier job'], agent[1]],
        ['docs/direct-sdks.mdx', commits['teammate: a note'], agent[2]],
      ]);
      assert.equal(result.tip, git(root, 'rev-parse', `origin/${LIVE}`));
      const after = await waitFor('the row to say what git showed', () =>
        String(item(job.id).description).includes('published directly') ? item(job.id) : undefined,
      );
      assert.match(String(after.description), /^completed · published directly · review here/);
      assert.match(tooltip(job.id), /committed directly to docs-live \(3 commits while the job ran\)/);
      for (const hash of agent) assert.ok(tooltip(job.id).includes(hash.slice(0, 7)), `the tooltip lists ${hash.slice(0, 7)}`);
      untouched();
      assert.equal(git(root, 'rev-parse', 'HEAD'), headBefore);
    });

    it('with no commit of the agent while it ran, says what git showed, never that nothing changed', async () => {
      const job = noPullRequestJob(Date.now() - 2 * MINUTE);
      await s.tracker.track(job.id);
      const result = (await vscode.commands.executeCommand<ReviewResult | undefined>('mintlifyAgent.reviewChanges', job.id))!;
      assert.deepEqual([result.commits, result.resources], [[], []]);
      assert.match(
        user.lastMessage()!.message,
        /^The agent opened no pull request, and the fetched docs-live has no commit by the Mintlify agent \(mintlify\[bot\]\) from while the job ran\. It may have changed nothing, or committed under another name\.$/,
      );
      const row = await waitFor('the row', () => (String(item(job.id).description).includes('no agent commits found') ? item(job.id) : undefined));
      assert.match(String(row.description), /^completed · no pull request, no agent commits found · review here/);
      untouched();
    });

    it('a branch that is not on the remote is said as what git shows, with no pull request to open', async () => {
      const job = sim.addJob(PROJECT, { status: 'completed', prLink: null, source: { repository: origin, ref: 'mintlify/agent-never-pushed' } });
      await s.tracker.track(job.id);
      const result = await vscode.commands.executeCommand('mintlifyAgent.reviewChanges', job.id);
      assert.equal(result, undefined);
      const said = user.lastMessage()!;
      assert.equal(said.level, 'info');
      assert.match(said.message, /^The agent opened no pull request, and mintlify\/agent-never-pushed is not on origin, so git shows no commit of it there\./);
      assert.deepEqual(said.actions, ['Show Log'], 'no pull request to open');
      untouched();
    });
  });

  describe('each failure says why and what to do, and changes nothing', () => {
    async function failure(source: { repository: string; ref: string | null }, status: 'completed' | 'active' = 'completed') {
      const jobId = await finishedJob(source, status);
      const refsBefore = git(root, 'for-each-ref');
      for (const command of ['mintlifyAgent.reviewChanges', 'mintlifyAgent.checkOutBranch']) {
        const result = await vscode.commands.executeCommand(command, jobId);
        assert.equal(result, undefined);
      }
      untouched();
      assert.equal(git(root, 'for-each-ref'), refsBefore, 'no ref was made or moved');
      assert.equal(user.messages.length, 2, `one message per command: ${JSON.stringify(user.messages.map((m) => m.message))}`);
      assert.equal(user.messages[0].message, user.messages[1].message);
      return user.messages[0];
    }

    it('the workspace is another repository: names the job repository', async () => {
      const shown = await failure({ repository: 'https://github.com/acme/docs-portal', ref: AGENT_BRANCH });
      assert.equal(shown.level, 'error');
      assert.match(
        shown.message,
        /This workspace is another repository \(file:.*\)\. The job works on https:\/\/github\.com\/acme\/docs-portal: open a clone of it/,
      );
    });

    it('no remote of the workspace repository matches: says how to add one', async () => {
      git(root, 'remote', 'remove', 'origin');
      await gitRefresh();
      try {
        const shown = await failure({ repository: origin, ref: AGENT_BRANCH });
        assert.match(shown.message, /^No remote of this workspace's repository matches file:.*, the job's repository\. Add it as a remote/);
      } finally {
        git(root, 'remote', 'add', 'origin', origin);
        git(root, 'fetch', '--quiet', 'origin');
        git(root, 'branch', '--quiet', '--set-upstream-to=origin/main', 'main');
        await gitRefresh();
      }
    });

    it('the branch is gone from the remote: offers the pull request', async () => {
      const shown = await failure({ repository: origin, ref: 'mintlify/agent-merged-and-deleted' });
      assert.match(shown.message, /The branch mintlify\/agent-merged-and-deleted is gone from origin \(merged or deleted\)/);
      assert.deepEqual(shown.actions, ['Open Pull Request', 'Show Log']);
    });

    it('the fetch fails (remote unreachable): says why and offers Retry', async () => {
      const unreachable = 'file:///nonexistent/mintlify/docs.git';
      git(root, 'remote', 'add', 'mirror', unreachable);
      await gitRefresh();
      try {
        const shown = await failure({ repository: unreachable, ref: AGENT_BRANCH });
        assert.match(shown.message, /^Could not fetch mintlify\/agent-review from mirror: .+\. Check your connection and git credentials/);
        assert.deepEqual(shown.actions, ['Retry', 'Show Log']);
      } finally {
        git(root, 'remote', 'remove', 'mirror');
        await gitRefresh();
      }
    });

    it('the job has no branch yet', async () => {
      const shown = await failure({ repository: origin, ref: null });
      assert.match(shown.message, /has no branch yet, so there is nothing to review/);
    });

    it('the job is still active: offers to say when it finishes', async () => {
      const shown = await failure({ repository: origin, ref: AGENT_BRANCH }, 'active');
      assert.equal(shown.level, 'info');
      assert.match(shown.message, /The agent is still working on “Job job_\w+”\. Its branch can be reviewed when it finishes\./);
      assert.deepEqual(shown.actions, ['Tell Me When It Finishes', 'Show Log']);
    });
  });
});
