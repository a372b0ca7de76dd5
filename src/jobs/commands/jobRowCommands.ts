// The small commands of a job's row: Open Pull Request, Copy Job ID, Refresh, Refresh All, Stop Tracking.
import * as vscode from 'vscode';
import { jobIdOf } from '../jobPick';
import type { JobNode } from '../jobsTree';
import { type JobCommandPorts, pickTracked } from './jobCommandPorts';

type JobArg = JobNode | string | undefined;

/** Opens the job's pull request in the browser: only a web link, since the link comes from the API. */
export function openPullRequestCommand({ store, ui }: JobCommandPorts) {
  return async (arg: JobArg): Promise<void> => {
    const jobId = jobIdOf(arg);
    const link = jobId ? store.get(jobId)?.job?.prLink : undefined;
    if (!link) return void ui.showMessage('info', vscode.l10n.t('This job has no pull request (yet).'));
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(link, true);
    } catch {
      return void ui.showMessage('error', vscode.l10n.t('The pull request link "{0}" is not a valid URL.', link));
    }
    if (uri.scheme !== 'https' && uri.scheme !== 'http') return void ui.showMessage('error', vscode.l10n.t('Refusing to open "{0}": not a web link.', link));
    await ui.openExternal(uri);
  };
}

export function copyJobIdCommand({ ui }: JobCommandPorts) {
  return async (arg: JobArg): Promise<void> => {
    const jobId = jobIdOf(arg);
    if (!jobId) return;
    await ui.writeClipboard(jobId);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied job ID {0}', jobId), 3000);
  };
}

export function refreshJobCommand({ tracker }: JobCommandPorts) {
  return async (arg: JobArg): Promise<void> => {
    const jobId = jobIdOf(arg);
    if (jobId) await tracker.refresh(jobId);
  };
}

/**
 * From a row, or the palette, or a row whose job VS Code could not hand over (the list was being
 * redrawn as the menu item was clicked): then the user picks the job rather than nothing happening.
 */
export function stopTrackingCommand(ports: JobCommandPorts) {
  return async (arg: JobArg): Promise<void> => {
    const jobId = jobIdOf(arg) ?? (await pickTracked(ports, vscode.l10n.t('Stop Tracking an Agent Job')));
    if (jobId) await ports.tracker.stopTracking(jobId);
  };
}
