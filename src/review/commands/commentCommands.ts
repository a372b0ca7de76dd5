// The commands on a review comment and its thread in the agent branch's diff: Add, Edit, Save,
// Cancel and Delete.
import * as vscode from 'vscode';
import { ReviewNote } from '../reviewThreads';
import { failed, type ReviewCommandPorts } from './reviewCommandPorts';

type CommentPorts = Pick<ReviewCommandPorts, 'model' | 'threads' | 'ui' | 'log'>;

/** Adds the comment typed in a thread; one added on an earlier round is kept, and the writer told where it shows. */
export function addReviewCommentCommand(ports: CommentPorts) {
  const { model, threads, ui } = ports;
  return async (reply: vscode.CommentReply) => {
    const id = await threads.add(reply).catch(failed(ports, 'addComment', 'adding a review comment'));
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
  };
}

export function editReviewCommentCommand({ model, threads }: CommentPorts) {
  return (note: ReviewNote): void => {
    if (note instanceof ReviewNote) threads.startEditing(note, model.comment(note.jobId, note.id)?.body ?? '');
  };
}

/** VS Code hands the comment back with the edited text as its body. */
export function saveReviewCommentCommand(ports: CommentPorts) {
  const { model, threads } = ports;
  return async (note: ReviewNote): Promise<void> => {
    if (!(note instanceof ReviewNote)) return;
    const body = typeof note.body === 'string' ? note.body : note.body.value;
    if (body.trim()) await model.edit(note.jobId, note.id, body).catch(failed(ports, 'editComment', 'saving a review comment'));
    await threads.stopEditing(note);
  };
}

export function cancelReviewCommentCommand({ threads }: CommentPorts) {
  return async (note: ReviewNote): Promise<void> => {
    if (note instanceof ReviewNote) await threads.stopEditing(note);
  };
}

export function deleteReviewCommentCommand(ports: CommentPorts) {
  const { model, threads } = ports;
  return async (note: ReviewNote): Promise<void> => {
    if (!(note instanceof ReviewNote)) return;
    await model.remove(note.jobId, note.id).catch(failed(ports, 'deleteComment', 'deleting a review comment'));
    await threads.stopEditing(note);
  };
}
