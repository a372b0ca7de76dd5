// The site's own search, wired: the searches readers gave up on (Reader Signals) checked against the
// live site (what it returns, the rank of the page expected, which gap), the before recorded with a
// job started or followed up from them, the after searched once its change is live, and both shown
// where the job is (its row, its notification, Did It Help?). It needs the assistant key and the
// site's domain identifier (src/auth/assistantKey.ts) and nothing else of the extension needs them:
// without them nothing of search is offered. Building sends nothing: every search is a writer's click
// or the one replay of a job whose change went live.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { ApiKeyStore } from '../auth/apiKey';
import type { RegisterCommand } from '../commands';
import type { Settings } from '../config';
import type { DocsLocator } from '../docs/docsLocator';
import { mergeWithFiles } from '../git/jobMerge';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { JobStore } from '../jobs/jobStore';
import type { RowNotes } from '../jobs/jobsTree';
import type { Logger } from '../log';
import { reportFailure } from '../reportFailure';
import type { SignalsHandle } from '../signals/registerSignals';
import type { LiveSearch } from '../signals/signalsCommands';
import type { WindowSync } from '../sync/windowSync';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { SearchChecks } from './searchChecks';
import { registerLiveSearch } from './liveSearch';
import { registerReplayNotes } from './replayNotes';
import { registerSearchCommands } from './searchCommands';
import { gapOf, type Gap } from './searchOutcome';
import { SearchReplays } from './searchReplays';
import { registerSearchRowNotes } from './searchRowNotes';
import { registerMergeWatch } from './watchGitForMerges';

interface SearchPorts {
  command: RegisterCommand;
  api: Pick<ApiClient, 'searchSite'>;
  settings: Pick<Settings, 'projectId' | 'search' | 'docsBasePath' | 'onDidChange'>;
  /** The assistant key's store (its own slot): whether one is set, and when it changes. */
  assistantKeys: Pick<ApiKeyStore, 'hasKey' | 'onDidChange'>;
  /** The checks every window shares, each job's before and after, and who leads the project (the one window that replays). */
  sync: Pick<WindowSync, 'searchChecks' | 'searchJobs' | 'lease' | 'ready'>;
  jobs: JobStore;
  /** The inbox's searches and their links to jobs, and the hooks of Reader Signals this feature fills. */
  signals: Pick<SignalsHandle, 'store' | 'links' | 'jobNotes' | 'rowNotes'> & { liveSearch: LiveSearch | undefined };
  /** The workspace's git: a pull that brings a job's merge is a reason to look for it (loaded only while a job waits). */
  git: Pick<WorkspaceGit, 'git'>;
  /** Which file a site path is, and which page a file is (the one mapping). */
  docs: Pick<DocsLocator, 'fileOf' | 'pageOf'>;
  /** The Agent Jobs rows: a job's searches before and after. */
  rows: { addNotes(notes: RowNotes): void };
  /** The project's agent requests this hour (the misses' follow-up says its cost). */
  ledger: { agentRequestsThisHour(project: string): number };
  ui: Ui;
  log: Logger;
}

/** The pieces of this window, for the tests and the language model tools. */
export interface SearchHandle {
  checks: SearchChecks;
  replays: SearchReplays;
  /** The site's domain identifier when search can be used (the assistant key set too), else undefined. */
  searchable(): string | undefined;
}

export function registerSearch(context: vscode.ExtensionContext, ports: SearchPorts): SearchHandle {
  const { settings, assistantKeys, docs, ui } = ports;
  const log = ports.log.scoped('search');
  const searchable = () => (assistantKeys.hasKey ? settings.search.siteDomain : undefined);
  const checks = new SearchChecks({
    api: ports.api,
    area: ports.sync.searchChecks,
    domain: () => settings.search.siteDomain,
    basePath: () => settings.docsBasePath,
    log,
  });
  const replays = new SearchReplays({
    sync: ports.sync,
    checks,
    jobs: ports.jobs,
    project: () => settings.projectId,
    searchable,
    deployWaitMs: () => settings.search.deployWaitMs,
    liveChange: async (job, signal) => {
      const merge = await mergeWithFiles(job, signal);
      if (!merge) return undefined;
      const pages = (await Promise.all(merge.files.map((file) => docs.pageOf(file)))).flatMap((page) => (page ? [page.sitePath] : []));
      return { commit: merge.commit, at: merge.at, pages: [...new Set(pages)] };
    },
    log,
  });
  const handle: SearchHandle = { checks, replays, searchable };
  const fail = (doing: string, error: unknown) => {
    background(reportFailure({ ui, log }, error, { context: 'search', doing }), log, `${doing}: the failure message`);
  };
  context.subscriptions.push(
    replays,
    assistantKeys.onDidChange(() => replays.retryFailed()),
    settings.onDidChange((change) => (change.affects('search') || change.affects('projectId')) && replays.retryFailed()),
    replays.onDidFail(({ jobId, error }) => fail(vscode.l10n.t('Searching again for job {0}', jobId), error)),
  );

  /** Which gap a check shows, with the page expected (it exists when the workspace has its file). */
  const gapFor = async (check: { hits: { p: string }[]; expect?: string }): Promise<Gap> =>
    gapOf(check, check.expect, check.expect ? Boolean(await docs.fileOf(check.expect)) : false);
  /** The docs page open in the editor: the page the writer expects a search to find. */
  const expectedPage = async () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri && (await docs.pageOf(uri))?.sitePath;
  };

  const deps = { ...ports, log, checks, replays, searchable, gapFor, expectedPage, fail };
  registerSearchRowNotes(context, deps);
  registerLiveSearch(context, deps);
  registerReplayNotes(context, deps);
  registerMergeWatch(context, deps);
  registerSearchCommands(context, deps);
  return handle;
}
