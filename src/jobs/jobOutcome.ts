// What a finished job's outcome is known to be, in the words the row, its tooltip and the finish
// notification share. The platform's agent opens a pull request, or commits straight to the
// deployment branch when the project's review process setting says so: `prLink: null` on a
// completed job says only that there is no pull request, never that nothing changed. Where the
// workspace is a clone, Review Changes (a fetch the writer asked for) looks in git for the agent's
// commits on the job's branch while it ran (src/git/directCommits.ts), and what it saw is said.
import * as vscode from 'vscode';
import type { TrackedJob } from './jobStore';

/** What git showed of a completed job without a pull request, after a fetch the writer allowed. */
export type DirectLook =
  /** The agent's commits on `branch` while the job ran, oldest first: published directly. */
  | { kind: 'published'; branch: string; commits: { hash: string; subject: string }[] }
  /** No commit of the agent on `branch` while the job ran, as far as the fetched branch shows. */
  | { kind: 'noCommits'; branch: string };

/** Completed with no pull request: what it did is not known from the platform's answer. */
export function hasNoPullRequest(tracked: TrackedJob): boolean {
  return tracked.job?.status === 'completed' && !tracked.job.prLink;
}

/** The row's word for a completed job: "PR ready", "published directly", "no pull request". */
export function completedWord(tracked: TrackedJob, look: DirectLook | undefined): string {
  if (tracked.job?.prLink) return vscode.l10n.t('PR ready');
  if (look?.kind === 'published') return vscode.l10n.t('published directly');
  if (look?.kind === 'noCommits') return vscode.l10n.t('no pull request, no agent commits found');
  return vscode.l10n.t('no pull request');
}

/** The tooltip's sentence about a completed job without a pull request: what is known, and how to learn more. */
export function noPullRequestText(tracked: TrackedJob, look: DirectLook | undefined, reviewable: boolean): string {
  const branch = tracked.job?.ref;
  if (look?.kind === 'published') {
    return look.commits.length === 1
      ? vscode.l10n.t(
          'The agent opened no pull request: it committed directly to {0} (1 commit while the job ran). Review Changes shows exactly that commit.',
          look.branch,
        )
      : vscode.l10n.t(
          'The agent opened no pull request: it committed directly to {0} ({1} commits while the job ran). Review Changes shows exactly those commits.',
          look.branch,
          look.commits.length,
        );
  }
  if (look?.kind === 'noCommits')
    return vscode.l10n.t(
      'The agent opened no pull request, and the fetched {0} has no commit by the Mintlify agent (mintlify[bot]) from while the job ran. It may have changed nothing, or committed under another name.',
      look.branch,
    );
  const unknown = vscode.l10n.t(
    'The agent opened no pull request: it changed nothing, or committed directly to {0} (the project’s review process setting decides which). The platform does not say which.',
    branch ?? deploymentBranch(),
  );
  return reviewable ? `${unknown} ${vscode.l10n.t('Review Changes fetches the branch and shows the agent’s commits on it from while the job ran.')}` : unknown;
}

/** The finish notification's message for a completed job without a pull request. */
export function noPullRequestNotice(label: string, branch: string | undefined): string {
  return vscode.l10n.t(
    'Agent job “{0}” completed without a pull request: it changed nothing, or committed directly to {1}.',
    label,
    branch ?? deploymentBranch(),
  );
}

/** Where the agent commits when it opens no pull request, when the job names no branch. */
function deploymentBranch(): string {
  return vscode.l10n.t({ message: 'your deployment branch', comment: ['Ends "committed directly to {0}" when the job names no branch.'] });
}
