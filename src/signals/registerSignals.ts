// Reader signals wired into the window: the kept snapshot, the "Reader Signals" view, the commands,
// the page's health in the status-bar tooltip, and the daily background refresh. Building sends
// nothing: the kept snapshot is read from disk, and a fetch waits for the writer or the hour.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { Settings } from '../config';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import type { DocsLocator } from '../docs/docsLocator';
import type { ReadersStatusBar } from '../readers/readersStatusBar';
import type { WindowSync } from '../sync/windowSync';
import type { HourGate } from '../hour/hourGate';
import type { Ui } from '../ui';
import { agentPromptSender, type PromptSender } from './promptSender';
import { registerPageHealth } from './pageHealthSection';
import { SignalJobs } from './signalJobs';
import { type LiveSearch, registerSignalsCommands } from './signalsCommands';
import { SignalsStore } from './signalsStore';
import { SignalsTreeProvider } from './signalsTree';
import { registerSignalsView } from './signalsView';
import { background } from '../util/background';
import type { RegisterCommand } from '../commands';

const SIGNALS_VIEW = 'mintlifyAgent.signals';

interface SignalsPorts {
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
  /** What features above this one add to Did It Help?'s answer about a signal's job (src/search: its searches before and after): a sentence, or undefined. */
  jobNotes: ((jobId: string) => string | undefined)[];
  /** The site's own search for a prompt about searches readers gave up on (src/search sets it); undefined: none. */
  liveSearch: LiveSearch | undefined;
  /** Notes other features add to the view's rows (src/search: what a term's check found). */
  rowNotes: SignalsTreeProvider['addNotes'];
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
  const links = new SignalJobs(deps.sync, log);
  const tree = new SignalsTreeProvider(store, deps.jobs, links, { rankByAiShare: () => deps.settings.signals.rankByAiShare, projectId });
  const view = vscode.window.createTreeView(SIGNALS_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  // Swappable by tests, like the Ui: the commands send through the handle's sender.
  const handle: SignalsHandle = {
    store,
    tree,
    view,
    links,
    sender: agentPromptSender(deps.ui, deps.jobs),
    impactNotes: [],
    jobNotes: [],
    liveSearch: undefined,
    rowNotes: (notes) => tree.addNotes(notes),
  };
  const sender: PromptSender = { previewAndSend: (prompt, options) => handle.sender.previewAndSend(prompt, options) };

  registerPageHealth(context, { statusBar: deps.readers.statusBar, store, links, jobs: deps.jobs, projectId });
  context.subscriptions.push(store, links, tree, view);
  const { describeView, backgroundTick } = registerSignalsView(context, { store, links, tree, view, jobs: deps.jobs, settings: deps.settings, projectId, log });
  registerSignalsCommands(context, {
    command,
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
    jobNotes: handle.jobNotes,
    liveSearch: () => handle.liveSearch,
  });
  // The kept snapshot is read from disk now (no request), so the tooltip and the view have it, and
  // the daily refresh is checked: a view visible from the start sends no visibility event.
  background(
    store.load().then(() => (describeView(), backgroundTick())),
    log,
    'reading the kept signals',
  );
  return handle;
}
