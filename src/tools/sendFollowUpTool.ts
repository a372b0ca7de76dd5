// The tool send_mintlifyAgentFollowUp: sends the model's prompt to an agent job, after the writer's
// yes in its dialog (a contract, confirmedTool.ts), through the job tracker as the palette's Send
// Follow-up does; an answer lost on the way is checked with one read of the job, never sent again.
import * as vscode from 'vscode';
import { ApiError, sendOutcome } from '../api';
import type { TrackedJob } from '../jobs/jobStore';
import { withCancellableProgress } from '../ui';
import { showInvisible } from '../util/visibleText';
import { cannotSend, notSentText, promptMessage } from './actingTexts';
import { Blocked, type Confirmations } from './confirmation';
import { confirmedTool } from './confirmedTool';
import { missingSetup, promptInput, textInput, type TextTool, type ToolPorts } from './toolPorts';
import { TOOLS } from './toolNames';

/** `confirmations`: what each dialog showed, for its invoke to send exactly that (src/tools/confirmation.ts). */
export function sendFollowUpTool(ports: ToolPorts, confirmations: Confirmations): TextTool {
  return confirmedTool<{ project: string; jobId: string; prompt: string }>(TOOLS.sendFollowUp, confirmations, {
    terms: (input) => {
      const missing = missingSetup(ports);
      const prompt = promptInput(input);
      const jobId = textInput(input, 'jobId');
      if (missing) return new Blocked(missing);
      if (!jobId) return new Blocked(vscode.l10n.t('No jobId: name the job to follow up (get_mintlifyAgentJobs lists them).'));
      if (!prompt) return new Blocked(vscode.l10n.t('The prompt is empty.'));
      return { project: ports.settings.projectId ?? '', jobId, prompt };
    },
    dialog: (terms) => {
      if (terms instanceof Blocked)
        return {
          invocationMessage: vscode.l10n.t('Sending a follow-up…'),
          title: vscode.l10n.t('Send a follow-up to an agent job?'),
          message: cannotSend(terms),
        };
      const job = showInvisible(terms.jobId);
      const project = showInvisible(terms.project);
      const tracked = ports.jobs.get(terms.jobId);
      return {
        invocationMessage: vscode.l10n.t('Sending a follow-up to agent job {0}…', job),
        title: vscode.l10n.t('Send a follow-up to agent job {0}?', job),
        message: promptMessage(
          tracked
            ? vscode.l10n.t(
                'Sends this prompt to the tracked job ({0}) of project "{1}": one request to the agent API.',
                tracked.job?.status ?? vscode.l10n.t('not checked yet'),
                project,
              )
            : vscode.l10n.t('Sends this prompt to job {0} of project "{1}", which is not tracked here: one request to the agent API.', job, project),
          terms.prompt,
        ),
      };
    },
    fieldNames: { project: vscode.l10n.t('the project'), jobId: vscode.l10n.t('the job'), prompt: vscode.l10n.t('the prompt') },
    send: async ({ project, jobId, prompt }, token) => {
      const statusBefore = ports.jobs.get(jobId)?.job?.status;
      const sent = (job: TrackedJob) =>
        vscode.l10n.t('Follow-up sent to agent job "{0}" ({1}). The Agent Jobs view shows when it finishes.', job.id, job.job?.status ?? '');
      try {
        // Under the same cancellable notification as the palette's commands.
        return sent(
          await withCancellableProgress(
            ports.ui,
            vscode.l10n.t('Sending follow-up to {0}…', jobId),
            (signal) => ports.tracker.sendFollowUp(jobId, prompt, signal, project),
            token,
          ),
        );
      } catch (error) {
        // The answer was lost: one read of the job may show that the message arrived (as the palette does).
        if (sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited')) {
          const confirmed = await ports.tracker.confirmFollowUp(jobId, prompt, statusBefore, undefined, project).catch(() => undefined);
          if (confirmed) return sent(confirmed);
        }
        return notSentText(error, 'send');
      }
    },
  });
}
