// What every preview command takes (`PreviewCommandPorts`), and what they share: the job a command
// is about (jobOf). Each command is a file of its own beside this one, a function of these ports;
// registerPreview.ts only wires them.
import * as vscode from 'vscode';
import { jobLabel, type JobStore, type TrackedJob } from '../../jobs/jobStore';
import { JobNode } from '../../jobs/jobsTree';
import type { Logger } from '../../log';
import type { RequestLedger } from '../../sync/requestLedger';
import type { Ui } from '../../ui';
import type { FixBuildDeps } from '../askToFixBuild';
import type { BuildFixes } from '../buildFixes';
import type { PreviewModel } from '../previewModel';
import { rowNote } from '../previewRowNote';
import type { RenderedPageDeps } from '../renderedPage';

export interface PreviewCommandPorts {
  model: PreviewModel;
  jobs: JobStore;
  /** The request ledger: the organisation's deployments and the project's agent requests this hour. */
  ledger: Pick<RequestLedger, 'previewDeploymentsWithin'> & FixBuildDeps['ledger'];
  fixes: BuildFixes;
  pages: RenderedPageDeps;
  /** The jobs whose deployment this window sent: its notices (ready, failed) are shown here. */
  mine: Set<string>;
  /** The jobs whose deployment this window is sending. */
  deploying: Set<string>;
  /** The job Review Changes showed last in this window. */
  lastReviewed: () => string | undefined;
  ui: Ui;
  log: Logger;
}

/** The job a command is about: a row, an id, the job Review Changes last showed here, or the writer's pick. */
export async function jobOf(
  { model, jobs, ui, lastReviewed }: PreviewCommandPorts,
  arg: unknown,
  wanted: (t: TrackedJob) => boolean,
  title: string,
): Promise<string | undefined> {
  if (typeof arg === 'string' && arg) return arg;
  if (arg instanceof JobNode) return arg.tracked.id;
  const lastId = lastReviewed();
  const last = lastId ? jobs.get(lastId) : undefined;
  if (last && wanted(last)) return last.id;
  const fits = jobs.all().filter(wanted);
  if (!fits.length)
    return void ui.showMessage(
      'info',
      vscode.l10n.t('No tracked agent job fits: {0} needs a job with a branch (and, past Preview Branch, its preview).', title),
    );
  if (fits.length === 1) return fits[0].id;
  const picked = await ui.showQuickPick(
    fits.map((t) => ({ label: jobLabel(t), description: t.job?.ref, detail: rowNote(model, t)?.text, jobId: t.id })),
    { title },
  );
  return picked?.jobId;
}
