// A git that is slow (or failing) for real, for the tests of Did It Help?'s Cancel and fallback: a
// directory holding a `git` shell script that, for the merge walk only (`git log --ancestry-path`),
// writes its pid and then sleeps (a child `sleep`, as a stuck git would hold a helper) or fails;
// every other call, and the walk in `real` mode, exec's the real git. Put the directory first on
// PATH, or pass its `git` as the git path.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type SlowGitMode = 'slow' | 'fail' | 'real';

export interface SlowGit {
  dir: string;
  /** The wrapper's own path (a git path). */
  path: string;
  setMode(mode: SlowGitMode): void;
  /** Pids of the wrappers that reached the merge walk, oldest first. */
  walkPids(): number[];
  remove(): void;
}

export function slowGit(): SlowGit {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-slow-git-'));
  const pids = join(dir, 'pids');
  const mode = join(dir, 'mode');
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = [
    '#!/bin/sh',
    'case " $* " in',
    '  *" --ancestry-path "*)',
    `    echo $$ >> ${q(pids)}`,
    `    case "$(cat ${q(mode)})" in`,
    '      slow) sleep 600 ;;',
    '      fail) echo "fatal: the test made this git fail" >&2; exit 128 ;;',
    '    esac ;;',
    'esac',
    `exec ${q(realGit)} "$@"`,
    '',
  ].join('\n');
  const path = join(dir, 'git');
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  writeFileSync(mode, 'real');
  return {
    dir,
    path,
    setMode: (m) => writeFileSync(mode, m),
    walkPids: () => (existsSync(pids) ? readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number) : []),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Live (not zombie) processes of the process group `pgid` on this machine, from /proc (Linux). */
export function processesInGroup(pgid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') found.push(Number(name));
  }
  return found;
}
