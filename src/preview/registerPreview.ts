// See what readers will see, wired: Preview Branch (one click, one deployment of the job's branch),
// the row's "preview building / ready / failed / of an older commit" and its tooltip with the stage
// and screenshots, Open Rendered Page beside the diff, the failed build's log (the log channel and a
// read-only document) and Ask the Agent to Fix the Build. Built in start() like every concern, and
// sends nothing until the writer deploys: a preview still building when a window opens is followed
// by the scheduler (previewModel.ts), a finished one is read from the shared state alone.
// Each command is a function of its ports in commands/; here they are wired, with the log document's
// provider, the rows' notes and the notices of the previews this window deployed.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { Settings } from '../config';
import type { DocsLocator } from '../docs/docsLocator';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { JobStore } from '../jobs/jobStore';
import type { RowNotes } from '../jobs/jobsTree';
import type { Logger } from '../log';
import type { RequestLedger } from '../sync/requestLedger';
import type { Ui } from '../ui';
import { background } from '../util/background';
import type { FixBuildDeps } from './askToFixBuild';
import { BuildFixes, type BuildFixSync } from './buildFixes';
import { BuildLogs } from './buildLogs';
import { fixBuildCommand } from './commands/fixBuild';
import { openRenderedPageCommand } from './commands/openRenderedPage';
import { previewBranchCommand } from './commands/previewBranch';
import type { PreviewCommandPorts } from './commands/previewCommandPorts';
import { buildLogText, LOG_SCHEME, showBuildLogCommand } from './commands/showBuildLog';
import { previewNotice } from './previewNotice';
import { PreviewModel, type PreviewSync } from './previewModel';
import { rowNote } from './previewRowNote';
import type { RenderedPageDeps } from './renderedPage';

interface PreviewPorts {
  command: RegisterCommand;
  api: ApiClient;
  /** The previews' areas, the fixes of their builds and the lease (previewModel.ts, buildFixes.ts). */
  sync: PreviewSync & BuildFixSync;
  /** The request ledger: the organisation's deployments and the project's agent requests this hour. */
  ledger: Pick<RequestLedger, 'previewDeploymentsWithin'> & FixBuildDeps['ledger'];
  jobs: JobStore;
  /** The workspace's git: the round Review Changes showed last, a file's path in its repository. */
  git: Pick<WorkspaceGit, 'onDidFetchRound'> & RenderedPageDeps['hints'];
  docs: Pick<DocsLocator, 'pageOf'>;
  /** The Agent Jobs view, whose rows say "preview ready". */
  rows: { addNotes(notes: RowNotes): void };
  settings: Settings;
  ui: Ui;
  log: Logger;
}

export interface PreviewHandle {
  model: PreviewModel;
  /** Whether Preview Branch is offered in this project's menus (a project set, its plan not refused): the context key the menus read. */
  isOffered(): boolean;
}

export function registerPreview(context: vscode.ExtensionContext, ports: PreviewPorts): PreviewHandle {
  const { command, jobs, ui } = ports;
  const log = ports.log.scoped('preview');
  const model = new PreviewModel(
    ports.sync,
    ports.api,
    () => jobs.projectId,
    log,
    () => ports.settings.requestTimeoutMs,
    new BuildLogs(vscode.Uri.joinPath(context.globalStorageUri, 'previewLogs'), log),
  );
  let lastReviewed: string | undefined;
  const commandPorts: PreviewCommandPorts = {
    model,
    jobs,
    ledger: ports.ledger,
    fixes: new BuildFixes(ports.sync, () => jobs.projectId),
    pages: { docs: ports.docs, hints: ports.git, ui, log },
    mine: new Set<string>(),
    deploying: new Set<string>(),
    lastReviewed: () => lastReviewed,
    ui,
    log,
  };
  const logChanged = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(
    model,
    logChanged,
    ports.git.onDidFetchRound(({ jobId }) => (lastReviewed = jobId)),
    vscode.workspace.registerTextDocumentContentProvider(LOG_SCHEME, {
      onDidChange: logChanged.event,
      provideTextDocumentContent: (uri) => buildLogText(model, decodeURIComponent(uri.path.split('/')[1] ?? '')),
    }),
    model.onDidChange(() => {
      publishContext(model, jobs);
      for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === LOG_SCHEME) logChanged.fire(document.uri);
    }),
    model.onDidChangeStage(({ jobId, preview }) => {
      if (commandPorts.mine.has(jobId)) background(previewNotice({ jobs, ui }, jobId, preview), log, `the notice of ${jobId}'s preview`);
    }),
  );
  ports.rows.addNotes({ noteOf: (tracked) => rowNote(model, tracked), onDidChange: model.onDidChange });
  command(COMMANDS.previewBranch, previewBranchCommand(commandPorts));
  command(COMMANDS.openRenderedPage, openRenderedPageCommand(commandPorts));
  command(COMMANDS.showPreviewLog, showBuildLogCommand(commandPorts));
  command(COMMANDS.askToFixBuild, fixBuildCommand(commandPorts));
  publishContext(model, jobs);
  return { model, isOffered: () => isOffered(model, jobs) };
}

function isOffered(model: PreviewModel, jobs: JobStore): boolean {
  return jobs.projectId !== undefined && model.planRefusedAt() === undefined;
}

/** The context keys the menus read: Preview Branch offered in this project, a preview ready to open. */
function publishContext(model: PreviewModel, jobs: JobStore): void {
  const offered = isOffered(model, jobs);
  const ready = jobs.all().some((t) => model.get(t.id)?.status === 'success');
  void vscode.commands.executeCommand('setContext', 'mintlifyAgent.previewOffered', offered);
  void vscode.commands.executeCommand('setContext', 'mintlifyAgent.previewReady', ready);
}
