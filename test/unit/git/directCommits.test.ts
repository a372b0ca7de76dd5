// A completed job without a pull request may have committed straight to its branch: real
// repositories (a bare remote and a clone that fetched it) where the Mintlify agent and a teammate
// both commit before, while and after a job, and which commits are the agent's while it ran.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { agentCommitsOn, commitRuns } from '../../../src/git/directCommits';
import { gitRunner } from '../../../src/git/gitProcess';

const BOT = { name: 'mintlify[bot]', email: '109931778+mintlify[bot]@users.noreply.github.com' };
const TEAMMATE = { name: 'Ada', email: 'ada@example.com' };
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 20, 12);

function git(cwd: string, args: string[], who = TEAMMATE, at = START): string {
  const date = `@${Math.floor(at / 1000)} +0000`;
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

describe('the agent’s commits on a branch, for a job without a pull request (src/git/directCommits.ts)', function () {
  this.timeout(20_000);
  let root: string;
  let clone: string;
  const hashes: Record<string, string> = {};

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'mintlify-direct-'));
    const bare = join(root, 'docs.git');
    git(root, ['init', '--quiet', '--bare', bare]);
    const work = join(root, 'work');
    git(root, ['clone', '--quiet', pathToFileURL(bare).href, work]);
    const commit = (name: string, file: string, who: typeof BOT, at: number, message = name) => {
      writeFileSync(join(work, file), `${name}\n`);
      git(work, ['add', '-A']);
      git(work, ['commit', '--quiet', '-m', message], who, at);
      hashes[name] = git(work, ['rev-parse', 'HEAD']);
    };
    commit('docs', 'index.mdx', TEAMMATE, START - 5 * HOUR);
    commit('earlier agent job', 'old.mdx', BOT, START - 2 * HOUR);
    commit('teammate before', 'team.mdx', TEAMMATE, START - HOUR);
    commit('agent 1', 'quickstart.mdx', BOT, START + 10 * 60_000);
    commit('agent 2', 'sdks.mdx', BOT, START + 11 * 60_000);
    commit('teammate during', 'team.mdx', TEAMMATE, START + 15 * 60_000);
    // For a writer whose GitHub account is connected: theirs, with the app as co-author.
    commit(
      'agent 3',
      'webhooks.mdx',
      TEAMMATE,
      START + 20 * 60_000,
      'agent 3\n\nCo-authored-by: mintlify[bot] <109931778+mintlify[bot]@users.noreply.github.com>',
    );
    commit('later agent job', 'later.mdx', BOT, START + 3 * HOUR);
    git(work, ['push', '--quiet', 'origin', 'HEAD:refs/heads/live']);
    clone = join(root, 'clone');
    git(root, ['clone', '--quiet', pathToFileURL(bare).href, clone]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('finds exactly the commits the agent made while the job ran, oldest first: not a teammate’s, not another job’s', async () => {
    const run = gitRunner('git', clone);
    const found = await agentCommitsOn(run, 'origin', 'live', { from: START, to: START + HOUR });
    assert.deepEqual(
      found.map((c) => c.subject),
      ['agent 1', 'agent 2', 'agent 3'],
    );
    assert.deepEqual(
      found.map((c) => c.hash),
      [hashes['agent 1'], hashes['agent 2'], hashes['agent 3']],
    );
    assert.equal(found[0].parent, hashes['teammate before']);
  });

  it('groups them into runs that follow one another: a teammate’s commit in between starts another', async () => {
    const found = await agentCommitsOn(gitRunner('git', clone), 'origin', 'live', { from: START, to: START + HOUR });
    assert.deepEqual(
      commitRuns(found).map((r) => [r.base, r.tip, r.commits.length]),
      [
        [hashes['teammate before'], hashes['agent 2'], 2],
        [hashes['teammate during'], hashes['agent 3'], 1],
      ],
    );
  });

  it('finds none while the job’s time held no agent commit, and reads nothing for a name that is not a plain branch', async () => {
    const run = gitRunner('git', clone);
    assert.deepEqual(await agentCommitsOn(run, 'origin', 'live', { from: START - 50 * 60_000, to: START - 30 * 60_000 }), []);
    assert.deepEqual(await agentCommitsOn(run, 'origin', '--all', { from: START, to: START + HOUR }), []);
    await assert.rejects(agentCommitsOn(run, 'origin', 'no-such-branch', { from: START, to: START + HOUR }));
  });
});
