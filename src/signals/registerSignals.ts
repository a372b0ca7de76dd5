// Reader signals wired into the window: the kept snapshot, the "Reader Signals" view, the commands,
// the page's health in the status-bar tooltip, and the daily background refresh. Building sends
// nothing: the kept snapshot is read from disk, and a fetch waits for the writer or the hour.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { CutShort } from '../api/paging';
import { cutShortText } from '../cutShortText';
import type { Settings } from '../config';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { DocsLocator } from '../docs/docsLocator';
import type { ReadersStatusBar } from '../readers/readersStatusBar';
import type { WindowSync } from '../sync/windowSync';
import type { HourGate } from '../sync/hourGate';
import type { Ui } from '../ui';
import { appendPageHealth } from './healthTooltip';
import { agentPromptSender, type PromptSender } from './promptPreview';
import { jobBadge, linkedJobState, SignalJobs } from './signalJobs';
import { pageHealth, signalId } from './signalsModel';
import { registerSignalsCommands } from './signalsCommands';
import type { SignalsList } from './snapshot';
import { SignalsStore } from './signalsStore';
import { SignalsTreeProvider } from './signalsTree';
import { background } from '../util/background';
import { COMMANDS, type RegisterCommand } from '../commands';

const SIGNALS_VIEW = 'mintlifyAgent.signals';
const HAS_SIGNALS_KEY = 'mintlifyAgent.hasSignals';
/** How often a visible view checks whether the daily background refresh is due. */
const CHECK_EVERY_MS = 5 * 60 * 1000;

export interface SignalsPorts {
  command: RegisterCommand;
  api: ApiClient;
  settings: Settings;
  /** The tracked agent jobs: a signal's linked job and its state. */
  jobs: JobStore;
  /** The links' area (which signals each job addresses), read once the store is. */
  sync: Pick<WindowSync, 'links' | 'ready' | 'writeAgain'>;
  /** The organisation's analytics hour: every signals request passes it. */
  gate: HourGate;
  /** The readers' docs pages (a signal's page opens its file) and status item (the page's health in its tooltip). */
  readers: { docs: DocsLocator; statusBar: Pick<ReadersStatusBar, 'addSection'> };
  ui: Ui;
  log: Logger;
}

/** The pieces of this window, for the tests. */
export interface SignalsHandle {
  store: SignalsStore;
  tree: SignalsTreeProvider;
  view: vscode.TreeView<unknown>;
  links: SignalJobs;
  /** Swappable by tests, like the Ui. */
  sender: PromptSender;
  /**
   * What features above this one add to Did It Help?'s answer about a page (code-block feedback
   * says how much of it is about blocks the page no longer has): one sentence each, or undefined.
   */
  impactNotes: ((path: string) => Promise<string | undefined>)[];
}

/** Builds the store, the view and the links, and registers the commands. */
export function registerSignals(context: vscode.ExtensionContext, ports: SignalsPorts): SignalsHandle {
  const { command, ...deps } = ports;
  const log = deps.log.scoped('signals');
  const projectId = () => deps.settings.projectId;
  const store = new SignalsStore({
    api: deps.api,
    projectId,
    storageDir: vscode.Uri.joinPath(context.globalStorageUri, 'signals'),
    gate: deps.gate,
    windowShare: () => deps.settings.signals.backgroundShare,
    log,
    apiBaseUrl: () => deps.settings.apiBaseUrl,
    basePath: () => deps.settings.docsBasePath,
  });
  const links = new SignalJobs(deps.sync, context.globalState, log);
  const tree = new SignalsTreeProvider(store, deps.jobs, links, { rankByAiShare: () => deps.settings.signals.rankByAiShare, projectId });
  const view = vscode.window.createTreeView(SIGNALS_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  // Swappable by tests, like the Ui: the commands send through the handle's sender.
  const handle: SignalsHandle = { store, tree, view, links, sender: agentPromptSender(deps.ui, deps.jobs), impactNotes: [] };
  const sender: PromptSender = { previewAndSend: (prompt, options) => handle.sender.previewAndSend(prompt, options) };

  const describeView = () => {
    const snapshot = store.current();
    void vscode.commands.executeCommand('setContext', HAS_SIGNALS_KEY, snapshot !== undefined); // a context key: nothing to wait for
    if (!snapshot) return void (view.message = undefined);
    const notes = [vscode.l10n.t('Last {0} days, fetched {1} with {2} requests.', 30, new Date(snapshot.fetchedAt).toLocaleString(), snapshot.requests)];
    // Every list the paging rule cut short says so (snapshots kept by older versions carry only the first two).
    const cut = snapshot.cutShort ?? {};
    if (cut.byPage?.reason === 'cap' || (!snapshot.cutShort && snapshot.byPageHasMore))
      notes.push(vscode.l10n.t('Votes cover the 100 pages with the most feedback (the API returns no more).'));
    if (cut.searches?.reason === 'cap' || (!snapshot.cutShort && !snapshot.searchesComplete))
      notes.push(vscode.l10n.t('Searches: the {0} most searched terms.', snapshot.searches.length));
    const names: Record<SignalsList, string> = {
      byPage: vscode.l10n.t('Votes'),
      pending: vscode.l10n.t('Pending feedback'),
      questions: vscode.l10n.t('Assistant questions'),
      searches: vscode.l10n.t('Searches'),
      views: vscode.l10n.t('Views'),
    };
    for (const [list, cutShort] of Object.entries(cut) as [SignalsList, CutShort][]) {
      // The views' depth is the snapshot's own choice (the most viewed pages), shown on each row instead.
      if (cutShort.reason === 'cap' && list !== 'pending' && list !== 'questions') continue;
      notes.push(cutShortText(names[list], cutShort, vscode.l10n));
    }
    view.message = notes.join(' ');
  };

  // "Job active / PR ready" and the clock of "Did it help?": note when a linked job finishes.
  const noteFinished = () => {
    const project = projectId();
    if (project)
      background(
        links.noteFinished(project, (id) => linkedJobState(deps.jobs.get(id)) === 'prReady', new Date()),
        log,
        'noting the finished jobs of the signals',
      );
  };

  const backgroundTick = () => {
    if (!view.visible || !vscode.window.state.focused || !store.current() || !store.isStale()) return;
    background(store.refresh('background'), log, 'the background refresh');
  };
  const timer = setInterval(backgroundTick, CHECK_EVERY_MS);

  // The open page's tooltip shows its health from the kept snapshot.
  deps.readers.statusBar.addSection(
    {
      commands: [COMMANDS.askToAddress],
      append(md, page) {
        const snapshot = store.current();
        if (!snapshot) return;
        const link = projectId() ? links.jobFor(projectId() ?? '', signalId.page(page.sitePath)) : undefined;
        const badge = link && jobBadge(deps.jobs.get(link.jobId));
        appendPageHealth(md, pageHealth(snapshot, page.sitePath), snapshot, { jobStatus: badge && vscode.l10n.t('Agent job {0}: {1}', link.jobId, badge) });
      },
    },
    store.onDidChange,
  );

  context.subscriptions.push(
    store,
    links,
    tree,
    view,
    { dispose: () => clearInterval(timer) },
    store.onDidChange(describeView),
    deps.jobs.onDidChange(noteFinished),
    view.onDidChangeVisibility(() => view.visible && background(store.load().then(backgroundTick), log, 'reading the kept signals')),
    deps.settings.onDidChange((change) => change.affects('signals.rankByAiShare') && tree.refresh()),
    // Another project: its kept snapshot (the same project: nothing to do); another API address: its own, if one is kept.
    deps.settings.onDidChange((change) => background(store.load(change.affects('apiBaseUrl')), log, 'reading the kept signals')),
  );
  registerSignalsCommands(
    {
      api: deps.api,
      store,
      links,
      jobs: deps.jobs,
      docs: deps.readers.docs,
      sender,
      projectId,
      gate: deps.gate,
      ui: deps.ui,
      log,
      impactNotes: handle.impactNotes,
    },
    command,
  );
  // The kept snapshot is read from disk now (no request), so the tooltip and the view have it, and
  // the daily refresh is checked: a view visible from the start sends no visibility event.
  background(
    store.load().then(() => (describeView(), backgroundTick())),
    log,
    'reading the kept signals',
  );
  return handle;
}
