// Send Review to Agent, the command: the job a row, a comment or a thread names (else one picked from
// those with comments to send), its review sent by sendReview.ts, a failure told in the background.
import * as vscode from 'vscode';
import { jobIdOf, pickJob } from '../../jobs/jobPick';
import { JobNode } from '../../jobs/jobsTree';
import type { JobStore } from '../../jobs/jobStore';
import type { Ui } from '../../ui';
import type { ReviewModel } from '../reviewModel';
import { rowNote } from '../reviewRowNote';
import { ReviewNote, type ReviewThreads } from '../reviewThreads';
import { sendReview, type ReviewSent } from '../sendReview';
import { failed, type ReviewCommandPorts } from './reviewCommandPorts';

export function sendReviewToAgentCommand(ports: ReviewCommandPorts) {
  const { model, threads, jobs, ui } = ports;
  return async (arg?: unknown): Promise<ReviewSent | undefined> => {
    const jobId = reviewJobOf(arg, threads) ?? (await pickPending(model, jobs, ui));
    if (!jobId) return undefined;
    try {
      return await sendReview(ports, jobId);
    } catch (error) {
      failed(ports, 'sendReview', `sending the review of ${jobId}`)(error);
      return undefined;
    }
  };
}

/** A job id from a tree row or another command (src/jobs/jobPick.ts), or a comment's or a thread's title action. */
function reviewJobOf(arg: unknown, threads: ReviewThreads): string | undefined {
  if (typeof arg === 'string' || arg instanceof JobNode) return jobIdOf(arg);
  if (arg instanceof ReviewNote) return arg.jobId;
  const thread = arg as vscode.CommentThread | undefined;
  return thread && typeof thread === 'object' && 'uri' in thread ? threads.commentOf(thread)?.jobId : undefined;
}

/** From the palette: the jobs with comments to send (the only one, at once). */
function pickPending(model: ReviewModel, jobs: JobStore, ui: Ui): Promise<string | undefined> {
  return pickJob(
    ui,
    jobs.all().filter((t) => model.pending(t.id).length),
    {
      title: vscode.l10n.t('Send Review to Agent'),
      placeHolder: vscode.l10n.t('The job whose review to send'),
      describe: (t) => ({ description: rowNote(model, t)?.text, detail: t.id }),
      none: vscode.l10n.t(
        "No job has comments to send. Open a finished job's branch with Review Changes, then hover a line on the agent's side and click + to comment.",
      ),
      takeOnly: true,
    },
  );
}
