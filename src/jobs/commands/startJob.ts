// Start New Job: a prompt the agent turns into a pull request. Resolves with the job the create
// call's answer names, so a caller that remembers it (the reader signals) never guesses.
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { jobLabel } from '../jobStore';
import { isPromptSent, type JobCommandPorts, NOTHING_SENT, notSent, type PromptSent, reportJobFailure, withJobProgress } from './jobCommandPorts';

/** The command: `preset` is a prompt the user already wrote and saw (no box). */
export function startJobCommand(ports: JobCommandPorts) {
  const { tracker, ui } = ports;
  return async (preset?: unknown): Promise<PromptSent | undefined> => {
    try {
      tracker.requireProject();
    } catch (error) {
      await reportJobFailure(ports, 'create', error);
      return NOTHING_SENT;
    }
    const prompt =
      typeof preset === 'string' && preset.trim()
        ? preset
        : await ui.showInputBox({
            title: vscode.l10n.t('Start New Agent Job'),
            prompt: vscode.l10n.t('What should the agent change in your docs? It opens a pull request when it is done.'),
            value: tracker.unsentCreatePrompt ?? '',
            ignoreFocusOut: true,
            validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Type an instruction for the agent; an empty prompt cannot be sent.')),
          });
    if (prompt === undefined || !prompt.trim()) return undefined;
    try {
      const tracked = await withJobProgress(ports, vscode.l10n.t('Starting an agent job…'), (signal) => tracker.create(prompt, signal));
      void ui.showMessage('info', vscode.l10n.t('Agent job started: “{0}”.', jobLabel(tracked)));
      // The id from the create call's answer: the job this prompt made, whatever else holds the same text.
      return { sent: true, jobId: tracked.id };
    } catch (error) {
      // Retry (offered only when nothing can have been created) reopens the box with the prompt.
      const again = await reportJobFailure(ports, 'create', error, {
        retry: async () => vscode.commands.executeCommand<PromptSent | undefined>(COMMANDS.startJob),
      });
      return isPromptSent(again) ? again : notSent(error);
    }
  };
}
