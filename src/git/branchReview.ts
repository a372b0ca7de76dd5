// Reviewing an agent's branch in this workspace: find the clone of the job's repository, fetch the
// branch, list what it changes since its merge base with the current branch, and check it out.
// Every step that cannot go on throws a ReviewProblem: a sentence and the buttons that help. Only
// the fetch writes anything (the remote-tracking ref); the working tree is touched by checkout only.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { type GitApi, type GitChange, type GitRemote, type GitRepository, GitStatus, gitReason } from './gitApi';
import { BoundedRunError, runBounded } from '../util/bounded';
import { sameRepository } from './remoteUrl';
import { WordedFailure } from '../errorMessages';

/** A reason the review or checkout cannot go on, with the buttons that help (the failure table shows it). */
export class ReviewProblem extends WordedFailure {}

/** The branch is not on the remote (merged and deleted, or never pushed). */
export class BranchGone extends ReviewProblem {}

/** One row of `vscode.changes`: the file, its content before (undefined: added), after (undefined: deleted). */
export type ChangeResource = [resource: vscode.Uri, original: vscode.Uri | undefined, modified: vscode.Uri | undefined];

export interface Clone {
  repository: GitRepository;
  remote: GitRemote;
}

/** Workspace repositories only: a repository Git found elsewhere (an open file's) is not "here". */
function workspaceRepositories(api: GitApi): GitRepository[] {
  return api.repositories.filter(
    (r) => vscode.workspace.getWorkspaceFolder(r.rootUri) || (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.fsPath.startsWith(r.rootUri.fsPath)),
  );
}

/** The workspace clone of `repositoryUrl` and its remote for it, if any (no message: for the tree). */
export function findClone(api: GitApi, repositoryUrl: string): Clone | undefined {
  for (const repository of workspaceRepositories(api)) {
    const remote = repository.state.remotes.find((r) => [r.fetchUrl, r.pushUrl].some((url) => url && sameRepository(url, repositoryUrl)));
    if (remote) return { repository, remote };
  }
  return undefined;
}

/** Like findClone, but says why there is none. */
export function requireClone(api: GitApi, repositoryUrl: string): Clone {
  const clone = findClone(api, repositoryUrl);
  if (clone) return clone;
  const repositories = workspaceRepositories(api);
  if (!repositories.length) {
    throw new ReviewProblem(
      vscode.l10n.t('This workspace has no git repository. The job works on {0}: open a clone of it to review its branch here.', repositoryUrl),
    );
  }
  const remotes = repositories.flatMap((r) => r.state.remotes.map((remote) => remote.fetchUrl ?? remote.pushUrl ?? remote.name));
  if (!remotes.length) {
    throw new ReviewProblem(
      vscode.l10n.t(
        "No remote of this workspace's repository matches {0}, the job's repository. Add it as a remote (git remote add) and try again.",
        repositoryUrl,
      ),
    );
  }
  throw new ReviewProblem(
    vscode.l10n.t(
      'This workspace is another repository ({0}). The job works on {1}: open a clone of it to review its branch.',
      remotes.join(', '),
      repositoryUrl,
    ),
  );
}

/** The user pressed Cancel on the fetch: nothing to report. */
export class ReviewCancelled extends Error {
  override readonly name = 'ReviewCancelled';
}

/**
 * Fetches the branch from the clone's remote; returns the commit it points at. Changes no file.
 * Bounded: a fetch waiting on a credential prompt or a silent remote is stopped after `timeoutMs`
 * (or when `token` fires: the notification's Cancel), and git is told to stop too.
 */
export async function fetchBranch(clone: Clone, ref: string, { timeoutMs, token }: { timeoutMs: number; token?: vscode.CancellationToken }): Promise<string> {
  const { repository, remote } = clone;
  const cancelled = new AbortController();
  const subscription = token?.onCancellationRequested(() => cancelled.abort());
  try {
    await runBounded(
      (signal) => {
        const stopGit = new vscode.CancellationTokenSource();
        signal.addEventListener('abort', () => stopGit.cancel());
        return repository.fetch({ remote: remote.name, ref, cancellationToken: stopGit.token }).finally(() => stopGit.dispose());
      },
      { timeoutMs, signal: token?.isCancellationRequested ? AbortSignal.abort() : cancelled.signal },
    );
  } catch (error) {
    if (error instanceof BoundedRunError && error.reason === 'cancelled') throw new ReviewCancelled();
    if (error instanceof BoundedRunError) {
      throw new ReviewProblem(
        vscode.l10n.t(
          'Fetching {0} from {1} did not finish within {2} seconds, so it was stopped. Git may be waiting for credentials or for a remote that does not answer: check that "git fetch {1}" works in a terminal, then try again (the mintlifyAgent.git.fetchTimeoutSeconds setting sets the limit).',
          ref,
          remote.name,
          Math.round(timeoutMs / 1000),
        ),
        ['retry'],
      );
    }
    const reason = gitReason(error);
    if (/couldn't find remote ref|no such ref|NoRemoteReference/i.test(`${reason} ${(error as { gitErrorCode?: string }).gitErrorCode ?? ''}`)) {
      throw new BranchGone(
        vscode.l10n.t('The branch {0} is gone from {1} (merged or deleted). Open the pull request to see what became of it.', ref, remote.name),
        ['openPullRequest'],
      );
    }
    throw new ReviewProblem(
      vscode.l10n.t('Could not fetch {0} from {1}: {2}. Check your connection and git credentials, then try again.', ref, remote.name, reason),
      ['retry'],
    );
  } finally {
    subscription?.dispose();
  }
  try {
    return (await repository.getCommit(`refs/remotes/${remote.name}/${ref}`)).hash;
  } catch (error) {
    throw new ReviewProblem(vscode.l10n.t('Fetched {0}, but git cannot read it: {1}.', ref, gitReason(error)));
  }
}

/** What the branch at `tip` changes since its merge base with HEAD, as `vscode.changes` rows. */
export async function branchChanges(api: GitApi, repository: GitRepository, tip: string): Promise<{ base: string; resources: ChangeResource[] }> {
  const base = await repository.getMergeBase('HEAD', tip).catch(() => undefined);
  if (!base) throw new ReviewProblem(vscode.l10n.t("The agent's branch shares no history with your current branch, so there is nothing to compare it with."));
  const changes = await repository.diffBetween(base, tip);
  return { base, resources: changes.map((change) => toResource(api, change, base, tip)) };
}

/** What the commits from `base` (excluded) to `tip` change, as `vscode.changes` rows: a run of the agent's commits. */
export async function runChanges(api: GitApi, repository: GitRepository, base: string, tip: string): Promise<ChangeResource[]> {
  const changes = await repository.diffBetween(base, tip);
  return changes.map((change) => toResource(api, change, base, tip));
}

function toResource(api: GitApi, change: GitChange, base: string, tip: string): ChangeResource {
  switch (change.status) {
    case GitStatus.INDEX_ADDED:
      return [change.uri, undefined, api.toGitUri(change.uri, tip)];
    case GitStatus.INDEX_DELETED:
    case GitStatus.DELETED:
      return [change.originalUri, api.toGitUri(change.originalUri, base), undefined];
    case GitStatus.INDEX_RENAMED: {
      const renamed = change.renameUri ?? change.uri;
      return [renamed, api.toGitUri(change.originalUri, base), api.toGitUri(renamed, tip)];
    }
    default:
      return [change.uri, api.toGitUri(change.originalUri, base), api.toGitUri(change.uri, tip)];
  }
}

/** Opens the rows in the multi-file diff editor, or one diff per file where that command is missing. */
export async function showChanges(title: string, resources: ChangeResource[]): Promise<'multiDiff' | 'perFile'> {
  if ((await vscode.commands.getCommands(true)).includes('vscode.changes')) {
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    return 'multiDiff';
  }
  for (const [resource, original, modified] of resources) {
    const name = vscode.workspace.asRelativePath(resource);
    if (original && modified) await vscode.commands.executeCommand('vscode.diff', original, modified, `${name} (${title})`, { preview: false });
    else await vscode.commands.executeCommand('vscode.open', original ?? modified, { preview: false });
  }
  return 'perFile';
}

/** Tracked changes (staged, unstaged, conflicts) that a checkout could lose or refuse over. */
export async function localChanges(repository: GitRepository): Promise<number> {
  await repository.status();
  const { indexChanges, workingTreeChanges, mergeChanges } = repository.state;
  return indexChanges.length + workingTreeChanges.filter((c) => c.status !== GitStatus.UNTRACKED).length + mergeChanges.length;
}

/** Stashes tracked changes with a message that says why, through the same git the Git extension runs. */
export function stash(api: GitApi, repository: GitRepository, message: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(api.git.path, ['stash', 'push', '--message', message], { cwd: repository.rootUri.fsPath, timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error)
        reject(new ReviewProblem(vscode.l10n.t('Could not stash your changes: {0}. Nothing was checked out.', gitReason({ stderr, message: error.message }))));
      else resolve();
    });
  });
}

/** Checks the branch out: the local branch if there is one, else a new one tracking the remote's. */
export async function checkOut(clone: Clone, ref: string): Promise<'existing' | 'created'> {
  const { repository, remote } = clone;
  const existing = await repository.getBranch(ref).then(
    (b) => b,
    () => undefined,
  );
  try {
    if (existing) {
      await repository.checkout(ref);
      return 'existing';
    }
    await repository.createBranch(ref, true, `${remote.name}/${ref}`);
    await repository.setBranchUpstream(ref, `${remote.name}/${ref}`);
    return 'created';
  } catch (error) {
    throw new ReviewProblem(vscode.l10n.t('Git could not check out {0}: {1}.', ref, gitReason(error)));
  }
}
