// The notice of a preview this window deployed, when its build ends: ready (Open Rendered Page),
// failed (Show Build Log, Ask the Agent to Fix the Build), or no longer followed after 20 minutes.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { jobLabel, type JobStore } from '../jobs/jobStore';
import type { Ui } from '../ui';
import { type SharedPreview, stageOf } from './previewRecord';

export async function previewNotice({ jobs, ui }: { jobs: JobStore; ui: Ui }, jobId: string, preview: SharedPreview): Promise<void> {
  const tracked = jobs.get(jobId);
  const label = tracked ? jobLabel(tracked) : jobId;
  const stage = stageOf(preview);
  if (stage === 'ready') {
    const open = vscode.l10n.t('Open Rendered Page');
    if ((await ui.showMessage('info', vscode.l10n.t('The preview of “{0}” is ready.', label), open)) === open)
      await vscode.commands.executeCommand(COMMANDS.openRenderedPage, jobId);
  } else if (stage === 'failed') {
    const show = vscode.l10n.t('Show Build Log');
    const fix = vscode.l10n.t('Ask the Agent to Fix the Build');
    const choice = await ui.showMessage('warning', vscode.l10n.t('The preview of “{0}” failed to build: {1}', label, preview.summary ?? ''), show, fix);
    if (choice === show) await vscode.commands.executeCommand(COMMANDS.showPreviewLog, jobId);
    if (choice === fix) await vscode.commands.executeCommand(COMMANDS.askToFixBuild, jobId);
  } else if (stage === 'unfinished') {
    void ui.showMessage(
      'warning',
      vscode.l10n.t(
        'The preview of “{0}” did not finish within 20 minutes, so its status is no longer read. Check the deployments on the dashboard, or deploy it again.',
        label,
      ),
    );
  }
}
