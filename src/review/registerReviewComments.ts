// Review comments on the agent's branch, wired (Review Changes itself, the diff they sit on, is src/git): the shared reviews (reviewModel.ts),
// the comment threads in the agent branch's diff (reviewThreads.ts), the commands on a thread, a
// comment, a job's row and the palette, the row's "3 comments to send", and Send Review to Agent
// (sendReview.ts). Built in start() like every concern; sends nothing until the writer sends a review.
import * as vscode from 'vscode';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { JobStore, TrackedJob } from '../jobs/jobStore';
import { jobIdOf, pickJob } from '../jobs/jobPick';
import { JobNode, type RowNote, type RowNotes } from '../jobs/jobsTree';
import type { Logger } from '../log';
import type { FailureContext } from '../errorMessages';
import { reportFailure } from '../reportFailure';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { ReviewModel, type ReviewComment, type ReviewSync } from './reviewModel';
import { ReviewNote, ReviewThreads } from './reviewThreads';
import { inReviewOrder } from './reviewPrompt';
import { sendReview, type ReviewSent, type SendReviewDeps } from './sendReview';

/** A comment as the agent jobs tool tells it (src/tools/toolTexts.ts ReviewFacts). */
interface CommentFacts {
  path: string;
  startLine: number;
  endLine: number;
  commit: string;
  body: string;
}

export interface ReviewCommentsHandle {
  model: ReviewModel;
  threads: ReviewThreads;
  /** The job's review history for the agent jobs tool: each review sent, and what is pending. */
  factsOf(jobId: string): { pending: CommentFacts[]; sent: { sentAt: string; comments: CommentFacts[] }[]; lostAt?: string } | undefined;
}

export interface ReviewCommentsPorts {
  command: RegisterCommand;
  /** The pending reviews every window shares (reviewModel.ts). */
  sync: ReviewSync;
  /** The request ledger: the project's agent requests this hour, beside the send's cost. */
  ledger: SendReviewDeps['ledger'];
  jobs: JobStore;
  /** The workspace's git: the rounds Review Changes fetches, and the diff between two of them. */
  git: WorkspaceGit;
  /** The Agent Jobs view, whose rows say "3 comments to send". */
  rows: { addNotes(notes: RowNotes): void };
  ui: Ui;
  log: Logger;
}

export function registerReviewComments(context: vscode.ExtensionContext, ports: ReviewCommentsPorts): ReviewCommentsHandle {
  const { command, jobs, ui } = ports;
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

  const failed = (context: FailureContext, what: string) => (error: unknown) => {
    background(reportFailure({ ui, log }, error, { context, doing: what }), log, `${what}: the failure message`);
  };

  command(COMMANDS.addReviewComment, async (reply: vscode.CommentReply) => {
    const id = await threads.add(reply).catch(failed('addComment', 'adding a review comment'));
    const added = id ? threads.commentOf(threads.threadOf(id)!) : undefined;
    const comment = added && model.comment(added.jobId, added.id);
    if (comment && comment.commit !== model.tip(comment.jobId)) {
      void ui.showMessage(
        'info',
        vscode.l10n.t(
          "This tab shows an earlier round of the agent's branch. Your comment is kept: it shows on the latest round (Review Changes), moved with its lines, or marked outdated where the agent changed them.",
        ),
      );
    }
    return id;
  });
  command(COMMANDS.editReviewComment, (note: ReviewNote) => {
    if (note instanceof ReviewNote) threads.startEditing(note, model.comment(note.jobId, note.id)?.body ?? '');
  });
  // VS Code hands the comment back with the edited text as its body.
  command(COMMANDS.saveReviewComment, async (note: ReviewNote) => {
    if (!(note instanceof ReviewNote)) return;
    const body = typeof note.body === 'string' ? note.body : note.body.value;
    if (body.trim()) await model.edit(note.jobId, note.id, body).catch(failed('editComment', 'saving a review comment'));
    await threads.stopEditing(note);
  });
  command(COMMANDS.cancelReviewComment, async (note: ReviewNote) => {
    if (note instanceof ReviewNote) await threads.stopEditing(note);
  });
  command(COMMANDS.deleteReviewComment, async (note: ReviewNote) => {
    if (!(note instanceof ReviewNote)) return;
    await model.remove(note.jobId, note.id).catch(failed('deleteComment', 'deleting a review comment'));
    await threads.stopEditing(note);
  });
  command(COMMANDS.sendReview, async (arg?: unknown): Promise<ReviewSent | undefined> => {
    const jobId = reviewJobOf(arg, threads) ?? (await pickPending(model, jobs, ui));
    if (!jobId) return undefined;
    try {
      return await sendReview({ model, threads, jobs, ui, ledger: ports.ledger, log }, jobId);
    } catch (error) {
      failed('sendReview', `sending the review of ${jobId}`)(error);
      return undefined;
    }
  });

  return {
    model,
    threads,
    factsOf: (jobId) => {
      const comments = model.comments(jobId);
      if (!comments.length) return undefined;
      const facts = (c: ReviewComment): CommentFacts => ({ path: c.path, startLine: c.startLine, endLine: c.endLine, commit: c.commit, body: c.body });
      const lost = model.lost(jobId);
      return {
        pending: inReviewOrder(model.pending(jobId)).map(facts),
        sent: model.sent(jobId).map((r) => ({ sentAt: new Date(r.sentAt).toISOString(), comments: inReviewOrder(r.comments).map(facts) })),
        ...(lost !== undefined && { lostAt: new Date(lost).toISOString() }),
      };
    },
  };
}

function rowNote(model: ReviewModel, tracked: TrackedJob): RowNote | undefined {
  const pending = model.pending(tracked.id);
  if (!pending.length) return undefined;
  const files = new Set(pending.map((c) => c.path)).size;
  const count = pending.length === 1 ? vscode.l10n.t('1 comment to send') : vscode.l10n.t('{0} comments to send', pending.length);
  const lost = model.lost(tracked.id) !== undefined;
  const inFlight = model.inFlight(tracked.id) !== undefined;
  return {
    text: inFlight ? vscode.l10n.t('{0} (being sent)', count) : lost ? vscode.l10n.t('{0} (the last send lost its answer)', count) : count,
    tooltip: [
      files === 1 ? vscode.l10n.t('Pending review: {0} on 1 file.', count) : vscode.l10n.t('Pending review: {0} on {1} files.', count, files),
      vscode.l10n.t('Send Review to Agent sends them as one follow-up.'),
      lost ? vscode.l10n.t('Its last send lost its answer: the agent may already have it.') : '',
    ]
      .filter(Boolean)
      .join(' '),
    mark: 'comments',
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
