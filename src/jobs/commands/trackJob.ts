// Track Job: a job started elsewhere (the dashboard, Slack, a teammate), by its ID or a link to it.
import * as vscode from 'vscode';
import { ApiError } from '../../api';
import { COMMANDS } from '../../commands';
import { parseJobReference } from '../jobReference';
import { type JobCommandPorts, reportJobFailure, withJobProgress } from './jobCommandPorts';

/** The command: `initial` fills the box (a job ID from a notification). */
export function trackJobCommand(ports: JobCommandPorts) {
  const { tracker, store, ui } = ports;
  return async (initial?: string): Promise<void> => {
    const typed = await ui.showInputBox({
      title: vscode.l10n.t('Track Agent Job'),
      prompt: vscode.l10n.t('An agent job ID, or a dashboard link that contains one'),
      value: typeof initial === 'string' ? initial : '',
      ignoreFocusOut: true,
      validateInput: (value) => (parseJobReference(value) ? undefined : vscode.l10n.t('Paste a job ID or a link to the job.')),
    });
    const jobId = typed === undefined ? undefined : parseJobReference(typed);
    if (!jobId) return;
    try {
      await withJobProgress(ports, vscode.l10n.t('Looking up job {0}…', jobId), (signal) => tracker.track(jobId, signal));
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'notFound') {
        void ui.showMessage(
          'error',
          vscode.l10n.t(
            'No agent job "{0}" in project "{1}". Check the ID and that the project ID is the job\'s project. Nothing was tracked.',
            jobId,
            store.projectId ?? '',
          ),
        );
        return;
      }
      await reportJobFailure(ports, 'readJob', error, { retry: () => vscode.commands.executeCommand(COMMANDS.trackJob, jobId) as Promise<void> });
    }
  };
}
