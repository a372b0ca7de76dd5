// The merge of a job's branch in this workspace's clone of its repository, if git shows one (see
// mergeTime.ts for how it is found). Loads the Git extension only when asked ("Did it help?").
// Bounded like Review Changes' fetch: the whole lookup has a deadline, and the caller's signal
// (the progress notification's Cancel) kills the running git. Nothing runs in a folder that is not
// trusted (Restricted Mode): the caller says so.
import * as vscode from 'vscode';
import { runBounded } from '../util/bounded';
import { findClone } from './branchReview';
import { loadGitApi } from './gitApi';
import { gitRunner } from './gitProcess';
import { findMerge, type MergeFound } from './mergeTime';

/** The whole lookup (a few rev-parse and up to two log walks, each limited too) ends by then. */
export const MERGE_LOOKUP_TIMEOUT_MS = 20_000;

/**
 * Undefined when git shows no merge. Rejects with a BoundedRunError: `cancelled` when `signal`
 * aborts (git is killed), `timeout` past the deadline; with another error when Git cannot be asked.
 */
export async function mergeOfJobBranch(
  job: { repository?: string; ref?: string | null } | undefined,
  signal?: AbortSignal,
): Promise<(MergeFound & { branch: string }) | undefined> {
  if (!job?.ref || !job.repository || !vscode.workspace.isTrusted) return undefined;
  const { ref, repository } = job;
  const api = await loadGitApi().catch(() => 'missing' as const);
  if (typeof api === 'string') return undefined;
  const clone = findClone(api, repository);
  if (!clone) return undefined;
  const found = await runBounded((stop) => findMerge(gitRunner(api.git.path, clone.repository.rootUri.fsPath, { signal: stop }), ref, clone.remote.name), {
    timeoutMs: MERGE_LOOKUP_TIMEOUT_MS,
    signal,
  });
  return found && { ...found, branch: ref };
}
