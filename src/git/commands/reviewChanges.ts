// Review Changes: the agent's branch fetched and its changes shown in a diff. A completed job without
// a pull request may have committed straight to its branch: then exactly the agent's commits from
// while the job ran are shown (directCommits.ts), or it says it found none.
import * as vscode from 'vscode';
import { type DirectLook, hasNoPullRequest, noPullRequestText } from '../../jobs/jobOutcome';
import { jobLabel } from '../../jobs/jobStore';
import { toAbortSignal } from '../../util/cancellation';
import { errorText } from '../../util/errorText';
import { BranchGone, branchChanges, type ChangeResource, fetchBranch, ReviewCancelled, ReviewProblem, runChanges, showChanges } from '../branchReview';
import { agentCommitsOn, commitRuns } from '../directCommits';
import { gitRunner } from '../gitProcess';
import { prepare, type PreparedJob, type ReviewChangesPorts } from './reviewChangesPorts';

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

/** The command, given the job (registerReviewChanges.ts runs it through runOnJob). */
export function reviewChangesCommand(ports: ReviewChangesPorts) {
  const { git: hints, settings, ui, log } = ports;
  return async (jobId: string): Promise<ReviewResult | undefined> => {
    const prepared = await prepare(ports, jobId);
    if (hasNoPullRequest(prepared.tracked)) return reviewDirect(ports, prepared);
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
  };
}

/**
 * A completed job without a pull request: the branch fetched (the writer asked), then the agent's
 * commits on it from the job's start to the read that found it finished, each run of them one diff.
 */
async function reviewDirect({ git: hints, settings, ui, log }: ReviewChangesPorts, { tracked, ref, api, clone }: PreparedJob): Promise<ReviewResult> {
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
