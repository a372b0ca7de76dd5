// The tool start_mintlifyAgentJob: starts an agent job with the model's prompt, after the writer's yes
// in its dialog (a contract, confirmedTool.ts: invoke sends exactly what the dialog showed), through
// the job tracker as the palette's Start New Job does; a failure is the tool's answer.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../ui';
import { showInvisible } from '../util/visibleText';
import { cannotSend, notSentText, promptMessage } from './actingTexts';
import { Blocked, type Confirmations } from './confirmation';
import { confirmedTool } from './confirmedTool';
import { missingSetup, promptInput, type TextTool, type ToolPorts } from './toolPorts';
import { TOOLS } from './toolNames';

/** `confirmations`: what each dialog showed, for its invoke to send exactly that (src/tools/confirmation.ts). */
export function startAgentJobTool(ports: ToolPorts, confirmations: Confirmations): TextTool {
  return confirmedTool<{ project: string; prompt: string }>(TOOLS.startAgentJob, confirmations, {
    terms: (input) => {
      const missing = missingSetup(ports);
      const prompt = promptInput(input);
      if (missing) return new Blocked(missing);
      if (!prompt) return new Blocked(vscode.l10n.t('The prompt is empty.'));
      return { project: ports.settings.projectId ?? '', prompt };
    },
    dialog: (terms) => ({
      invocationMessage: vscode.l10n.t('Starting a Mintlify agent job…'),
      title: vscode.l10n.t('Start a Mintlify agent job?'),
      message:
        terms instanceof Blocked
          ? cannotSend(terms)
          : promptMessage(
              vscode.l10n.t(
                'Sends this prompt to the Mintlify agent for project "{0}": one request to the agent API. The agent opens a pull request when it is done; the job is tracked in Agent Jobs.',
                showInvisible(terms.project),
              ),
              terms.prompt,
            ),
    }),
    fieldNames: { project: vscode.l10n.t('the project'), prompt: vscode.l10n.t('the prompt') },
    send: async ({ project, prompt }, token) => {
      try {
        // Under the same cancellable notification as the palette's commands.
        const tracked = await withCancellableProgress(
          ports.ui,
          vscode.l10n.t('Starting an agent job…'),
          (signal) => ports.tracker.create(prompt, signal, project),
          token,
        );
        return vscode.l10n.t(
          'Started agent job "{0}". It is tracked in the Agent Jobs view and followed until it finishes; {1} with its jobId reads its state.',
          tracked.id,
          TOOLS.agentJobs,
        );
      } catch (error) {
        return notSentText(error, 'create');
      }
    },
  });
}
