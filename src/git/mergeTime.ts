// When an agent's branch was merged, as the workspace's own git history shows it: for "Did it
// help?", which counts from the merge (when the change reached the docs) where git shows one.
// Local only (no fetch, no network): the branch tip is the remote-tracking ref if present (Review
// Changes fetched it), else the local branch. The merge is the oldest commit on the first-parent
// line of HEAD (or of the remote's default branch, `<remote>/HEAD`) that descends from the tip,
// `git log --first-parent --ancestry-path <tip>..<target>`, when it is a merge commit that brought
// the tip in from a side parent. A fast-forward, a squash or a rebase merge leaves no such commit
// (the tip never joins the line, or joins it without a merge): then nothing is found and the job's
// finish counts. Bounded: each git call has a time limit and the walk a commit limit; a Cancel
// (an AbortSignal given to gitRunner, gitProcess.ts) kills the running git and rejects with GitStopped.
// No vscode import: unit-tested directly on real repositories.
import { isSafeBranchName } from './branchName';
import { type GitRun, GitStopped } from './gitProcess';

export interface MergeFound {
  /** The merge commit, its committer time (epoch ms) and the line it was found on (`HEAD`, `origin/HEAD`). */
  commit: string;
  at: number;
  into: string;
}

/** Commits walked on a line at most; a merge further back than this is not looked for. */
const MAX_WALK = 5_000;

/** A failed or timed-out read counts as "nothing there"; a Cancel stops the whole search. */
function orNothing(error: unknown): string {
  if (error instanceof GitStopped && error.reason === 'cancelled') throw error;
  return '';
}

/** The earliest merge of `branch` into HEAD or `<remote>/HEAD`, or undefined when git shows none (or fails). Rejects only on Cancel. */
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
  const out = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(orNothing);
  const hash = out.trim();
  return /^[0-9a-f]{40,64}$/.test(hash) ? hash : undefined;
}

async function mergeOn(git: GitRun, tip: string, target: string, into: string): Promise<MergeFound | undefined> {
  const out = await git(['log', '--first-parent', '--ancestry-path', `--max-count=${MAX_WALK}`, '--format=%H %ct %P', `${tip}..${target}`]).catch(orNothing);
  const lines = out.trim().split('\n').filter(Boolean);
  // Empty: not merged into this line. At the limit: the oldest shown may not be the merge.
  if (!lines.length || lines.length >= MAX_WALK) return undefined;
  const [commit, seconds, firstParent, ...sideParents] = lines[lines.length - 1].split(' ');
  // A first parent equal to the tip is a fast-forward (or linear history): no merge commit to date it by.
  if (!sideParents.length || firstParent === tip) return undefined;
  return { commit, at: Number(seconds) * 1000, into };
}
