// The merge of a job's branch in this workspace's clone of its repository, if git shows one (see
// mergeTime.ts for how it is found). Loads the Git extension only when asked ("Did it help?").
import { findClone } from './branchReview';
import { loadGitApi } from './gitApi';
import { findMerge, gitRunner, type MergeFound } from './mergeTime';

export async function mergeOfJobBranch(job: { repository?: string; ref?: string | null } | undefined): Promise<(MergeFound & { branch: string }) | undefined> {
  if (!job?.ref || !job.repository) return undefined;
  const api = await loadGitApi().catch(() => 'missing' as const);
  if (typeof api === 'string') return undefined;
  const clone = findClone(api, job.repository);
  if (!clone) return undefined;
  const found = await findMerge(gitRunner(api.git.path, clone.repository.rootUri.fsPath), job.ref, clone.remote.name);
  return found && { ...found, branch: job.ref };
}
