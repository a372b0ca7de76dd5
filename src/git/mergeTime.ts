// When an agent's branch was merged, as the workspace's own git history shows it: for "Did it
// help?", which counts from the merge (when the change reached the docs) where git shows one.
// Local only (no fetch, no network): the branch tip is the remote-tracking ref if present (Review
// Changes fetched it), else the local branch. The merge is the oldest commit on the first-parent
// line of HEAD (or of the remote's default branch, `<remote>/HEAD`) that descends from the tip,
// `git log --first-parent --ancestry-path <tip>..<target>`, when it is a merge commit that brought
// the tip in from a side parent. A fast-forward, a squash or a rebase merge leaves no such commit
// (the tip never joins the line, or joins it without a merge): then nothing is found and the job's
// finish counts. Bounded: each git call has a time limit and the walk a commit limit; a Cancel
// (an AbortSignal given to gitRunner) kills the running git and rejects with GitStopped.
// No vscode import: unit-tested directly on real repositories.
import { type ChildProcess, spawn } from 'node:child_process';
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
const MAX_OUTPUT = 8 * 1024 * 1024;

/** A git call stopped before it finished: by the caller's signal (Cancel) or by its own time limit. */
export class GitStopped extends Error {
  override readonly name = 'GitStopped';
  constructor(readonly reason: 'cancelled' | 'timeout') {
    super(reason === 'cancelled' ? 'git was cancelled.' : 'git did not finish in time.');
  }
}

/**
 * git (spawned) in `cwd`, with a time limit, no optional locks and no prompt. When `signal`
 * aborts (or the limit passes) the process is killed with whatever it started: on POSIX git runs
 * in its own process group and the whole group gets SIGKILL, so a helper git spawned (or a wrapper
 * script's child) is not left behind. After an abort no further git is started.
 */
export function gitRunner(gitPath: string, cwd: string, { signal, timeoutMs = CALL_TIMEOUT_MS }: { signal?: AbortSignal; timeoutMs?: number } = {}): GitRun {
  const ownGroup = process.platform !== 'win32';
  return (args) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new GitStopped('cancelled'));
      const child = spawn(gitPath, args, {
        cwd,
        detached: ownGroup,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      let failure: Error | undefined;
      const stop = (why: Error) => {
        if (failure) return;
        failure = why;
        killProcess(child, ownGroup);
      };
      const onAbort = () => stop(new GitStopped('cancelled'));
      const timer = setTimeout(() => stop(new GitStopped('timeout')), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT) stop(new Error(`git ${args[0]}: more output than ${MAX_OUTPUT} bytes`));
        else out.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      const settle = (error: Error | undefined, code: number | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const problem =
          failure ?? error ?? (code === 0 ? undefined : new Error(`git ${args[0]}: ${Buffer.concat(err).toString('utf8').trim() || `exit code ${code}`}`));
        if (problem) reject(problem);
        else resolve(Buffer.concat(out).toString('utf8'));
      };
      // 'error' (git not found) may come without 'close'; 'close' comes once both pipes are done.
      child.once('error', (error) => settle(error, null));
      child.once('close', (code) => settle(undefined, code));
    });
}

function killProcess(child: ChildProcess, ownGroup: boolean): void {
  try {
    // The negative pid is the group: git and anything it started.
    if (ownGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Already gone (ESRCH): nothing left to stop.
  }
}

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
