// Review comments on the agent's branch, wired (Review Changes itself, the diff they sit on, is src/git): the shared reviews (reviewModel.ts),
// the comment threads in the agent branch's diff (reviewThreads.ts), the commands on a thread and a
// comment (commands/commentCommands.ts), the row's "3 comments to send" (reviewRowNote.ts), and Send
// Review to Agent (commands/sendReviewToAgent.ts, sendReview.ts). Built in start() like every
// concern; sends nothing until the writer sends a review.
import type * as vscode from 'vscode';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { JobStore } from '../jobs/jobStore';
import type { RowNotes } from '../jobs/jobsTree';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { background } from '../util/background';
import {
  addReviewCommentCommand,
  cancelReviewCommentCommand,
  deleteReviewCommentCommand,
  editReviewCommentCommand,
  saveReviewCommentCommand,
} from './commands/commentCommands';
import type { ReviewCommandPorts } from './commands/reviewCommandPorts';
import { sendReviewToAgentCommand } from './commands/sendReviewToAgent';
import { reviewFacts } from './reviewFacts';
import { ReviewModel, type ReviewSync } from './reviewModel';
import { rowNote } from './reviewRowNote';
import { ReviewThreads } from './reviewThreads';

export interface ReviewCommentsHandle {
  model: ReviewModel;
  threads: ReviewThreads;
  /** The job's review history for the agent jobs tool: each review sent, and what is pending. */
  factsOf(jobId: string): ReturnType<typeof reviewFacts>;
}

interface ReviewCommentsPorts {
  command: RegisterCommand;
  /** The pending reviews every window shares (reviewModel.ts). */
  sync: ReviewSync;
  /** The request ledger: the project's agent requests this hour, beside the send's cost. */
  ledger: ReviewCommandPorts['ledger'];
  jobs: JobStore;
  /** The workspace's git: the rounds Review Changes fetches, and the diff between two of them. */
  git: WorkspaceGit;
  /** The Agent Jobs view, whose rows say "3 comments to send". */
  rows: { addNotes(notes: RowNotes): void };
  ui: Ui;
  log: Logger;
}

export function registerReviewComments(context: vscode.ExtensionContext, ports: ReviewCommentsPorts): ReviewCommentsHandle {
  const { command, jobs } = ports;
  const log = ports.log.scoped('review');
  const model = new ReviewModel(ports.sync, () => jobs.projectId);
  const threads = new ReviewThreads(model, jobs, ports.git, log);
  context.subscriptions.push(
    model,
    threads,
    // The round Review Changes fetched is the one every window draws the comments on.
    ports.git.onDidFetchRound(({ jobId, commit }) => background(model.setTip(jobId, commit), log, `recording the round of ${jobId}`)),
  );
  ports.rows.addNotes({ noteOf: (tracked) => rowNote(model, tracked), onDidChange: model.onDidChange });

  const review: ReviewCommandPorts = { model, threads, jobs, ui: ports.ui, ledger: ports.ledger, log };
  command(COMMANDS.addReviewComment, addReviewCommentCommand(review));
  command(COMMANDS.editReviewComment, editReviewCommentCommand(review));
  command(COMMANDS.saveReviewComment, saveReviewCommentCommand(review));
  command(COMMANDS.cancelReviewComment, cancelReviewCommentCommand(review));
  command(COMMANDS.deleteReviewComment, deleteReviewCommentCommand(review));
  command(COMMANDS.sendReview, sendReviewToAgentCommand(review));

  return { model, threads, factsOf: (jobId) => reviewFacts(model, jobId) };
}
