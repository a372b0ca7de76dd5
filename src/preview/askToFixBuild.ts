// Ask the Agent to Fix the Build: a failed preview becomes one follow-up to its job. The prompt (our
// instruction, then the build's summary and logs quoted as data in the nonce-marked block) opens in
// the same editable preview as every prompt, with its cost beside it (one agent request of the
// project's hour), and goes through Send Follow-up: one request, its failures reported there, an
// answer that was lost never sent again unasked.
import * as vscode from 'vscode';
import { chooseToSend, closePreview } from '../agent/previewEditor';
import { COMMANDS } from '../commands';
import type { PromptSent } from '../jobs/jobCommands';
import { jobLabel, type JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import { HOURLY_LIMIT } from '../sync/ledger';
import type { Ui } from '../ui';
import { composeFixBuildPrompt, FIX_LOG_LINES } from './fixBuildPrompt';
import type { SharedPreview } from './previewRecord';

export interface FixBuildDeps {
  jobs: JobStore;
  ui: Ui;
  /** The shared ledger: every window's agent requests of the project this hour. */
  ledger: { agentRequestsThisHour(project: string): number };
  log: Logger;
}

/** What Ask the Agent to Fix the Build did: the prompt composed, and what became of it (undefined: the writer stopped first). */
export interface FixBuildSent {
  composed: string;
  sent?: PromptSent;
}

export async function askToFixBuild(deps: FixBuildDeps, jobId: string, preview: SharedPreview): Promise<FixBuildSent> {
  const { jobs, ui } = deps;
  const tracked = jobs.get(jobId);
  const label = tracked ? jobLabel(tracked) : jobId;
  const composed = composeFixBuildPrompt(preview);
  const used = deps.ledger.agentRequestsThisHour(jobs.projectId ?? '');
  const notes = [
    vscode.l10n.t(
      "One follow-up to “{0}”: 1 agent request of the project's hour ({1} of {2} used, {3} left).",
      label,
      used,
      HOURLY_LIMIT,
      Math.max(0, HOURLY_LIMIT - used),
    ),
  ];
  if (composed.linesLeftOut)
    notes.push(vscode.l10n.t('The build log is quoted from its last {0} lines ({1} earlier ones left out).', FIX_LOG_LINES, composed.linesLeftOut));

  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: composed.prompt });
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
  const sent = (await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.sendFollowUp, jobId, text)) ?? { sent: false, outcomeUnknown: false };
  deps.log.info(`preview of ${jobId}: the build's fix ${sent.sent ? 'was sent' : 'was not sent'}`);
  await closePreview(document);
  return { composed: composed.prompt, sent };
}
