// Tell Me When It Finishes, the notice: a job the writer waits for (the button on "the agent is still
// working") says so when it finishes, offering Review Changes.
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { isTerminal, jobLabel, type TrackedJob } from '../../jobs/jobStore';
import { background } from '../../util/background';
import type { ReviewChangesPorts } from './reviewChangesPorts';

/** The listener of the job store: `waiting` holds the jobs waited for, each taken out when its notice shows. */
export function finishNotice({ jobs, ui, log }: ReviewChangesPorts, waiting: Set<string>) {
  // The jobs that changed, or every job when the list did (a finish may come with another job's arrival).
  return (changed: readonly TrackedJob[] = jobs.all()): void => {
    for (const job of changed) {
      if (!waiting.has(job.id) || !isTerminal(job)) continue;
      waiting.delete(job.id);
      const review = vscode.l10n.t('Review Changes');
      const answered = ui.showMessage('info', vscode.l10n.t('“{0}” finished: its branch is ready to review.', jobLabel(job)), review).then(async (choice) => {
        if (choice === review) await vscode.commands.executeCommand(COMMANDS.reviewChanges, job.id);
      });
      background(answered, log, `the review notice of ${job.id}`);
    }
  };
}
