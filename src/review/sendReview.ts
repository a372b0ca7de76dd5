// Send Review to Agent: a job's pending review becomes one follow-up. The writer adds an optional
// instruction for the whole review, reads (and may edit) the composed prompt in the same preview as
// every other prompt, with its cost beside it (one agent request of the project's hour, and what is
// left), and sends it through Send Follow-up: exactly one request, its failures reported and kept
// there, an answer that was lost never sent again unasked. Only a send the API took marks the
// comments sent, exactly as they were composed, and only those still in the text sent (one cut from
// the preview, or edited meanwhile, stays pending); a lost answer leaves the review pending, saying
// so the moment it is known; a refused one (a 429) sent nothing, and says so at once. A review is in
// flight once at most, Retry included: one Send Review per job in a window, and a shared mark across
// windows (ReviewModel.claimSend).
import * as vscode from 'vscode';
import { chooseToSend, closePreview, previewNotes } from '../prompt/promptPreview';
import { claimedSend } from '../jobs/commands/claimedSend';
import type { PromptSent } from '../jobs/jobCommands';
import { jobLabel, type TrackedJob } from '../jobs/jobStore';
import { agentHourUse } from '../hour/ledger';
import type { Ui } from '../ui';
import { background } from '../util/background';
import type { ReviewCommandPorts } from './commands/reviewCommandPorts';
import { clockTime, type ReviewComment } from './reviewModel';
import { commentsIn, composeReviewPrompt, REVIEW_PROMPT_MAX_CHARS, type ReviewCommentInput, type ReviewPrompt } from './reviewPrompt';

/** What a Send Review did: the prompt composed and shown, and what became of it (undefined: the writer stopped first). */
export interface ReviewSent {
  composed: string;
  sent?: PromptSent;
}

/** The Send Review of each job under way in this window, with its preview once it is open. */
const underWay = new Map<string, { preview?: vscode.TextDocument }>();

export async function sendReview(deps: ReviewCommandPorts, jobId: string): Promise<ReviewSent | undefined> {
  const { jobs, ui } = deps;
  const tracked = jobs.get(jobId);
  if (!tracked) return void ui.showMessage('info', vscode.l10n.t('Job {0} is not tracked here, so its review cannot be sent from this window.', jobId));
  const label = jobLabel(tracked);
  // The row and the thread's title both offer Send Review: the second click shows the first one's preview.
  const current = underWay.get(jobId);
  if (current) {
    if (current.preview && !current.preview.isClosed) await vscode.window.showTextDocument(current.preview, { preview: false });
    return void ui.showMessage(
      'info',
      vscode.l10n.t('The review of “{0}” is already being sent from this window: its preview is open (or the send is under way).', label),
    );
  }
  const flow = {};
  underWay.set(jobId, flow);
  try {
    return await composeAndSend(deps, jobId, label, flow);
  } finally {
    underWay.delete(jobId);
  }
}

async function composeAndSend(
  deps: ReviewCommandPorts,
  jobId: string,
  label: string,
  flow: { preview?: vscode.TextDocument },
): Promise<ReviewSent | undefined> {
  const { model, jobs, ui } = deps;
  const tracked = jobs.get(jobId)!;
  const pending = model.pending(jobId);
  if (!pending.length) {
    return void ui.showMessage(
      'info',
      vscode.l10n.t("“{0}” has no comments to send. In Review Changes, hover a line on the agent's side and click + to add one.", label),
    );
  }
  const lost = model.lost(jobId);
  if (lost !== undefined) {
    const again = vscode.l10n.t('Send Again');
    const choice = await ui.showMessage(
      'warning',
      vscode.l10n.t(
        'The last send of this review to “{0}” lost its answer at {1}: the agent may already have it. Check the job before sending it again.',
        label,
        clockTime(lost),
      ),
      again,
    );
    if (choice !== again) return undefined;
  }
  const instruction = await askInstruction(ui, label, pending.length);
  if (instruction === undefined) return undefined;

  const tip = model.tip(jobId);
  const comments = await placedComments(deps, tracked, pending, tip);
  const composed = composeReviewPrompt({ instruction, branch: tracked.job?.ref ?? undefined, commit: tip, comments });
  const notes = previewNotesOf(deps, label, composed, comments.length);

  const preview = await vscode.workspace.openTextDocument({ language: 'markdown', content: composed.prompt });
  flow.preview = preview;
  await vscode.window.showTextDocument(preview, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const lenses = previewNotes(preview, notes);
  let send: boolean;
  try {
    send = await chooseToSend(ui, preview, {
      message: `${notes.join(' ')} ${vscode.l10n.t('The preview is exactly what the agent will get (edit it if you like). Send it?')}`,
      button: vscode.l10n.t('Send Review'),
    });
  } finally {
    lenses.dispose();
  }
  if (!send) return { composed: composed.prompt }; // the preview was closed: the review stays pending
  const text = preview.getText();
  if (!text.trim()) {
    void ui.showMessage('error', vscode.l10n.t('The prompt is empty, so nothing was sent. The review is still pending.'));
    return { composed: composed.prompt };
  }
  // A comment the writer cut from the preview was not sent: it stays pending.
  const inText = commentsIn(text, composed);
  const sent = await sendOnce(
    deps,
    jobId,
    pending.filter((_, i) => inText.has(i)),
    text,
  );
  // Not sent (another window sends the review): the preview, and any edit of it, stays open.
  if (sent) await closePreview(preview);
  return { composed: composed.prompt, ...(sent && { sent }) };
}

/** The writer's instruction for the whole review (empty: none); undefined when they stopped. */
function askInstruction(ui: Ui, label: string, count: number): Thenable<string | undefined> {
  return ui.showInputBox({
    title: vscode.l10n.t('Send Review to Agent: “{0}”', label),
    prompt:
      count === 1
        ? vscode.l10n.t('An instruction for the whole review, sent before its comment (optional: press Enter to send the comment alone).')
        : vscode.l10n.t('An instruction for the whole review, sent before its {0} comments (optional: press Enter to send the comments alone).', count),
    ignoreFocusOut: true,
  });
}

/** The pending comments as the prompt numbers them: at their lines in the round `tip`, where the threads still place them. */
async function placedComments(
  { threads }: ReviewCommandPorts,
  tracked: TrackedJob,
  pending: readonly ReviewComment[],
  tip: string | undefined,
): Promise<ReviewCommentInput[]> {
  const placements = await threads.placements(tracked, pending);
  return pending.map((c) => {
    const p = placements.get(c.id);
    // Numbered in the latest round when the lines are still there; otherwise as the comment's own round has them.
    if (p && !p.outdated && (tip === undefined || p.commit === tip))
      return { path: p.path, startLine: p.startLine, endLine: p.endLine, lines: c.lines, body: c.body };
    return {
      path: c.path,
      startLine: c.startLine,
      endLine: c.endLine,
      lines: c.lines,
      body: c.body,
      ...(tip !== undefined && c.commit !== tip && { earlier: { commit: c.commit, changed: p?.outdated ?? false } }),
    };
  });
}

/** What the preview says beside the prompt: the send's cost, and whether it was shortened to fit. */
function previewNotesOf({ jobs, ledger }: ReviewCommandPorts, label: string, composed: ReviewPrompt, comments: number): string[] {
  const cost = vscode.l10n.t(
    "One follow-up to “{0}”: 1 agent request of the project's hour ({1} of {2} used, {3} left).",
    label,
    ...agentHourUse(ledger, jobs.projectId ?? ''),
  );
  const notes = [cost];
  if (composed.shortened)
    notes.push(
      vscode.l10n.t(
        '{0} of its {1} comments were shortened to fit {2} characters; each cut says "(shortened)".',
        composed.shortened,
        comments,
        REVIEW_PROMPT_MAX_CHARS,
      ),
    );
  if (composed.tooLong) notes.push(vscode.l10n.t('It is still over {0} characters: the instruction alone is that long.', REVIEW_PROMPT_MAX_CHARS));
  return notes;
}

/**
 * Sends the composed review (claimedSend) unless another window is sending it, or sent some of its
 * comments since they were composed. A try that was sent marks the comments `inText` sent; one that
 * may have arrived says so on the review. Undefined: nothing was sent, and the writer was told why.
 */
function sendOnce(deps: ReviewCommandPorts, jobId: string, inText: readonly ReviewComment[], text: string): Promise<PromptSent | undefined> {
  const { model, log } = deps;
  return claimedSend(deps, jobId, text, {
    claim: () => model.claimSend(jobId),
    busy: (at) =>
      vscode.l10n.t(
        "Nothing was sent: this review is being sent from another window (since {0}). The preview stays open; the job's row shows when that send ends.",
        clockTime(at),
      ),
    sentMeanwhile: () => {
      const pendingNow = new Set(model.pending(jobId).map((c) => c.id));
      const gone = inText.filter((c) => !pendingNow.has(c.id) && model.comment(jobId, c.id)?.sentAt !== undefined);
      if (!gone.length) return undefined;
      return vscode.l10n.t(
        'Nothing was sent: {0} of the comments in this preview were sent from another window meanwhile. The preview stays open; Send Review again composes the comments still pending.',
        gone.length,
      );
    },
    record: (outcome) => {
      if (outcome.sent) background(model.markSent(jobId, inText, Date.now()), log, `marking the review of ${jobId} sent`);
      else background(model.setLost(jobId, Date.now()), log, `noting that the review of ${jobId} may have arrived`);
    },
    what: `the review of ${jobId}`,
  });
}
