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
import type { JobStore, TrackedJob } from '../jobs/jobStore';
import type { RowNote, RowNotes } from '../jobs/jobsTree';
import type { Logger } from '../log';
import { reportFailure } from '../reportFailure';
import type { SignalsHandle } from '../signals/registerSignals';
import type { LiveSearch } from '../signals/signalsCommands';
import { buildInbox, signalId } from '../signals/signalsModel';
import type { WindowSync } from '../sync/windowSync';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { SearchChecks } from './searchChecks';
import { registerSearchCommands, type SearchCommandPorts } from './searchCommands';
import { gapOf, type Gap, replayOutcome } from './searchOutcome';
import { gapInstruction, liveLines } from './searchPrompt';
import { SearchReplays } from './searchReplays';
import { checkNote, checkTooltip, replayNote, replaySummary, termLine } from './searchText';

export interface SearchPorts {
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

  // Reader Signals: a term's row says what its check found (kept checks only: drawing sends nothing).
  const searchPrefix = signalId.search('');
  // Redrawn when a check is kept (here or in another window), or the key or the site changes.
  const notesChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    notesChanged,
    ports.sync.searchChecks.onDidChange(() => notesChanged.fire()),
    assistantKeys.onDidChange(() => notesChanged.fire()),
    settings.onDidChange((change) => change.affects('search') && notesChanged.fire()),
  );
  ports.signals.rowNotes({
    noteOf: (id) => {
      if (!searchable()) return undefined;
      if (id === 'group:searches') return groupNote(ports.signals.store, checks);
      const term = id.startsWith(searchPrefix) ? id.slice(searchPrefix.length) : undefined;
      const check = term === undefined ? undefined : checks.kept(term);
      if (term === undefined || !check) return undefined;
      // Drawn at once, so the workspace is not asked whether the page expected exists: a page named counts as one that does.
      const gap = gapOf(check, check.expect, true);
      return { text: checkNote(check, gap), tooltip: checkTooltip(term, check, gap) };
    },
    onDidChange: notesChanged.event,
  });

  // A prompt about searches readers gave up on: which gap, the results today, and the before of the job it reaches.
  ports.signals.liveSearch = {
    async prepare(terms) {
      const domain = searchable();
      if (!domain) return undefined;
      const expect = await expectedPage();
      const run = await checks.check(terms, { ...(expect && { expect }) });
      if (run.error) fail(vscode.l10n.t('Searching the site'), run.error);
      if (!run.checks.size) return undefined;
      const checked = await Promise.all([...run.checks].map(async ([term, check]) => ({ term, check, gap: await gapFor(check) })));
      return {
        lines: liveLines(checked),
        instruction: gapInstruction(checked.map((c) => c.gap)),
        record: (projectId, jobId) =>
          background(replays.record(projectId, jobId, domain, run.checks, expect), log, `recording the searches before job ${jobId}`),
      };
    },
  };

  // Did It Help?, the job's row and its notification: the searches before and after.
  const project = () => settings.projectId;
  ports.signals.jobNotes.push((jobId) => {
    const replay = project() && replays.get(project() ?? '', jobId);
    if (!replay) return undefined;
    const outcome = replayOutcome(replay);
    if (replay.afterAt === undefined)
      return vscode.l10n.t(
        'The site’s search: {0} searches readers gave up on are searched again once the job’s change is live (merged and deployed).',
        outcome.terms.length,
      );
    return [vscode.l10n.t('The site’s search, the same day:'), replaySummary(outcome), ...outcome.terms.map(termLine)].join(' ');
  });
  ports.rows.addNotes({
    noteOf: (tracked: TrackedJob): RowNote | undefined => {
      const replay = project() && replays.get(project() ?? '', tracked.id);
      if (!replay) return undefined;
      const outcome = replayOutcome(replay);
      const note = replayNote(replay, outcome);
      const misses = replay.afterAt !== undefined && outcome.terms.some((t) => t.after?.kind !== 'finds');
      return { ...note, mark: misses ? 'searches misses' : 'searches' };
    },
    onDidChange: replays.onDidChange,
  });

  // A pull (or a fetch) is what usually brings the merge: once a job waits for its after, each
  // change of the workspace's repositories is a reason to look (local git only, bounded per job).
  let watchingGit = false;
  const watchGit = () => {
    const waiting = project() && replays.all(project() ?? '').some(([, replay]) => replay.afterAt === undefined);
    if (watchingGit || !waiting || !vscode.workspace.isTrusted) return;
    watchingGit = true;
    const watched = ports.git.git().then((api) => {
      if (!api) return void (watchingGit = false);
      const watch = (repository: { state: { onDidChange: vscode.Event<void> } }) =>
        context.subscriptions.push(repository.state.onDidChange(() => replays.considerAll()));
      api.repositories.forEach(watch);
      context.subscriptions.push(api.onDidOpenRepository(watch));
    });
    background(watched, log, "watching the workspace's git for merges");
  };
  context.subscriptions.push(replays.onDidChange(watchGit), settings.onDidChange(watchGit));
  background(ports.sync.ready.then(watchGit), log, "watching the workspace's git for merges");

  const deps: SearchCommandPorts = { ...ports, log, checks, replays, searchable, gapFor, expectedPage, fail };
  registerSearchCommands(context, deps);
  return handle;
}

/** The searches group's row: how many of its terms have a check kept, and how many of those find nothing. */
function groupNote(store: SignalsHandle['store'], checks: SearchChecks): { text: string; tooltip: string } | undefined {
  const snapshot = store.current();
  if (!snapshot) return undefined;
  const terms = buildInbox(snapshot).searches.map((s) => s.searchQuery);
  const kept = terms.flatMap((t) => checks.kept(t) ?? []);
  if (!kept.length) return undefined;
  const nothing = kept.filter((c) => !c.hits.length).length;
  return {
    text: vscode.l10n.t('{0} checked, {1} find nothing', kept.length, nothing),
    tooltip: vscode.l10n.t(
      '{0} of these searches were checked against the site’s search in the last day; {1} find nothing (content gaps).',
      kept.length,
      nothing,
    ),
  };
}
