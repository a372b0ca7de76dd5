// "Did it help?" counts from the merge of the agent's branch where the workspace's git history shows
// it, and says so; without a merge it counts from the job's finish, and says that. Real git: a
// second bare repository (a mirror of the docs) is the job's repository and a remote of the
// workspace's clone, so the workspace's own HEAD and origin stay as the other suites expect.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { processesInGroup, slowGit, type SlowGit } from '../support/slowGit';
import { freshAnalyticsHour, leaveWindowClean, PROJECT, ScriptedUser, seam, setProject, signIn, waitFor, withSimulator } from './support';

const BRANCH = 'mintlify/clarify-quickstart';
const REMOTE = 'docs-mirror';
const DAY = 86_400_000;
/** The documented window length: the whole days after the change's day, up to yesterday (at most 28). */
const wholeDaysSince = (at: number) => Math.min(28, Math.floor(Date.now() / DAY) - Math.floor(at / DAY) - 1);

function git(cwd: string, args: string[], at?: number): string {
  const env =
    at === undefined
      ? process.env
      : { ...process.env, GIT_AUTHOR_DATE: `@${Math.round(at / 1000)} +0000`, GIT_COMMITTER_DATE: `@${Math.round(at / 1000)} +0000` };
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

interface GitApiLike {
  git: { path: string };
  repositories: { rootUri: vscode.Uri; status(): Promise<void>; state: { remotes: { name: string }[] } }[];
}

describe('Did It Help? counts from the merge', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: string;
  let scratch: string;
  let mirrorUrl: string;
  let mergedAt: number;

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 10_000 });
    await signIn(s);
    await setProject(PROJECT);
    await freshAnalyticsHour(s);
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    // The mirror: main as the workspace has it, the agent's branch, and the PR merged 20 days ago.
    scratch = mkdtempSync(join(tmpdir(), 'mintlify-mirror-'));
    const bare = join(scratch, 'mirror.git');
    git(scratch, ['clone', '--quiet', '--bare', root, bare]);
    mirrorUrl = pathToFileURL(bare).href;
    const work = join(scratch, 'work');
    git(scratch, ['clone', '--quiet', mirrorUrl, work]);
    git(work, ['checkout', '--quiet', '-b', BRANCH]);
    writeFileSync(join(work, 'docs', 'clarified.mdx'), '---\ntitle: Clarified\n---\n\nClearer.\n');
    git(work, ['add', '-A']);
    git(work, ['commit', '--quiet', '-m', 'Agent: clarify the quickstart'], Date.now() - 30 * DAY);
    git(work, ['checkout', '--quiet', 'main']);
    mergedAt = Math.floor((Date.now() - 20 * DAY) / 1000) * 1000;
    git(work, ['merge', '--quiet', '--no-ff', '-m', 'Merge pull request #12', BRANCH], mergedAt);
    git(work, ['push', '--quiet', 'origin', 'main', BRANCH]);
    // The workspace knows the mirror as a remote (as a writer's clone knows its upstream); a local fetch, no network.
    git(root, ['remote', 'add', REMOTE, mirrorUrl]);
    git(root, ['fetch', '--quiet', REMOTE]);
    git(root, ['remote', 'set-head', REMOTE, 'main']);
    const api = vscode.extensions.getExtension<{ getAPI(v: 1): GitApiLike }>('vscode.git')!.exports.getAPI(1);
    await waitFor('Git to see the mirror remote', async () => {
      await Promise.all(api.repositories.map((r) => r.status()));
      return api.repositories.some((r) => r.state.remotes.some((remote) => remote.name === REMOTE));
    });
  });
  after(async () => {
    git(root, ['remote', 'remove', REMOTE]);
    rmSync(scratch, { recursive: true, force: true });
    await leaveWindowClean(s);
    await sim.close();
  });

  async function check(path: string, progress: string[] = []): Promise<string> {
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path });
      progress.push(...user.progressReports);
      return user.lastMessage()?.message ?? '';
    } finally {
      user.restore();
    }
  }

  /** A finished job with a pull request on `ref`, tracked here and linked to the page's signal. */
  async function linkedJob(path: string, ref: string, finishedAt: number): Promise<void> {
    const job = sim.addJob(PROJECT, { status: 'completed', source: { repository: mirrorUrl, ref }, prLink: 'https://github.com/acme/docs/pull/12' });
    await s.tracker.track(job.id);
    const iso = (t: number) => new Date(t).toISOString();
    s.signals.links.remember(PROJECT, {
      jobId: job.id,
      signalIds: [`page:${path}`],
      path,
      searches: [],
      askedAt: iso(finishedAt - DAY),
      finishedAt: iso(finishedAt),
    });
  }

  it('with the branch merged in the workspace history, the windows start at the merge and the message says so', async () => {
    await linkedJob('/quickstart', BRANCH, Date.now() - 29 * DAY);
    const progress: string[] = [];
    const message = await check('/quickstart', progress);
    const day = new Date(mergedAt).toISOString().slice(0, 10);
    assert.ok(message.includes(`/quickstart, ${wholeDaysSince(mergedAt)} days before vs after, since the merge of ${BRANCH} on ${day}:`), message);
    assert.deepEqual(
      progress,
      [`looking for the merge of ${BRANCH} in the git history…`, `comparing ${wholeDaysSince(mergedAt)} days before and after…`],
      'the notification says what it waits for',
    );
  });

  it('without a merge (the branch is not in the history) it counts from the job finish, and says so', async () => {
    const finishedAt = Date.now() - 15 * DAY;
    await linkedJob('/guides/webhooks', 'mintlify/never-merged', finishedAt);
    const message = await check('/guides/webhooks');
    assert.ok(
      message.includes(`${wholeDaysSince(finishedAt)} days before vs after, since the job finished on ${new Date(finishedAt).toISOString().slice(0, 10)}:`),
      message,
    );
  });
  describe('while git waits or fails', () => {
    // The Git extension found git on PATH (its path is plain `git`): a wrapper first on PATH is the
    // git this window runs. Only the merge walk (`git log --ancestry-path`) waits or fails.
    let wrapper: SlowGit;
    let path: string | undefined;
    before(() => {
      const api = vscode.extensions.getExtension<{ getAPI(v: 1): GitApiLike }>('vscode.git')!.exports.getAPI(1);
      assert.equal(api.git.path, 'git', 'the Git extension runs git from PATH, so the test can put a slow git first on it');
      wrapper = slowGit();
      path = process.env.PATH;
      process.env.PATH = `${wrapper.dir}:${path ?? ''}`;
    });
    after(() => {
      process.env.PATH = path;
      wrapper.remove();
    });
    /** The comparison's requests (its first is always the page's contextual votes); a background snapshot asks without `source`. */
    const analyticsRequests = () => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/') && r.query.source === 'contextual').length;

    it('Cancel while git walks the history kills git, says "Did It Help? cancelled." and asks the API nothing', async () => {
      wrapper.setMode('slow');
      await linkedJob('/cancelled-during-git', BRANCH, Date.now() - 29 * DAY);
      const requests = analyticsRequests();
      const walks = wrapper.walkPids().length;
      const user = new ScriptedUser(s.ui);
      try {
        const running = vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path: '/cancelled-during-git' });
        const pid = await waitFor('git to wait in its history walk', () => wrapper.walkPids()[walks]);
        await waitFor('the waiting git and its child to run', () => processesInGroup(pid).length >= 2);
        assert.deepEqual(user.progressReports, [`looking for the merge of ${BRANCH} in the git history…`]);
        user.pressCancel();
        await running;
        assert.deepEqual(
          user.messages.map((m) => m.message),
          ['Did It Help? cancelled.'],
        );
        await waitFor('no process of that git left', () => processesInGroup(pid).length === 0);
        assert.equal(analyticsRequests(), requests, 'no comparison was asked for');
      } finally {
        user.restore();
      }
    });

    it('Cancel while comparing aborts the requests: no analytics request is sent', async () => {
      wrapper.setMode('real');
      await linkedJob('/cancelled-while-comparing', BRANCH, Date.now() - 29 * DAY);
      const requests = analyticsRequests();
      const user = new ScriptedUser(s.ui);
      user.cancelAfterReports = 2; // "comparing…"
      try {
        await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path: '/cancelled-while-comparing' });
        assert.equal(user.progressReports.length, 2);
        assert.deepEqual(
          user.messages.map((m) => m.message),
          ['Did It Help? cancelled.'],
        );
        assert.equal(analyticsRequests(), requests);
      } finally {
        user.restore();
      }
    });

    it('a git that fails is no error: it counts from the job finish, and says so', async () => {
      wrapper.setMode('fail');
      // Asked before the merge: with git answering, the merge would count.
      const finishedAt = Date.now() - 25 * DAY;
      await linkedJob('/git-failed', BRANCH, finishedAt);
      const pids = wrapper.walkPids().length;
      const user = new ScriptedUser(s.ui);
      try {
        await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path: '/git-failed' });
        assert.ok(wrapper.walkPids().length > pids, 'the failing git was asked');
        assert.equal(user.messages.length, 1, 'one answer, no error');
        assert.equal(user.lastMessage()?.level, 'info');
        assert.ok(
          user.lastMessage()?.message.includes(`since the job finished on ${new Date(finishedAt).toISOString().slice(0, 10)}:`),
          user.lastMessage()?.message,
        );
      } finally {
        user.restore();
      }
    });
  });
});
