// Preview Branch: one click, one deployment of the job's branch, after the writer is told what it
// deploys and what the organisation may deploy a minute; refused before any request when it cannot be.
import * as vscode from 'vscode';
import { isSafeBranchName } from '../../git/branchName';
import { jobLabel } from '../../jobs/jobStore';
import { reportFailure } from '../../reportFailure';
import type { SharedPreview } from '../previewRecord';
import { jobOf, type PreviewCommandPorts } from './previewCommandPorts';

/** The command: the branch of a row's job, an id's, or one picked among the jobs with a branch. */
export function previewBranchCommand(ports: PreviewCommandPorts) {
  const { model, jobs, ui } = ports;
  return async (arg?: unknown): Promise<SharedPreview | undefined> => {
    const jobId = await jobOf(ports, arg, (t) => Boolean(t.job?.ref), vscode.l10n.t('Preview Branch'));
    const tracked = jobId ? jobs.get(jobId) : undefined;
    if (!jobId || !tracked) return undefined;
    const branch = tracked.job?.ref;
    if (!branch) return void ui.showMessage('info', vscode.l10n.t('“{0}” has no branch yet, so there is nothing to deploy.', jobLabel(tracked)));
    if (!isSafeBranchName(branch))
      return void ui.showMessage(
        'error',
        vscode.l10n.t('The job names its branch “{0}”, which is not a plain git branch name, so it is not deployed.', branch),
      );
    if (ports.deploying.has(jobId)) return void ui.showMessage('info', vscode.l10n.t('The preview of “{0}” is being deployed already.', jobLabel(tracked)));
    const refused = model.planRefusedAt();
    if (refused !== undefined) {
      const again = vscode.l10n.t('Try Again');
      const said = vscode.l10n.t(
        'At {0} the platform said this organisation’s plan has no preview deployments (403). Pro and Enterprise plans have them.',
        new Date(refused).toLocaleString(),
      );
      if ((await ui.showMessage('warning', said, again)) !== again) return undefined;
    }
    const used = ports.ledger.previewDeploymentsWithin(60_000) ?? 0;
    if (used >= 5)
      return void ui.showMessage(
        'warning',
        vscode.l10n.t(
          '{0} previews were deployed from this machine in the last minute, the organisation’s limit of 5 a minute. Nothing was deployed; try again in a minute.',
          used,
        ),
      );
    const deploy = vscode.l10n.t('Deploy Preview');
    const what = vscode.l10n.t(
      'Preview Branch deploys the agent’s branch “{0}” as a preview on the platform, and redeploys it if the branch already has one. The organisation may deploy 5 previews a minute ({1} from this machine in the last minute).',
      branch,
      used,
    );
    if ((await ui.showMessage('info', what, deploy)) !== deploy) return undefined;
    return deployBranch(ports, jobId, branch);
  };
}

/** Deploys it; a failure is explained, with Retry when nothing can have been deployed. */
async function deployBranch(ports: PreviewCommandPorts, jobId: string, branch: string): Promise<SharedPreview | undefined> {
  const { model, deploying, ui, log } = ports;
  deploying.add(jobId);
  try {
    const preview = await model.deploy(jobId, branch);
    ports.mine.add(jobId);
    log.info(`preview of ${jobId}: ${branch} deployed (status ${preview.statusId})`);
    return preview;
  } catch (error) {
    // Retry is offered only when nothing can have been deployed: it is the writer's second click.
    const retried = await reportFailure({ ui, log }, error, {
      context: 'preview',
      doing: `preview of ${jobId}: deploying ${branch}`,
      on: { retry: () => deployBranch(ports, jobId, branch) },
    });
    return retried as SharedPreview | undefined;
  } finally {
    deploying.delete(jobId);
  }
}
