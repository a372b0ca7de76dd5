// Send Misses to the Agent: the terms of a job that still miss, back to the agent as one follow-up of
// the job (the misses quoted as data in the nonce-marked evidence block, previewed first); they start
// the next round.
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { HOURLY_LIMIT } from '../../hour/ledger';
import type { PromptSent } from '../../jobs/jobCommands';
import { jobLabel } from '../../jobs/jobStore';
import { chooseToSend, closePreview } from '../../prompt/promptPreview';
import type { SearchCheck } from '../../sync/searchState';
import { misses, replayOutcome } from '../searchOutcome';
import { missesPrompt } from '../searchPrompt';
import { jobIdOf, type SearchCommandPorts } from './searchCommandPorts';

/** The command: `arg` is a job's row or its ID. */
export function sendSearchMissesCommand(ports: SearchCommandPorts) {
  const { replays, ui } = ports;
  return async (arg: unknown): Promise<void> => {
    const project = ports.settings.projectId;
    const jobId = jobIdOf(arg);
    const replay = project && jobId ? replays.get(project, jobId) : undefined;
    if (!project || !jobId || !replay || replay.afterAt === undefined) return;
    const outcome = replayOutcome(replay);
    const missed = misses(outcome);
    if (!missed.length) return void ui.showMessage('info', vscode.l10n.t('Every search of this job finds the page now: nothing to send.'));
    const tracked = ports.jobs.get(jobId);
    const used = ports.ledger.agentRequestsThisHour(project);
    const composed = missesPrompt(outcome, missed);
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: composed.text });
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    const send = await chooseToSend(ui, document, {
      message: `${vscode.l10n.t(
        "One follow-up to “{0}” with the {1} searches that still miss: 1 agent request of the project's hour ({2} of {3} used). The preview is exactly what the agent will get (edit it if you like). Send it?",
        tracked ? jobLabel(tracked) : jobId,
        missed.length,
        used,
        HOURLY_LIMIT,
      )}`,
      button: vscode.l10n.t('Send Follow-up'),
    });
    if (!send) return;
    const text = document.getText();
    if (!text.trim()) return void ui.showMessage('error', vscode.l10n.t('The prompt is empty, so nothing was sent.'));
    const sent = (await vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.sendFollowUp, jobId, text)) ?? { sent: false, outcomeUnknown: false };
    await closePreview(document);
    if (!sent.sent) return;
    // The misses' after is the next round's before: searched again once the follow-up's change is live.
    const before = new Map(missed.flatMap((t) => (replay.terms[t.term]?.after ? [[t.term, replay.terms[t.term].after as SearchCheck]] : [])));
    await replays.record(project, jobId, replay.domain, before, replay.expect);
  };
}
