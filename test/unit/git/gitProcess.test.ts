// The git process runner review comments and Did It Help? read git through: its output, its time
// limit and Cancel (each killing git with whatever it started), and a failing git's own words. A real
// git, and a wrapper that sleeps or fails on `git log --ancestry-path` (test/support/slowGit.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitRunner, GitStopped } from '../../../src/git/gitProcess';
import { processesInGroup, slowGit } from '../../support/slowGit';
import { waitFor } from '../../support/waitFor';

const WALK = ['log', '--ancestry-path', 'HEAD'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('the git process runner', function () {
  this.timeout(20_000);
  const wrapper = slowGit();
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mintlify-git-process-'));
    git(dir, 'init', '--quiet', '-b', 'main');
    writeFileSync(join(dir, 'index.mdx'), '# Home\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '--quiet', '-m', 'Start');
  });
  after(() => {
    wrapper.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it("resolves with git's output", async () => {
    wrapper.setMode('real');
    assert.equal((await gitRunner(wrapper.path, dir)(['rev-parse', 'HEAD'])).trim(), git(dir, 'rev-parse', 'HEAD').trim());
  });

  it('Cancel kills git with what it started, rejects with GitStopped, and starts no further git', async () => {
    wrapper.setMode('slow');
    const stop = new AbortController();
    const before = wrapper.walkPids().length;
    const run = gitRunner(wrapper.path, dir, { signal: stop.signal });
    const walk = run(WALK);
    await waitFor('the walk to start', () => wrapper.walkPids().length === before + 1);
    const pid = wrapper.walkPids()[before];
    await waitFor('git (the wrapper) and its sleeping child to run', () => processesInGroup(pid).length >= 2);
    stop.abort();
    await assert.rejects(walk, (error: unknown) => error instanceof GitStopped && error.reason === 'cancelled');
    await waitFor('no process of that git left', () => processesInGroup(pid).length === 0);
    await assert.rejects(run(['rev-parse', 'HEAD']), GitStopped, 'an aborted runner starts no git');
  });

  it('a git past its time limit is killed with what it started and rejects with GitStopped', async () => {
    wrapper.setMode('slow');
    const before = wrapper.walkPids().length;
    await assert.rejects(gitRunner(wrapper.path, dir, { timeoutMs: 300 })(WALK), (e: unknown) => e instanceof GitStopped && e.reason === 'timeout');
    const pid = wrapper.walkPids()[before];
    assert.ok(pid, 'the walk ran');
    await waitFor('no process of the timed-out git left', () => processesInGroup(pid).length === 0);
  });

  it('a git that fails rejects with what git said', async () => {
    wrapper.setMode('fail');
    await assert.rejects(gitRunner(wrapper.path, dir)(WALK), /the test made this git fail/);
  });
});
