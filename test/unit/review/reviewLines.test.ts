// How a review comment's lines are followed to the agent's next round (src/review/reviewLines.ts):
// parseDiff and mapLines, on made-up diffs and on real git.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapLines, parseDiff, roundDiffArgs } from '../../../src/review/reviewLines';

describe('following a comment to the next round (parseDiff, mapLines)', () => {
  const hunks = (text: string) => parseDiff(text);

  it('a comment above, below, inside and around a change', () => {
    // Old lines 10-11 replaced by three; two lines inserted after old line 20; old line 30 deleted.
    const diff = hunks(
      [
        'diff --git a/p.mdx b/p.mdx',
        'index 1..2 100644',
        '--- a/p.mdx',
        '+++ b/p.mdx',
        '@@ -10,2 +10,3 @@',
        '-a',
        '-b',
        '+A',
        '+B',
        '+C',
        '@@ -20,0 +22,2 @@',
        '+x',
        '+y',
        '@@ -30 +31,0 @@',
        '-gone',
      ].join('\n'),
    );
    assert.deepEqual(mapLines(diff, 'p.mdx', 3, 5), { kind: 'same', path: 'p.mdx', startLine: 3, endLine: 5 });
    assert.deepEqual(mapLines(diff, 'p.mdx', 11, 12), { kind: 'outdated', path: 'p.mdx', line: 11 });
    assert.deepEqual(
      mapLines(diff, 'p.mdx', 15, 20),
      { kind: 'same', path: 'p.mdx', startLine: 16, endLine: 21 },
      'an insertion just after the range moves nothing in it',
    );
    assert.deepEqual(mapLines(diff, 'p.mdx', 20, 21), { kind: 'outdated', path: 'p.mdx', line: 21 }, 'an insertion inside the range changes it');
    assert.deepEqual(mapLines(diff, 'p.mdx', 25, 26), { kind: 'same', path: 'p.mdx', startLine: 28, endLine: 29 });
    assert.deepEqual(mapLines(diff, 'p.mdx', 30, 30), { kind: 'outdated', path: 'p.mdx', line: 33 });
    assert.deepEqual(mapLines(diff, 'p.mdx', 31, 31), { kind: 'same', path: 'p.mdx', startLine: 33, endLine: 33 });
    assert.deepEqual(mapLines(diff, 'other.mdx', 4, 4), { kind: 'same', path: 'other.mdx', startLine: 4, endLine: 4 });
  });

  describe('on real git', () => {
    let dir: string;
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim();
    const write = (path: string, lines: string[]) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), `${lines.join('\n')}\n`);
    };
    const commit = (message: string) => {
      git('add', '-A');
      git('commit', '--quiet', '-m', message);
      return git('rev-parse', 'HEAD');
    };
    const page = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} line ${i + 1}, long enough that a rename is still found as one.`);

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'mintlify-review-lines-'));
      git('init', '--quiet');
      // A user's settings that would change the output must not: no prefixes, colour always.
      git('config', 'diff.noprefix', 'true');
      git('config', 'color.ui', 'always');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('maps lines through an edit above, finds changed lines outdated, and follows a rename and a file with a space in its name', () => {
      write('docs/quickstart.mdx', page('quick', 12));
      write('docs/old name.mdx', page('renamed', 10));
      write('docs/gone.mdx', page('gone', 3));
      const first = commit('round 1');
      const quick = page('quick', 12);
      quick.splice(5, 2, 'The agent rewrote line six.', 'And line seven.');
      quick.unshift('A new first line.');
      write('docs/quickstart.mdx', quick);
      renameSync(join(dir, 'docs/old name.mdx'), join(dir, 'docs/new name.mdx'));
      const renamed = page('renamed', 10);
      renamed.splice(1, 0, 'inserted');
      write('docs/new name.mdx', renamed);
      rmSync(join(dir, 'docs/gone.mdx'));
      write('docs/added.mdx', ['new']);
      const second = commit('round 2');
      const diff = parseDiff(execFileSync('git', roundDiffArgs(first, second), { cwd: dir, encoding: 'utf8' }));
      assert.deepEqual(mapLines(diff, 'docs/quickstart.mdx', 2, 3), { kind: 'same', path: 'docs/quickstart.mdx', startLine: 3, endLine: 4 });
      assert.deepEqual(mapLines(diff, 'docs/quickstart.mdx', 6, 7), { kind: 'outdated', path: 'docs/quickstart.mdx', line: 7 });
      assert.deepEqual(mapLines(diff, 'docs/quickstart.mdx', 10, 10), { kind: 'same', path: 'docs/quickstart.mdx', startLine: 11, endLine: 11 });
      assert.deepEqual(mapLines(diff, 'docs/old name.mdx', 5, 6), { kind: 'same', path: 'docs/new name.mdx', startLine: 6, endLine: 7 });
      assert.deepEqual(mapLines(diff, 'docs/gone.mdx', 1, 1), { kind: 'outdated', path: null, line: 1 });
      assert.equal(diff.has('docs/added.mdx'), false, 'an added file had no lines to comment on');
    });

    it('refuses anything but commit ids', () => {
      assert.throws(() => roundDiffArgs('--output=/tmp/x', 'abcdef0'), /not a commit id/);
      assert.throws(() => roundDiffArgs('abcdef0', 'main'), /not a commit id/);
    });
  });
});
