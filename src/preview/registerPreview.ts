// See what readers will see, wired: Preview Branch (one click, one deployment of the job's branch),
// the row's "preview building / ready / failed / of an older commit" and its tooltip with the stage
// and screenshots, Open Rendered Page beside the diff, the failed build's log (the log channel and a
// read-only document) and Ask the Agent to Fix the Build. Built in start() like every concern, and
// sends nothing until the writer deploys: a preview still building when a window opens is followed
// by the scheduler (previewModel.ts), a finished one is read from the shared state alone.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { Settings } from '../config';
import type { DocsLocator } from '../docs/docsLocator';
import { failureView } from '../errorMessages';
import { isSafeBranchName } from '../git/branchName';
import type { WorkspaceGit } from '../git/workspaceGit';
import { jobLabel, type JobStore, type TrackedJob } from '../jobs/jobStore';
import { JobNode, type RowNote, type RowNotes } from '../jobs/jobsTree';
import type { Logger } from '../log';
import { reportFailure } from '../reportFailure';
import type { RequestLedger } from '../sync/requestLedger';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { askToFixBuild, type FixBuildDeps, type FixBuildSent } from './askToFixBuild';
import { BuildFixes, type BuildFixSync } from './buildFixes';
import { BuildLogs } from './buildLogs';
import { PreviewModel, type PreviewSync } from './previewModel';
import { isOlder, openable, type SharedPreview, stageOf } from './previewRecord';
import { changedPages, type Opened, openRenderedPage, pageOfUri, type PageTarget, type RenderedPageDeps } from './renderedPage';

const LOG_SCHEME = 'mintlify-preview-log';

export interface PreviewPorts {
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
  const fixes = new BuildFixes(ports.sync, () => jobs.projectId);
  const pages: RenderedPageDeps = { docs: ports.docs, hints: ports.git, ui, log };
  /** The jobs whose deployment this window sent: its notices (ready, failed) are shown here. */
  const mine = new Set<string>();
  const deploying = new Set<string>();
  let lastReviewed: string | undefined;
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
      if (mine.has(jobId)) background(notice(jobId, preview), log, `the notice of ${jobId}'s preview`);
    }),
  );
  ports.rows.addNotes({ noteOf: (tracked) => rowNote(model, tracked), onDidChange: model.onDidChange });

  async function notice(jobId: string, preview: SharedPreview): Promise<void> {
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

  /** The job a command is about: a row, an id, the job Review Changes last showed here, or the writer's pick. */
  async function jobOf(arg: unknown, wanted: (t: TrackedJob) => boolean, title: string): Promise<string | undefined> {
    if (typeof arg === 'string' && arg) return arg;
    if (arg instanceof JobNode) return arg.tracked.id;
    const last = lastReviewed ? jobs.get(lastReviewed) : undefined;
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

  async function previewBranch(arg: unknown): Promise<SharedPreview | undefined> {
    const jobId = await jobOf(arg, (t) => Boolean(t.job?.ref), vscode.l10n.t('Preview Branch'));
    const tracked = jobId ? jobs.get(jobId) : undefined;
    if (!jobId || !tracked) return undefined;
    const branch = tracked.job?.ref;
    if (!branch) return void ui.showMessage('info', vscode.l10n.t('“{0}” has no branch yet, so there is nothing to deploy.', jobLabel(tracked)));
    if (!isSafeBranchName(branch))
      return void ui.showMessage(
        'error',
        vscode.l10n.t('The job names its branch “{0}”, which is not a plain git branch name, so it is not deployed.', branch),
      );
    if (deploying.has(jobId)) return void ui.showMessage('info', vscode.l10n.t('The preview of “{0}” is being deployed already.', jobLabel(tracked)));
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
    return send(jobId, branch);
  }

  async function send(jobId: string, branch: string): Promise<SharedPreview | undefined> {
    deploying.add(jobId);
    try {
      const preview = await model.deploy(jobId, branch);
      mine.add(jobId);
      log.info(`preview of ${jobId}: ${branch} deployed (status ${preview.statusId})`);
      return preview;
    } catch (error) {
      // Retry is offered only when nothing can have been deployed: it is the writer's second click.
      const retried = await reportFailure({ ui, log }, error, {
        context: 'preview',
        doing: `preview of ${jobId}: deploying ${branch}`,
        on: { retry: () => send(jobId, branch) },
      });
      return retried as SharedPreview | undefined;
    } finally {
      deploying.delete(jobId);
    }
  }

  async function openPage(arg: unknown): Promise<Opened | undefined> {
    // A page's diff title passes its file (a `git:` side or the workspace file); Review Changes' title passes the multi-diff's own URI, which is no page.
    const uri = arg instanceof vscode.Uri && (arg.scheme === 'file' || arg.scheme === 'git') ? arg : undefined;
    const ready = (t: TrackedJob) => stageOf(model.get(t.id) ?? ({ status: '' } as SharedPreview)) === 'ready';
    const jobId = await jobOf(arg instanceof vscode.Uri ? undefined : arg, ready, vscode.l10n.t('Open Rendered Page'));
    const preview = jobId ? model.get(jobId) : undefined;
    if (!jobId || !preview) return undefined;
    if (stageOf(preview) !== 'ready') return void ui.showMessage('info', vscode.l10n.t('The preview is not ready yet ({0}).', preview.status));
    let target: PageTarget | undefined;
    if (uri) {
      target = await pageOfUri(pages, uri);
      if (!target) {
        void ui.showMessage(
          'info',
          vscode.l10n.t('{0} is not a page of the docs site, so the preview has no page for it.', vscode.workspace.asRelativePath(uri)),
        );
        return { notPage: uri.toString() };
      }
    } else {
      const changed = await changedPages(pages, preview);
      const home: PageTarget = { sitePath: '/' };
      const picked = await ui.showQuickPick(
        [...changed, home].map((p) => ({ label: p.sitePath, description: p.repositoryPath ?? vscode.l10n.t('the home page'), target: p })),
        {
          title: vscode.l10n.t('Open Rendered Page'),
          placeHolder: preview.filesLeftOut
            ? vscode.l10n.t('A page the agent changed, or the home page ({0} more files of the commit are not listed)', preview.filesLeftOut)
            : vscode.l10n.t('A page the agent changed, or the home page'),
        },
      );
      target = picked?.target;
    }
    // A diff's title passes its side (a page) or Review Changes' own URI: the command came from a diff.
    return target && openRenderedPage(pages, preview, target, arg instanceof vscode.Uri);
  }

  async function showLog(arg: unknown): Promise<void> {
    const jobId = await jobOf(arg, (t) => model.get(t.id) !== undefined, vscode.l10n.t('Show Build Log'));
    if (!jobId) return;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: LOG_SCHEME, path: `/${encodeURIComponent(jobId)}/build.log` }));
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  async function fixBuild(arg: unknown): Promise<FixBuildSent | undefined> {
    const jobId = await jobOf(
      arg,
      (t) => stageOf(model.get(t.id) ?? ({ status: '' } as SharedPreview)) === 'failed',
      vscode.l10n.t('Ask the Agent to Fix the Build'),
    );
    const preview = jobId ? model.get(jobId) : undefined;
    if (!jobId || !preview) return undefined;
    if (stageOf(preview) !== 'failed')
      return void ui.showMessage('info', vscode.l10n.t('The last preview of this job did not fail, so there is no build to fix.'));
    return askToFixBuild({ jobs, ui, ledger: ports.ledger, logOf: (id) => model.logOf(id), fixes, log }, jobId, preview);
  }

  command(COMMANDS.previewBranch, (arg?: unknown) => previewBranch(arg));
  command(COMMANDS.openRenderedPage, (arg?: unknown) => openPage(arg));
  command(COMMANDS.showPreviewLog, (arg?: unknown) => showLog(arg));
  command(COMMANDS.askToFixBuild, (arg?: unknown) => fixBuild(arg));
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

/**
 * The row's words and marks once the job has a preview (a row without one is left as it was: Preview Branch
 * is offered on every job row by the context key).
 */
function rowNote(model: PreviewModel, tracked: TrackedJob): RowNote | undefined {
  const preview = model.get(tracked.id);
  if (!preview) return undefined;
  const stage = stageOf(preview);
  const older = isOlder(preview, model.tipOf(tracked.id));
  const words = {
    building: vscode.l10n.t('preview building'),
    ready: vscode.l10n.t('preview ready'),
    failed: vscode.l10n.t('preview failed'),
    unfinished: vscode.l10n.t('preview status unknown'),
  };
  const error = model.errorOf(tracked.id);
  const lines = [
    vscode.l10n.t('Preview: {0} (status “{1}”, deployed {2}).', words[stage], preview.status, new Date(preview.requestedAt).toLocaleString()),
    preview.previewUrl ? vscode.l10n.t('Address: {0}', preview.previewUrl) : '',
    preview.sha ? vscode.l10n.t('Commit: {0}', preview.sha.slice(0, 12)) : '',
    preview.summary ? vscode.l10n.t('Summary: {0}', preview.summary) : '',
    older ? vscode.l10n.t('The agent’s branch has moved on since: the preview is of an older commit. Preview Branch deploys it again.') : '',
    stage === 'unfinished' ? vscode.l10n.t('Its status did not end within 20 minutes and is no longer read.') : '',
    error ? vscode.l10n.t('Last status read: {0}', failureView(error, 'previewStatus', vscode.l10n).message) : '',
  ];
  const marks = [stage === 'ready' && 'previewReady', stage === 'failed' && 'previewFailed', older && 'previewOlder'].filter(Boolean);
  const images =
    stage === 'ready'
      ? (
          [
            [vscode.l10n.t('Screenshot (light)'), preview.screenshotLight],
            [vscode.l10n.t('Screenshot (dark)'), preview.screenshotDark],
          ] as const
        ).flatMap(([label, url]) => (openable(url) ? [{ label, url: url as string }] : []))
      : [];
  return {
    text: older ? vscode.l10n.t('preview of an older commit') : words[stage],
    tooltip: lines.filter(Boolean).join('\n\n'),
    mark: marks.join(':') || 'preview',
    images,
  };
}

/**
 * The readable view of a build: its summary, branch, commit and every kept log line, as plain text,
 * saying what the kept copy leaves out of what the platform sent.
 */
async function buildLogText(model: PreviewModel, jobId: string): Promise<string> {
  const preview = model.get(jobId);
  if (!preview) return vscode.l10n.t('No preview of this job is known in this window.');
  const read = await model.logOf(jobId);
  const log = read && 'log' in read ? read.log : undefined;
  const lines = log
    ? log.lines.map((line, i) => {
        const more = (log.lengths[i] ?? line.length) - line.length;
        return more > 0 ? vscode.l10n.t('{0}… ({1} more characters not kept)', line, more) : line;
      })
    : [];
  return [
    vscode.l10n.t('Preview of {0}: {1}', preview.branch, preview.status),
    (log?.summary ?? preview.summary) ? vscode.l10n.t('Summary: {0}', log?.summary ?? preview.summary ?? '') : '',
    preview.sha ? vscode.l10n.t('Commit: {0}', preview.sha) : '',
    '',
    ...(log && log.total > log.lines.length ? [vscode.l10n.t('(the first {0} of its {1} lines are not kept)', log.total - log.lines.length, log.total)] : []),
    ...(lines.length
      ? lines
      : [
          read && 'error' in read
            ? vscode.l10n.t('(its log could not be read: {0})', failureView(read.error, 'previewStatus', vscode.l10n).message)
            : vscode.l10n.t('(no log lines yet)'),
        ]),
  ].join('\n');
}
