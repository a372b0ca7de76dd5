// What Review Changes and Check Out Branch take (`ReviewChangesPorts`), and what they share: the job
// and its clone made ready (or a ReviewProblem saying why not), the picker of finished jobs, and the
// guard that shows every problem as the failure table does (src/errorMessages.ts), with the buttons
// that help. Each command is a file of its own beside this one; registerReviewChanges.ts only wires them.
import * as vscode from 'vscode';
import { COMMANDS, type RegisterCommand } from '../../commands';
import type { Settings } from '../../config';
import { isTerminal, jobLabel, type JobStore, type TrackedJob } from '../../jobs/jobStore';
import type { JobTracker } from '../../jobs/jobTracker';
import { pickJob } from '../../jobs/jobPick';
import type { Logger } from '../../log';
import { reportFailure } from '../../reportFailure';
import type { Ui } from '../../ui';
import { type Clone, requireClone, ReviewCancelled, ReviewProblem } from '../branchReview';
import { isSafeBranchName } from '../branchName';
import { type GitApi, loadGitApi } from '../gitApi';
import type { WorkspaceGit } from '../workspaceGit';

export interface ReviewChangesPorts {
  command: RegisterCommand;
  /** The workspace's git: which jobs are cloned here, and where Review Changes says which round it fetched. */
  git: Pick<WorkspaceGit, 'isReviewable' | 'fetchedRound' | 'lookedAt'>;
  jobs: JobStore;
  /** Tell Me When It Finishes reads the job again at once. */
  tracker: Pick<JobTracker, 'refresh'>;
  settings: Pick<Settings, 'gitFetchTimeoutMs'>;
  ui: Ui;
  log: Logger;
}

/** A finished job with a branch, and the clone of its repository in this workspace. */
export interface PreparedJob {
  tracked: TrackedJob;
  ref: string;
  api: GitApi;
  clone: Clone;
}

/** The job and its clone, or a ReviewProblem saying why not. */
export async function prepare({ jobs }: ReviewChangesPorts, jobId: string): Promise<PreparedJob> {
  if (!vscode.workspace.isTrusted) throw new ReviewProblem(untrustedGitMessage(), ['manageTrust', 'openPullRequest']);
  const tracked = jobs.get(jobId);
  if (!tracked?.job) throw new ReviewProblem(vscode.l10n.t('Job {0} is not tracked here or not read yet. Track it, then try again.', jobId));
  const { job } = tracked;
  if (!isTerminal(tracked)) {
    throw new ReviewProblem(
      vscode.l10n.t('The agent is still working on “{0}”. Its branch can be reviewed when it finishes.', jobLabel(tracked)),
      ['waitForJob'],
      'info',
    );
  }
  if (!job.ref || !job.repository) throw new ReviewProblem(vscode.l10n.t('Job “{0}” has no branch yet, so there is nothing to review.', jobLabel(tracked)));
  // Checked before anything reaches git: a name like `--upload-pack=…` or `a:b` would be an option or a refspec.
  if (!isSafeBranchName(job.ref)) {
    throw new ReviewProblem(
      vscode.l10n.t('The job names its branch “{0}”, which is not a plain git branch name, so it is not fetched. Open the pull request instead.', job.ref),
      ['openPullRequest'],
    );
  }
  const api = await loadGitApi();
  if (api === 'missing' || api === 'disabled') {
    throw new ReviewProblem(
      vscode.l10n.t(
        "The built-in Git extension is disabled, so the agent's branch cannot be fetched. Enable Git (the git.enabled setting and the Git extension), then try again.",
      ),
      ['gitSettings'],
    );
  }
  return { tracked, ref: job.ref, api, clone: requireClone(api, job.repository) };
}

/** Why Review Changes and Check Out Branch do nothing in Restricted Mode, and what to do. */
function untrustedGitMessage(): string {
  return vscode.l10n.t(
    "This folder is not trusted, so no git command runs here (VS Code's Restricted Mode). Trust this folder to review or check out the agent's branch in it, or open the pull request in the browser.",
  );
}

/** From the palette: the finished jobs with a branch, those cloned here first. */
function pickFinished({ jobs, git: hints, ui }: ReviewChangesPorts): Promise<string | undefined> {
  const finished = jobs.all().filter((t) => t.job?.ref && isTerminal(t));
  finished.sort((a, b) => Number(hints.isReviewable(b)) - Number(hints.isReviewable(a)));
  return pickJob(ui, finished, {
    title: vscode.l10n.t('Pick an agent job'),
    describe: (t) => ({
      description: `${t.job?.status ?? ''} · ${t.job?.ref ?? ''}`,
      detail: hints.isReviewable(t) ? vscode.l10n.t('Cloned in this workspace') : t.job?.repository,
    }),
    none: vscode.l10n.t('No finished agent job with a branch is tracked.'),
  });
}

/**
 * Runs `doing` on the job `arg` names (else one picked), telling a failure with its buttons: Retry
 * runs it again, and Tell Me When It Finishes adds the job to `waiting` and reads it again at once.
 */
export async function runOnJob<T>(
  ports: ReviewChangesPorts,
  waiting: Set<string>,
  arg: string | undefined,
  doing: (jobId: string) => Promise<T>,
): Promise<T | undefined> {
  const { tracker, ui, log } = ports;
  const jobId = arg ?? (await pickFinished(ports));
  if (!jobId) return undefined;
  try {
    return await doing(jobId);
  } catch (error) {
    if (error instanceof ReviewCancelled) return void log.info(`${jobId}: the fetch was cancelled`);
    const retried = await reportFailure({ ui, log }, error, {
      context: 'git',
      doing: jobId,
      on: {
        retry: () => runOnJob(ports, waiting, jobId, doing),
        openPullRequest: () => vscode.commands.executeCommand(COMMANDS.openPullRequest, jobId),
        waitForJob: () => {
          waiting.add(jobId);
          return tracker.refresh(jobId);
        },
      },
    });
    return retried as T | undefined;
  }
}
