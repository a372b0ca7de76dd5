// The merge of a job's branch in this workspace's clone of its repository, if git shows one (see
// mergeTime.ts for how it is found), and the files that merge brought in (the site's search replays
// a job's searches once it is live, src/search). Loads the Git extension only when asked.
// Bounded like Review Changes' fetch: the whole lookup has a deadline, and the caller's signal
// (the progress notification's Cancel) kills the running git. Nothing runs in a folder that is not
// trusted (Restricted Mode): the caller says so.
import * as vscode from 'vscode';
import { runBounded } from '../util/bounded';
import { findClone } from './branchReview';
import { loadGitApi } from './gitApi';
import { type GitRun, gitRunner } from './gitProcess';
import { findMerge, type MergeFound } from './mergeTime';

/** The whole lookup (a few rev-parse and up to two log walks, each limited too) ends by then. */
const MERGE_LOOKUP_TIMEOUT_MS = 20_000;

type JobSource = { repository?: string; ref?: string | null } | undefined;

/**
 * Undefined when git shows no merge. Rejects with a BoundedRunError: `cancelled` when `signal`
 * aborts (git is killed), `timeout` past the deadline; with another error when Git cannot be asked.
 */
export async function mergeOfJobBranch(job: JobSource, signal?: AbortSignal): Promise<(MergeFound & { branch: string }) | undefined> {
  return inClone(job, signal, (git, ref, remote) => findMerge(git, ref, remote));
}

/** The merge (as mergeOfJobBranch) and the files it changed, as files of the clone (`git diff --name-only <merge>^1 <merge>`). */
export async function mergeWithFiles(job: JobSource, signal?: AbortSignal): Promise<(MergeFound & { branch: string; files: vscode.Uri[] }) | undefined> {
  let root: vscode.Uri | undefined;
  const found = await inClone(job, signal, async (git, ref, remote, rootUri) => {
    root = rootUri;
    const merge = await findMerge(git, ref, remote);
    if (!merge) return undefined;
    const listed = await git(['diff', '--name-only', '--no-renames', '-z', `${merge.commit}^1`, merge.commit]).catch(() => '');
    return { ...merge, paths: listed.split('\0').filter(Boolean) };
  });
  if (!found || !root) return undefined;
  const clone = root;
  const { paths, ...merge } = found;
  return { ...merge, files: paths.map((path) => vscode.Uri.joinPath(clone, ...path.split('/'))) };
}

async function inClone<T>(
  job: JobSource,
  signal: AbortSignal | undefined,
  work: (git: GitRun, ref: string, remote: string, root: vscode.Uri) => Promise<T | undefined>,
): Promise<(T & { branch: string }) | undefined> {
  if (!job?.ref || !job.repository || !vscode.workspace.isTrusted) return undefined;
  const { ref, repository } = job;
  const api = await loadGitApi().catch(() => 'missing' as const);
  if (typeof api === 'string') return undefined;
  const clone = findClone(api, repository);
  if (!clone) return undefined;
  const root = clone.repository.rootUri;
  const found = await runBounded((stop) => work(gitRunner(api.git.path, root.fsPath, { signal: stop }), ref, clone.remote.name, root), {
    timeoutMs: MERGE_LOOKUP_TIMEOUT_MS,
    signal,
  });
  return found && { ...found, branch: ref };
}
