// "Did it help?" counts from the merge of the agent's branch where the workspace's git shows one:
// real repositories (a bare remote and a clone) with a merge commit, a fast-forward, a squash, a
// branch merged only on the remote's default branch, and one not merged; and which event counts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitRunner, GitStopped, type GitRun } from '../../../src/git/gitProcess';
import { findMerge } from '../../../src/git/mergeTime';
import { changeEvent } from '../../../src/signals/didItHelp';
import { processesInGroup, slowGit } from '../../support/slowGit';
import { waitFor } from '../../support/waitFor';

const BRANCH = 'mintlify/fix-quickstart';
/** Each commit one day after the last, so every time is known. */
let clock = Date.UTC(2026, 9, 1) / 1000;

function git(cwd: string, ...args: string[]): string {
  clock += 86_400;
  const date = `@${clock} +0000`;
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A repository on main with one commit, and the agent's branch with two commits beside it. */
function repoWithBranch(root: string): string {
  const dir = mkdtempSync(join(root, 'repo-'));
  git(dir, 'init', '--quiet');
  writeFileSync(join(dir, 'quickstart.mdx'), '# Quickstart\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'Docs');
  git(dir, 'checkout', '--quiet', '-b', BRANCH);
  writeFileSync(join(dir, 'quickstart.mdx'), '# Quickstart\n\nClearer.\n');
  git(dir, 'commit', '--quiet', '-am', 'Agent: clarify');
  writeFileSync(join(dir, 'quickstart.mdx'), '# Quickstart\n\nClearer still.\n');
  git(dir, 'commit', '--quiet', '-am', 'Agent: clarify more');
  git(dir, 'checkout', '--quiet', 'main');
  return dir;
}

const committedAt = (dir: string, rev: string) => Number(git(dir, 'show', '-s', '--format=%ct', rev)) * 1000;

describe('merge time of the agent branch (Did It Help?)', function () {
  this.timeout(20_000);
  let root: string;
  before(() => (root = mkdtempSync(join(tmpdir(), 'mintlify-merge-'))));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('finds the merge commit on HEAD that brought the branch tip in, with its time', async () => {
    const dir = repoWithBranch(root);
    writeFileSync(join(dir, 'other.mdx'), 'Meanwhile on main.\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '--quiet', '-m', 'Unrelated work');
    git(dir, 'merge', '--quiet', '--no-ff', '-m', 'Merge the agent PR', BRANCH);
    const merge = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'commit', '--quiet', '--allow-empty', '-m', 'Later work');
    assert.deepEqual(await findMerge(gitRunner('git', dir), BRANCH, undefined), { commit: merge, at: committedAt(dir, merge), into: 'HEAD' });
  });

  it('uses the remote-tracking ref, no fetch: a branch merged on the remote default branch (origin/HEAD) while HEAD is behind', async () => {
    const seed = repoWithBranch(root);
    const bare = join(root, `remote-${Date.now()}.git`);
    git(root, 'init', '--quiet', '--bare', bare);
    git(seed, 'push', '--quiet', pathToFileURL(bare).href, 'main', BRANCH);
    const clone = join(root, `clone-${Date.now()}`);
    git(root, 'clone', '--quiet', pathToFileURL(bare).href, clone);
    // The PR is merged on the remote; the clone fetches it (as Review Changes or a pull would) but stays on its old main.
    git(seed, 'merge', '--quiet', '--no-ff', '-m', 'Merge pull request #7', BRANCH);
    git(seed, 'push', '--quiet', pathToFileURL(bare).href, 'main');
    git(clone, 'fetch', '--quiet', 'origin');
    const merge = git(clone, 'rev-parse', 'origin/main');
    const calls: string[][] = [];
    const run = gitRunner('git', clone);
    const spy: GitRun = (args) => (calls.push(args), run(args));
    assert.deepEqual(await findMerge(spy, BRANCH, 'origin'), { commit: merge, at: committedAt(clone, merge), into: 'origin/HEAD' });
    assert.ok(
      calls.every((args) => ['rev-parse', 'log'].includes(args[0])),
      'only local reads: no fetch, nothing written',
    );
  });

  it('finds nothing for a branch not merged, fast-forwarded, squashed, or unknown here', async () => {
    const notMerged = repoWithBranch(root);
    assert.equal(await findMerge(gitRunner('git', notMerged), BRANCH, undefined), undefined, 'not merged');
    assert.equal(await findMerge(gitRunner('git', notMerged), 'mintlify/never-fetched', 'origin'), undefined, 'unknown branch');

    const fastForward = repoWithBranch(root);
    git(fastForward, 'merge', '--quiet', '--ff-only', BRANCH);
    git(fastForward, 'commit', '--quiet', '--allow-empty', '-m', 'Later work');
    assert.equal(await findMerge(gitRunner('git', fastForward), BRANCH, undefined), undefined, 'a fast-forward has no merge commit to date');

    const squashed = repoWithBranch(root);
    git(squashed, 'merge', '--quiet', '--squash', BRANCH);
    git(squashed, 'commit', '--quiet', '-m', 'Squashed agent PR');
    assert.equal(await findMerge(gitRunner('git', squashed), BRANCH, undefined), undefined, 'a squash never brings the tip in');
  });

  it('never hands git a branch name that is an option or a revision expression', async () => {
    const calls: string[][] = [];
    const spy: GitRun = async (args) => (calls.push(args), '');
    for (const name of ['--output=/tmp/x', 'main..HEAD', 'a:b']) assert.equal(await findMerge(spy, name, 'origin'), undefined, name);
    assert.deepEqual(calls, []);
  });

  it("counts from the merge when there is one, else from the job finish; a merge older than the job is another branch's", () => {
    const askedAt = Date.UTC(2026, 9, 1);
    const finishedAt = askedAt + 3_600_000;
    const merge = { at: finishedAt + 2 * 86_400_000, branch: BRANCH };
    assert.deepEqual(changeEvent(finishedAt, askedAt, merge), { kind: 'merge', at: merge.at, branch: BRANCH });
    assert.deepEqual(changeEvent(finishedAt, askedAt, undefined), { kind: 'finish', at: finishedAt });
    assert.deepEqual(changeEvent(finishedAt, askedAt, { at: askedAt - 86_400_000, branch: BRANCH }), { kind: 'finish', at: finishedAt });
    assert.deepEqual(changeEvent(undefined, askedAt, merge), { kind: 'merge', at: merge.at, branch: BRANCH }, 'merged though no window saw the job finish');
    assert.equal(changeEvent(undefined, askedAt, undefined), undefined);
  });
  describe('a git that waits or fails', () => {
    const wrapper = slowGit();
    after(() => wrapper.remove());
    /** A repository where the branch is merged: with a real git the merge is found. */
    function merged(): string {
      const dir = repoWithBranch(root);
      git(dir, 'merge', '--quiet', '--no-ff', '-m', 'Merge the agent PR', BRANCH);
      return dir;
    }

    it('Cancel stops the lookup: the waiting git is killed with what it started, it rejects with GitStopped, and no git runs after', async () => {
      wrapper.setMode('slow');
      const dir = merged();
      const stop = new AbortController();
      const calls: string[][] = [];
      const run = gitRunner(wrapper.path, dir, { signal: stop.signal });
      const lookup = findMerge((args) => (calls.push(args), run(args)), BRANCH, undefined);
      await waitFor('the merge walk to start', () => wrapper.walkPids().length === 1);
      const [pid] = wrapper.walkPids();
      await waitFor('git (the wrapper) and its sleeping child to run', () => processesInGroup(pid).length >= 2);
      stop.abort();
      await assert.rejects(lookup, (error: unknown) => error instanceof GitStopped && error.reason === 'cancelled');
      await waitFor('no process of that git left', () => processesInGroup(pid).length === 0);
      assert.equal(calls.at(-1)?.[0], 'log', 'nothing ran after the cancelled walk');
    });

    it('a git past its time limit is killed and reads as "no merge"; so does a git that fails', async () => {
      wrapper.setMode('slow');
      const dir = merged();
      const before = wrapper.walkPids().length;
      assert.equal(await findMerge(gitRunner(wrapper.path, dir, { timeoutMs: 300 }), BRANCH, undefined), undefined);
      const pid = wrapper.walkPids()[before];
      assert.ok(pid, 'the walk ran');
      await waitFor('no process of the timed-out git left', () => processesInGroup(pid).length === 0);

      wrapper.setMode('fail');
      assert.equal(await findMerge(gitRunner(wrapper.path, dir), BRANCH, undefined), undefined);

      wrapper.setMode('real');
      assert.equal(
        (await findMerge(gitRunner(wrapper.path, dir), BRANCH, undefined))?.into,
        'HEAD',
        'the same repository through the wrapper, with git answering',
      );
    });
  });
});
