// Review Changes and Check Out Branch for an agent job (not the review comments on it: src/review). The git
// work is in branchReview.ts; this file decides whether the job is ready and shows every problem
// as the failure table does (src/errorMessages.ts), with the buttons that help. A completed job
// without a pull request may have committed straight to its branch: Review Changes fetches it and
// shows exactly the agent's commits from while the job ran (directCommits.ts), or says it found none.
import * as vscode from 'vscode';
import { toAbortSignal } from '../util/cancellation';
import type { Settings } from '../config';
import { isTerminal, jobLabel, type JobStore, type TrackedJob } from '../jobs/jobStore';
import { type DirectLook, hasNoPullRequest, noPullRequestText } from '../jobs/jobOutcome';
import { agentCommitsOn, commitRuns } from './directCommits';
import { gitRunner } from './gitProcess';
import type { JobTracker } from '../jobs/jobTracker';
import { jobIdOf, pickJob } from '../jobs/jobPick';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { background } from '../util/background';
import {
  BranchGone,
  branchChanges,
  type ChangeResource,
  runChanges,
  checkOut,
  type Clone,
  fetchBranch,
  localChanges,
  requireClone,
  ReviewCancelled,
  ReviewProblem,
  showChanges,
  stash,
} from './branchReview';
import { type GitApi, loadGitApi } from './gitApi';
import type { WorkspaceGit } from './workspaceGit';
import { isSafeBranchName } from './branchName';
import { COMMANDS, type RegisterCommand } from '../commands';
import { reportFailure } from '../reportFailure';
import { errorText } from '../util/errorText';

/** What Review Changes opened; returned to the caller (the tests compare it with git). */
export interface ReviewResult {
  title: string;
  resources: ChangeResource[];
  shownAs: 'multiDiff' | 'perFile';
  /** The commit of the agent's branch shown: its round. */
  tip: string;
  /** A job without a pull request: the agent's commits shown (published directly), oldest first; none found: empty. */
  commits?: string[];
}

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

/** Registers Review Changes and Check Out Branch (the agent's branch in this workspace's clone). */
export function registerReviewChanges(context: vscode.ExtensionContext, ports: ReviewChangesPorts): void {
  const { command, git: hints, jobs, tracker, settings, ui } = ports;
  const log = ports.log.scoped('git');
  const waiting = new Set<string>();
  context.subscriptions.push(
    // The jobs that changed, or every job when the list did (a finish may come with another job's arrival).
    jobs.onDidChange((changed = jobs.all()) => {
      for (const job of changed) {
        if (!waiting.has(job.id) || !isTerminal(job)) continue;
        waiting.delete(job.id);
        const review = vscode.l10n.t('Review Changes');
        const answered = ui.showMessage('info', vscode.l10n.t('“{0}” finished: its branch is ready to review.', jobLabel(job)), review).then(async (choice) => {
          if (choice === review) await vscode.commands.executeCommand(COMMANDS.reviewChanges, job.id);
        });
        background(answered, log, `the review notice of ${job.id}`);
      }
    }),
  );

  /** The job and its clone, or a ReviewProblem saying why not. */
  async function prepare(jobId: string): Promise<{ tracked: TrackedJob; ref: string; api: GitApi; clone: Clone }> {
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

  async function review(jobId: string): Promise<ReviewResult | undefined> {
    const prepared = await prepare(jobId);
    if (hasNoPullRequest(prepared.tracked)) return reviewDirect(prepared);
    const { tracked, ref, api, clone } = prepared;
    const title = vscode.l10n.t('Agent changes: {0} ({1})', jobLabel(tracked), ref);
    const { tip, resources } = await ui.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching {0}…', ref), cancellable: true },
      async (_progress, token) => {
        const fetched = await fetchBranch(clone, ref, { timeoutMs: settings.gitFetchTimeoutMs, token });
        return { tip: fetched, resources: (await branchChanges(api, clone.repository, fetched)).resources };
      },
    );
    // Before the diff opens: its documents are asked which lines take comments.
    hints.fetchedRound(jobId, tip);
    if (!resources.length) {
      void ui.showMessage('info', vscode.l10n.t('The branch {0} changes nothing compared with your current branch.', ref));
      return { title, resources, shownAs: 'multiDiff', tip };
    }
    const shownAs = await showChanges(title, resources);
    log.info(`review ${jobId}: ${resources.length} file(s) from ${ref} shown (${shownAs})`);
    return { title, resources, shownAs, tip };
  }

  /**
   * A completed job without a pull request: the branch fetched (the writer asked), then the agent's
   * commits on it from the job's start to the read that found it finished, each run of them one diff.
   */
  async function reviewDirect({ tracked, ref, api, clone }: Awaited<ReturnType<typeof prepare>>): Promise<ReviewResult> {
    const from = Date.parse(tracked.job?.createdAt ?? '');
    if (Number.isNaN(from)) {
      throw new ReviewProblem(
        vscode.l10n.t('The platform did not say when “{0}” started, so its commits on {1} cannot be told from others’.', jobLabel(tracked), ref),
      );
    }
    const to = Date.parse(tracked.checkedAt ?? '') || Date.now();
    const { tip, commits } = await ui.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching {0}…', ref), cancellable: true },
      async (_progress, token) => {
        const fetched = await fetchBranch(clone, ref, { timeoutMs: settings.gitFetchTimeoutMs, token }).catch((error: unknown) => {
          // No pull request to open: a branch that is not there is said as what git shows.
          if (!(error instanceof BranchGone)) throw error;
          throw new ReviewProblem(
            vscode.l10n.t(
              'The agent opened no pull request, and {0} is not on {1}, so git shows no commit of it there. It may have changed nothing, or its branch was deleted.',
              ref,
              clone.remote.name,
            ),
            [],
            'info',
          );
        });
        const stop = toAbortSignal(token);
        try {
          const git = gitRunner(api.git.path, clone.repository.rootUri.fsPath, { signal: stop.signal });
          return { tip: fetched, commits: await agentCommitsOn(git, clone.remote.name, ref, { from, to }) };
        } catch (error) {
          if (stop.signal.aborted) throw new ReviewCancelled();
          throw new ReviewProblem(vscode.l10n.t('Fetched {0}, but git cannot read its history: {1}.', ref, errorText(error)));
        } finally {
          stop.dispose();
        }
      },
    );
    const look: DirectLook = commits.length
      ? { kind: 'published', branch: ref, commits: commits.map(({ hash, subject }) => ({ hash, subject })) }
      : { kind: 'noCommits', branch: ref };
    hints.lookedAt(tracked, look);
    const title = vscode.l10n.t('Published directly: {0} ({1})', jobLabel(tracked), ref);
    if (!commits.length) {
      // The row's tooltip says the same (jobOutcome.ts): what git showed, never that nothing changed.
      void ui.showMessage('info', noPullRequestText(tracked, look, true));
      return { title, resources: [], shownAs: 'multiDiff', tip, commits: [] };
    }
    // Each run of the agent's commits one diff: a teammate's commit between two runs is not the agent's.
    const runs = commitRuns(commits);
    const resources: ChangeResource[] = [];
    let shownAs: ReviewResult['shownAs'] = 'multiDiff';
    for (const [index, run] of runs.entries()) {
      const rows = await runChanges(api, clone.repository, run.base, run.tip);
      resources.push(...rows);
      const part = runs.length === 1 ? title : vscode.l10n.t('{0}, part {1} of {2}', title, index + 1, runs.length);
      if (rows.length) shownAs = await showChanges(part, rows);
    }
    log.info(`review ${tracked.id}: no pull request; ${commits.length} agent commit(s) on ${ref} in ${runs.length} run(s), ${resources.length} file(s) shown`);
    return { title, resources, shownAs, tip, commits: commits.map((c) => c.hash) };
  }

  async function checkOutBranch(jobId: string): Promise<void> {
    const { ref, api, clone } = await prepare(jobId);
    const head = clone.repository.state.HEAD?.name;
    if (head === ref) return void ui.showMessage('info', vscode.l10n.t('{0} is already checked out.', ref));
    await ui.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching {0}…', ref), cancellable: true },
      (_progress, token) => fetchBranch(clone, ref, { timeoutMs: settings.gitFetchTimeoutMs, token }),
    );
    const changed = await localChanges(clone.repository);
    if (changed > 0) {
      const stashIt = vscode.l10n.t('Stash and Check Out');
      const choice = await ui.showMessage(
        'warning',
        vscode.l10n.t(
          'Your working tree has {0} changed file(s), which checking out {1} could overwrite. Stash them first (git stash; get them back with Stash Pop), or cancel and commit them yourself.',
          changed,
          ref,
        ),
        stashIt,
      );
      if (choice !== stashIt) return;
      await stash(api, clone.repository, `Mintlify: before checking out ${ref}`);
    }
    const how = await checkOut(clone, ref);
    void ui.showMessage(
      'info',
      how === 'created'
        ? vscode.l10n.t("Checked out {0}, tracking {1}/{0}. Edit on top of the agent's work and push when ready.", ref, clone.remote.name)
        : vscode.l10n.t("Checked out your local branch {0}. Pull to bring in the agent's latest commits.", ref),
    );
  }

  /** From the palette: the finished jobs with a branch, those cloned here first. */
  function pickFinished(): Promise<string | undefined> {
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

  async function run<T>(arg: string | undefined, doing: (jobId: string) => Promise<T>): Promise<T | undefined> {
    const jobId = arg ?? (await pickFinished());
    if (!jobId) return undefined;
    try {
      return await doing(jobId);
    } catch (error) {
      if (error instanceof ReviewCancelled) return void log.info(`${jobId}: the fetch was cancelled`);
      const retried = await reportFailure({ ui, log }, error, {
        context: 'git',
        doing: jobId,
        on: {
          retry: () => run(jobId, doing),
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

  command(COMMANDS.reviewChanges, (arg: unknown) => run(jobIdOf(arg), review));
  command(COMMANDS.checkOutBranch, (arg: unknown) => run(jobIdOf(arg), checkOutBranch));
}

/** Why Review Changes and Check Out Branch do nothing in Restricted Mode, and what to do. */
export function untrustedGitMessage(): string {
  return vscode.l10n.t(
    "This folder is not trusted, so no git command runs here (VS Code's Restricted Mode). Trust this folder to review or check out the agent's branch in it, or open the pull request in the browser.",
  );
}
