// Ask the Agent to Fix the Build: a failed preview becomes one follow-up to its job. The prompt (our
// instruction, then the build's summary and log quoted as data in the nonce-marked block) opens in
// the same editable preview as every prompt, with its cost beside it (one agent request of the
// project's hour), and goes through Send Follow-up: one request, its failures reported there, an
// answer that was lost never sent again unasked. One fix of a job's build is in flight at a time,
// as a review is: in this window (the failure notice and the row), and across windows
// (buildFixes.ts); a build already fixed, or whose fix lost its answer, is sent again only if the
// writer says so.
import * as vscode from 'vscode';
import { chooseToSend, closePreview } from '../prompt/promptPreview';
import { failureView } from '../errorMessages';
import { claimedSend } from '../jobs/commands/claimedSend';
import type { PromptSent } from '../jobs/jobCommands';
import { jobLabel, type JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import { clockTime } from '../review/reviewModel';
import { agentHourUse } from '../hour/ledger';
import type { Ui } from '../ui';
import { background } from '../util/background';
import type { BuildFixes, FixSent } from './buildFixes';
import { composeFixBuildPrompt, FIX_LOG_LINES } from './fixBuildPrompt';
import type { LogRead } from './previewModel';
import type { SharedPreview } from './previewRecord';

export interface FixBuildDeps {
  jobs: JobStore;
  ui: Ui;
  /** The shared ledger: every window's agent requests of the project this hour. */
  ledger: { agentRequestsThisHour(project: string): number };
  /** The build's log, kept or read again (previewModel.ts). */
  logOf(jobId: string): Promise<LogRead | undefined>;
  fixes: BuildFixes;
  log: Logger;
}

/** What Ask the Agent to Fix the Build did: the prompt composed, and what became of it (undefined: the writer stopped first). */
export interface FixBuildSent {
  composed: string;
  sent?: PromptSent;
}

/** The fix of each job's build under way in this window, with its preview once it is open. */
const underWay = new Map<string, { preview?: vscode.TextDocument }>();

export async function askToFixBuild(deps: FixBuildDeps, jobId: string, preview: SharedPreview): Promise<FixBuildSent | undefined> {
  const tracked = deps.jobs.get(jobId);
  const label = tracked ? jobLabel(tracked) : jobId;
  const key = `${jobId}\n${preview.statusId}`;
  const current = underWay.get(key);
  if (current) {
    if (current.preview && !current.preview.isClosed) await vscode.window.showTextDocument(current.preview, { preview: false });
    return void deps.ui.showMessage(
      'info',
      vscode.l10n.t('The fix of the build of “{0}” is already being asked for from this window: its preview is open (or the send is under way).', label),
    );
  }
  const flow = {};
  underWay.set(key, flow);
  try {
    return await composeAndSend(deps, jobId, label, preview, flow);
  } finally {
    underWay.delete(key);
  }
}

async function composeAndSend(
  deps: FixBuildDeps,
  jobId: string,
  label: string,
  preview: SharedPreview,
  flow: { preview?: vscode.TextDocument },
): Promise<FixBuildSent | undefined> {
  const { jobs, ui, fixes } = deps;
  const elsewhere = fixes.sendingElsewhere(jobId);
  if (elsewhere)
    return void ui.showMessage(
      'info',
      vscode.l10n.t(
        'The fix of the build of “{0}” is being sent from another window (since {1}); the job shows when the agent takes it.',
        label,
        clockTime(elsewhere.at),
      ),
    );
  const before = fixes.sentFor(jobId, preview.statusId);
  if (before) {
    const again = vscode.l10n.t('Send Again');
    const said = before.lost
      ? vscode.l10n.t(
          'The last fix of this build sent to “{0}” lost its answer at {1}: the agent may already have it. Check the job before sending it again.',
          label,
          clockTime(before.at),
        )
      : vscode.l10n.t('The agent was already asked to fix this build of “{0}” at {1}. Send it again?', label, clockTime(before.at));
    if ((await ui.showMessage('warning', said, again)) !== again) return undefined;
  }

  const read = await deps.logOf(jobId);
  const log = read && 'log' in read ? read.log : undefined;
  const composed = composeFixBuildPrompt(preview, log);
  const notes = [
    vscode.l10n.t(
      "One follow-up to “{0}”: 1 agent request of the project's hour ({1} of {2} used, {3} left).",
      label,
      ...agentHourUse(deps.ledger, jobs.projectId ?? ''),
    ),
  ];
  if (composed.linesLeftOut)
    notes.push(vscode.l10n.t('The build log is quoted from its last {0} lines ({1} earlier ones left out).', FIX_LOG_LINES, composed.linesLeftOut));
  if (read && 'error' in read)
    notes.push(
      vscode.l10n.t(
        'Its log is not kept on this machine and could not be read from the platform ({0}), so the prompt quotes its summary only.',
        failureView(read.error, 'previewStatus', vscode.l10n).message,
      ),
    );

  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: composed.prompt });
  flow.preview = document;
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const send = await chooseToSend(ui, document, {
    message: `${notes.join(' ')} ${vscode.l10n.t('The preview is exactly what the agent will get (edit it if you like). Send it?')}`,
    button: vscode.l10n.t('Send Follow-up'),
  });
  if (!send) return { composed: composed.prompt };
  const text = document.getText();
  if (!text.trim()) {
    void ui.showMessage('error', vscode.l10n.t('The prompt is empty, so nothing was sent.'));
    return { composed: composed.prompt };
  }
  const sent = await sendOnce(deps, jobId, label, preview.statusId, before, text);
  deps.log.info(`preview of ${jobId}: the build's fix ${sent?.sent ? 'was sent' : 'was not sent'}`);
  // Not sent (another window sends it): the preview, and any edit of it, stays open.
  if (sent) await closePreview(document);
  return { composed: composed.prompt, ...(sent && { sent }) };
}

/**
 * Sends the fix (claimedSend) unless another window is sending it, or one was recorded since the
 * writer was asked (`before`). A try that was sent, or may have arrived, is recorded as this build's
 * fix. Undefined: nothing was sent, and the writer was told why.
 */
function sendOnce(
  deps: FixBuildDeps,
  jobId: string,
  label: string,
  statusId: string,
  before: FixSent | undefined,
  text: string,
): Promise<PromptSent | undefined> {
  const { fixes, log } = deps;
  /** The fix of this build as this send knows it: another one recorded meanwhile stops it. */
  let seen = JSON.stringify(before ?? null);
  return claimedSend(deps, jobId, text, {
    claim: () => fixes.claim(jobId),
    busy: (at) =>
      vscode.l10n.t(
        'Nothing was sent: the fix of the build of “{0}” is being sent from another window (since {1}). The preview stays open.',
        label,
        clockTime(at),
      ),
    sentMeanwhile: () =>
      JSON.stringify(fixes.sentFor(jobId, statusId) ?? null) !== seen
        ? vscode.l10n.t('Nothing was sent: the fix of this build of “{0}” was sent from another window meanwhile. The preview stays open.', label)
        : undefined,
    record: (outcome) => {
      const sent: FixSent = { at: Date.now(), lost: !outcome.sent };
      seen = JSON.stringify(sent);
      background(fixes.recordSent(jobId, statusId, sent), log, `recording the fix of ${jobId}'s build`);
    },
    what: `the fix of ${jobId}'s build`,
  });
}
