// A git that is slow to tell a repository's state while the test holds it, as git on a large
// repository is when a window starts: VS Code's Git extension opens the repository at once and knows
// its remotes only once its first look at the state has ended (`git for-each-ref` for the branches,
// then `git status`). A directory holding a `git` shell script: while the hold file exists, those
// two wait for it to go (at most two minutes, then go on); every call then exec's the real git.
// Give its `path` to VS Code as the `git.path` setting.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HeldGit {
  /** The wrapper's own path (a git path). */
  path: string;
  /** From now on `git for-each-ref` and `git status` wait, until release(). */
  hold(): void;
  release(): void;
  remove(): void;
}

export function heldGit(): HeldGit {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-held-git-'));
  const holdFile = join(dir, 'hold');
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = [
    '#!/bin/sh',
    'case " $* " in',
    '  *" for-each-ref "* | *" status "*)',
    '    waited=0',
    `    while [ -e ${q(holdFile)} ] && [ $waited -lt 1200 ]; do sleep 0.1; waited=$((waited + 1)); done ;;`,
    'esac',
    `exec ${q(realGit)} "$@"`,
    '',
  ].join('\n');
  const path = join(dir, 'git');
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return {
    path,
    hold: () => writeFileSync(holdFile, ''),
    release: () => rmSync(holdFile, { force: true }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
