// When an agent's branch was merged, as the workspace's own git history shows it: for "Did it
// help?", which counts from the merge (when the change reached the docs) where git shows one.
// Local only (no fetch, no network): the branch tip is the remote-tracking ref if present (Review
// Changes fetched it), else the local branch. The merge is the oldest commit on the first-parent
// line of HEAD (or of the remote's default branch, `<remote>/HEAD`) that descends from the tip,
// `git log --first-parent --ancestry-path <tip>..<target>`, when it is a merge commit that brought
// the tip in from a side parent. A fast-forward, a squash or a rebase merge leaves no such commit
// (the tip never joins the line, or joins it without a merge): then nothing is found and the job's
// finish counts. Bounded: each git call has a time limit and the walk a commit limit.
// No vscode import: unit-tested directly on real repositories.
import { execFile } from 'node:child_process';
import { isSafeBranchName } from './branchName';

/** Runs git with these arguments in the repository; resolves with stdout, rejects on a non-zero exit. */
export type GitRun = (args: string[]) => Promise<string>;

export interface MergeFound {
  /** The merge commit, its committer time (epoch ms) and the line it was found on (`HEAD`, `origin/HEAD`). */
  commit: string;
  at: number;
  into: string;
}

/** Commits walked on a line at most; a merge further back than this is not looked for. */
const MAX_WALK = 5_000;
const CALL_TIMEOUT_MS = 10_000;

/** git through execFile in `cwd`, with a time limit, no optional locks and no prompt. */
export function gitRunner(gitPath: string, cwd: string): GitRun {
  return (args) =>
    new Promise((resolve, reject) => {
      execFile(
        gitPath,
        args,
        { cwd, timeout: CALL_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' } },
        (error, stdout, stderr) => (error ? reject(new Error(`git ${args[0]}: ${stderr.trim() || error.message}`)) : resolve(stdout)),
      );
    });
}

/** The earliest merge of `branch` into HEAD or `<remote>/HEAD`, or undefined when git shows none. */
export async function findMerge(git: GitRun, branch: string, remote: string | undefined): Promise<MergeFound | undefined> {
  // The name comes from the API: only a plain branch name reaches git (never an option or a revision expression).
  if (!isSafeBranchName(branch) || (remote !== undefined && !isSafeBranchName(remote))) return undefined;
  const tip = (remote && (await commitOf(git, `refs/remotes/${remote}/${branch}`))) || (await commitOf(git, `refs/heads/${branch}`));
  if (!tip) return undefined;
  const targets: [string, string][] = [['HEAD', 'HEAD']];
  if (remote) targets.push([`refs/remotes/${remote}/HEAD`, `${remote}/HEAD`]);
  let earliest: MergeFound | undefined;
  for (const [ref, into] of targets) {
    const target = await commitOf(git, ref);
    if (!target) continue;
    const found = await mergeOn(git, tip, target, into);
    if (found && (!earliest || found.at < earliest.at)) earliest = found;
  }
  return earliest;
}

async function commitOf(git: GitRun, ref: string): Promise<string | undefined> {
  const out = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '');
  const hash = out.trim();
  return /^[0-9a-f]{40,64}$/.test(hash) ? hash : undefined;
}

async function mergeOn(git: GitRun, tip: string, target: string, into: string): Promise<MergeFound | undefined> {
  const out = await git(['log', '--first-parent', '--ancestry-path', `--max-count=${MAX_WALK}`, '--format=%H %ct %P', `${tip}..${target}`]).catch(() => '');
  const lines = out.trim().split('\n').filter(Boolean);
  // Empty: not merged into this line. At the limit: the oldest shown may not be the merge.
  if (!lines.length || lines.length >= MAX_WALK) return undefined;
  const [commit, seconds, firstParent, ...sideParents] = lines[lines.length - 1].split(' ');
  // A first parent equal to the tip is a fast-forward (or linear history): no merge commit to date it by.
  if (!sideParents.length || firstParent === tip) return undefined;
  return { commit, at: Number(seconds) * 1000, into };
}
