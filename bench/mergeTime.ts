// Figure 9: how long "Did It Help?" spends finding the merge of the agent's branch in local git
// history (src/git/mergeTime.ts: rev-parse + one bounded `git log --first-parent --ancestry-path`),
// on repositories with 100 and 4,000 commits on main after the merge, and for a branch never merged.
// Real git on repositories made here with `git fast-import` (quick to build, ordinary history).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitRunner } from '../src/git/gitProcess';
import { findMerge } from '../src/git/mergeTime';

export interface MergeTimeRun {
  /** Commits on main after the merge. */
  after: number;
  found: boolean;
  ms: number[];
}

const BRANCH = 'mintlify/fix';

/** main: 1 commit, the branch (2 commits), the merge, then `after` commits; plus an unmerged branch. */
function buildRepository(dir: string, after: number): void {
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
  const lines: string[] = [];
  let mark = 0;
  let time = 1_700_000_000;
  const commit = (ref: string, message: string, parents: number[]) => {
    mark++;
    time += 60;
    const text = `${message}\n`;
    lines.push(`commit ${ref}`, `mark :${mark}`, `committer Bench <bench@example.com> ${time} +0000`, `data ${Buffer.byteLength(text)}`, text.trimEnd());
    if (parents[0]) lines.push(`from :${parents[0]}`);
    for (const p of parents.slice(1)) lines.push(`merge :${p}`);
    lines.push(`M 644 inline page-${mark % 50}.mdx`, `data ${String(mark).length}`, String(mark), '');
    return mark;
  };
  const base = commit('refs/heads/main', 'Docs', []);
  const b1 = commit(`refs/heads/${BRANCH}`, 'Agent 1', [base]);
  const tip = commit(`refs/heads/${BRANCH}`, 'Agent 2', [b1]);
  const side = commit('refs/heads/main', 'Meanwhile', [base]);
  let head = commit('refs/heads/main', 'Merge the agent PR', [side, tip]);
  for (let i = 0; i < after; i++) head = commit('refs/heads/main', `Work ${i}`, [head]);
  commit('refs/heads/mintlify/unmerged', 'Never merged', [tip]);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: `${lines.join('\n')}\n` });
  execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
}

export async function measureMergeTime(runs = 7): Promise<MergeTimeRun[]> {
  const root = mkdtempSync(join(tmpdir(), 'mintlify-bench-merge-'));
  const results: MergeTimeRun[] = [];
  try {
    for (const after of [100, 4_000]) {
      const dir = join(root, `after-${after}`);
      buildRepository(dir, after);
      const git = gitRunner('git', dir);
      for (const [branch, expectFound] of [
        [BRANCH, true],
        ['mintlify/unmerged', false],
      ] as const) {
        const ms: number[] = [];
        for (let i = 0; i < runs; i++) {
          const started = performance.now();
          const found = await findMerge(git, branch, undefined);
          ms.push(performance.now() - started);
          if (Boolean(found) !== expectFound) throw new Error(`merge of ${branch} ${expectFound ? 'not found' : 'found'} (${after} commits after)`);
        }
        results.push({ after, found: expectFound, ms });
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}

export const MERGE_TIME_TEXT =
  'The real `findMerge` (src/git/mergeTime.ts) with real git, on repositories built with `git fast-import`: main with the agent branch merged by a merge commit, then 100 or 4,000 more commits; and a branch never merged. Each lookup is 3 to 4 local git calls, no network.';
