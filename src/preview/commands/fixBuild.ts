// Ask the Agent to Fix the Build, as a command: the failed preview of a row's job, an id's, or one
// picked among the failed ones, handed to askToFixBuild.ts (which composes and sends the follow-up).
import * as vscode from 'vscode';
import { askToFixBuild, type FixBuildSent } from '../askToFixBuild';
import { type SharedPreview, stageOf } from '../previewRecord';
import { jobOf, type PreviewCommandPorts } from './previewCommandPorts';

export function fixBuildCommand(ports: PreviewCommandPorts) {
  const { model, jobs, ui, fixes, log } = ports;
  return async (arg?: unknown): Promise<FixBuildSent | undefined> => {
    const jobId = await jobOf(
      ports,
      arg,
      (t) => stageOf(model.get(t.id) ?? ({ status: '' } as SharedPreview)) === 'failed',
      vscode.l10n.t('Ask the Agent to Fix the Build'),
    );
    const preview = jobId ? model.get(jobId) : undefined;
    if (!jobId || !preview) return undefined;
    if (stageOf(preview) !== 'failed')
      return void ui.showMessage('info', vscode.l10n.t('The last preview of this job did not fail, so there is no build to fix.'));
    return askToFixBuild({ jobs, ui, ledger: ports.ledger, logOf: (id) => model.logOf(id), fixes, log }, jobId, preview);
  };
}
