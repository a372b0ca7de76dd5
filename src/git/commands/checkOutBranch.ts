// Check Out Branch: the agent's branch fetched and checked out in this workspace's clone, the
// writer's uncommitted changes stashed first if they say so.
import * as vscode from 'vscode';
import { checkOut, fetchBranch, localChanges, stash } from '../branchReview';
import { prepare, type ReviewChangesPorts } from './reviewChangesPorts';

/** The command, given the job (registerReviewChanges.ts runs it through runOnJob). */
export function checkOutBranchCommand(ports: ReviewChangesPorts) {
  const { settings, ui } = ports;
  return async (jobId: string): Promise<void> => {
    const { ref, api, clone } = await prepare(ports, jobId);
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
  };
}
