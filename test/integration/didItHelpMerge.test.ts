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
import type { TestSeam } from '../../src/extension';
import type { Simulator } from '../simulator/server';
import { freshAnalyticsHour, leaveWindowClean, PROJECT, ScriptedUser, seam, setProject, signIn, waitFor, withSimulator } from './support';

const BRANCH = 'mintlify/clarify-quickstart';
const REMOTE = 'docs-mirror';
const DAY = 86_400_000;
/** The documented window length: the whole days after the change's day, up to yesterday (at most 28). */
const wholeDaysSince = (at: number) => Math.min(28, Math.floor(Date.now() / DAY) - Math.floor(at / DAY) - 1);

function git(cwd: string, args: string[], at?: number): string {
  const env = at === undefined ? process.env : { ...process.env, GIT_AUTHOR_DATE: `@${Math.round(at / 1000)} +0000`, GIT_COMMITTER_DATE: `@${Math.round(at / 1000)} +0000` };
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

interface GitApiLike {
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

  async function check(path: string): Promise<string> {
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path });
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
    await s.signals.links.remember(PROJECT, { jobId: job.id, signalIds: [`page:${path}`], path, searches: [], askedAt: iso(finishedAt - DAY), finishedAt: iso(finishedAt) });
  }

  it('with the branch merged in the workspace history, the windows start at the merge and the message says so', async () => {
    await linkedJob('/quickstart', BRANCH, Date.now() - 29 * DAY);
    const message = await check('/quickstart');
    const day = new Date(mergedAt).toISOString().slice(0, 10);
    assert.ok(message.includes(`/quickstart, ${wholeDaysSince(mergedAt)} days before vs after, since the merge of ${BRANCH} on ${day}:`), message);
  });

  it('without a merge (the branch is not in the history) it counts from the job finish, and says so', async () => {
    const finishedAt = Date.now() - 15 * DAY;
    await linkedJob('/guides/webhooks', 'mintlify/never-merged', finishedAt);
    const message = await check('/guides/webhooks');
    assert.ok(message.includes(`${wholeDaysSince(finishedAt)} days before vs after, since the job finished on ${new Date(finishedAt).toISOString().slice(0, 10)}:`), message);
  });
});
