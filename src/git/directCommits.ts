// The agent's commits on a branch, as this workspace's git shows them: for a completed job that
// opened no pull request. The platform's agent either opens a pull request or, depending on the
// project's review process setting, commits straight to the deployment branch; prLink null says
// only that there is no pull request. Here, after the writer let Review Changes fetch the branch,
// the commits the Mintlify agent made on it while the job ran are found, and grouped into runs
// that follow one another (a run is shown as one diff: a teammate's commit in between is not).
//
// The agent commits as the Mintlify GitHub App, `mintlify[bot]`: a commit is the agent's when its
// author or committer is that identity, or a Co-authored-by line names it (commits made for a
// writer whose GitHub account is connected). "While the job ran": committed from the job's start
// to the read that found it finished, a few minutes of clock difference allowed each side.
// Bounded: the walk stops at a commit limit and a day before the job started; each git call has
// the runner's time limit. No vscode import: unit-tested directly on real repositories.
import { isSafeBranchName } from './branchName';
import type { GitRun } from './gitProcess';

/** The Mintlify GitHub App's name, in a commit's author, committer or Co-authored-by line. */
const AGENT = /(^|[\s<+])mintlify\[bot\]/i;
/** Commits walked at most (newest first) on the branch. */
const MAX_WALK = 2_000;
/** Clocks differ: the platform's job times and the commits' times are allowed this far apart. */
const SKEW_MS = 5 * 60_000;

interface AgentCommit {
  hash: string;
  /** Its first parent: the commit before it on the branch (undefined for a root commit). */
  parent: string | undefined;
  subject: string;
  /** Committer time, epoch ms. */
  at: number;
}

/** Agent commits that follow one another on the branch: shown as one diff, from `base` to `tip`. */
interface CommitRun {
  base: string;
  tip: string;
  commits: AgentCommit[];
}

/**
 * The agent's commits on `branch` of `remote` (its remote-tracking ref, fetched just before),
 * committed between `from` and `to` (epoch ms), oldest first. Rejects when git cannot read the ref.
 */
export async function agentCommitsOn(git: GitRun, remote: string, branch: string, { from, to }: { from: number; to: number }): Promise<AgentCommit[]> {
  // The names come from the API and the Git extension: only plain names reach git.
  if (!isSafeBranchName(branch) || !isSafeBranchName(remote)) return [];
  const since = Math.floor((from - 24 * 3_600_000) / 1000);
  // One record a commit (NUL-separated), its fields separated by US (0x1f); the subject last.
  const out = await git([
    'log',
    '-z',
    '--no-merges',
    `--max-count=${MAX_WALK}`,
    `--since=@${since}`,
    '--format=%H%x1f%P%x1f%ct%x1f%an <%ae>%x1f%cn <%ce>%x1f%(trailers:key=Co-authored-by,valueonly,separator=%x2c)%x1f%s',
    `refs/remotes/${remote}/${branch}`,
    '--',
  ]);
  const commits: AgentCommit[] = [];
  for (const record of out.split('\0')) {
    const [hash, parents, seconds, author, committer, coAuthors, subject] = record.replace(/^\n/, '').split('\x1f');
    if (!hash || !/^[0-9a-f]{40,64}$/.test(hash)) continue;
    const at = Number(seconds) * 1000;
    if (!(at >= from - SKEW_MS && at <= to + SKEW_MS)) continue;
    if (![author, committer, coAuthors].some((who) => AGENT.test(who ?? ''))) continue;
    commits.push({ hash, parent: parents?.split(' ')[0] || undefined, subject: subject ?? '', at });
  }
  return commits.reverse();
}

/** The commits grouped into runs, each following the one before it on the branch (oldest first). */
export function commitRuns(commits: readonly AgentCommit[]): CommitRun[] {
  const runs: CommitRun[] = [];
  for (const commit of commits) {
    const last = runs.at(-1);
    if (last && commit.parent === last.tip) {
      last.commits.push(commit);
      last.tip = commit.hash;
    } else if (commit.parent) runs.push({ base: commit.parent, tip: commit.hash, commits: [commit] });
  }
  return runs;
}
