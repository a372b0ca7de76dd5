// The table of contents: activate() registers the commands and returns; start(), in the next turn
// (or at once for a command that comes first), wires one concern a line, and everything it creates
// is disposed with the extension. That turn is the only deferral: every feature is built in start(),
// which reads only what is kept (globalState, files, secrets) and sends no request.
import * as vscode from 'vscode';
import { createApiClient, type RequestLogEntry } from './api';
import { ApiKeyStore } from './auth/apiKey';
import { type AnalyticsHandle, registerAnalytics } from './analytics/registerAnalytics';
import { ANALYTICS_VIEW_TYPE } from './analytics/analyticsPanel';
import { registerAuthCommands } from './auth/authCommands';
import { Settings } from './config';
import { registerAskAboutThis } from './agent/askAboutThis';
import { type CodeFeedbackHandle, registerCodeFeedback } from './codeFeedback/registerCodeFeedback';
import { registerContextKeys } from './contextKeys';
import { registerReviewCommands } from './git/registerReviewChanges';
import { ReviewHints } from './git/reviewHints';
import { failureView, sharedWaitMessage } from './errorMessages';
import { registerJobCommands } from './jobs/jobCommands';
import { JobStore } from './jobs/jobStore';
import { JobTracker } from './jobs/jobTracker';
import { JobsStatusBar } from './jobs/jobsStatusBar';
import { JobsTreeProvider } from './jobs/jobsTree';
import { createLogger, type Logger } from './log';
import { type ReadersHandle, registerReaders } from './readers/registerReaders';
import { registerReview, type ReviewHandle } from './review/registerReview';
import { type PreviewHandle, registerPreview } from './preview/registerPreview';
import { registerSignals, type SignalsHandle } from './signals/registerSignals';
import { buildTools, registerTools } from './tools/registerTools';
import type { ToolTable } from './tools/toolDeps';
import { HourGate } from './sync/hourGate';
import { showLedger } from './sync/ledgerView';
import { WindowSync } from './sync/windowSync';
import { showFailure } from './showFailure';
import { createUi, type Ui, vscodeUi } from './ui';
import { background } from './util/background';
import { timeout } from './util/lifecycle';
import { lazyFeature, type LazyFeature } from './util/lazyFeature';
import { COMMAND_IDS, COMMANDS, type RegisterCommand } from './commands';

/** The extension's objects, as start() wires them. activate() hands them to nobody; see load(). */
export interface Parts {
  ui: Ui;
  store: JobStore;
  tracker: JobTracker;
  statusBar: JobsStatusBar;
  tree: JobsTreeProvider;
  sync: WindowSync;
  /** The one gate every analytics request passes (the organisation's hour). */
  gate: HourGate;
  analytics: AnalyticsHandle;
  readers: ReadersHandle;
  signals: SignalsHandle;
  /** Readers' feedback on a code block, at the block's lines (src/codeFeedback). */
  codeFeedback: CodeFeedbackHandle;
  /** Review comments on the agent's branch and Send Review to Agent (src/review). */
  review: ReviewHandle;
  /** The agent's branch as a preview deployment, its pages beside their diffs (src/preview). */
  preview: PreviewHandle;
  /** The language model tools, as registered (src/tools). */
  tools: ToolTable;
  /** How long start() took (performance.now); the log says it too. */
  startMs: number;
}

/** Called by VS Code; returns nothing, so no other extension reaches our objects. */
export function activate(context: vscode.ExtensionContext): void {
  load(context);
}

/**
 * Registers every contributed command and the panel's serializer, and returns: the extension's
 * objects are built in the next turn of the event loop, or at once by a command that comes first
 * (a command that activated the extension runs right after this returns). See BENCHMARKS.md §1.
 * `onRequest` also sees every call of the API client, sent or stopped before sending: only the
 * entry the host tests and the bench load (test/support/extensionUnderTest.ts) passes it, and only
 * that entry returns the parts to VS Code.
 */
export function load(context: vscode.ExtensionContext, onRequest?: (entry: RequestLogEntry) => void): LazyFeature<Parts> {
  const extension = lazyFeature(vscodeCommands(context.subscriptions), COMMAND_IDS, (command) => {
    const began = performance.now();
    const before = context.subscriptions.length;
    try {
      return start(context, command, onRequest, began);
    } catch (error) {
      // What was half built is let go, and the user is told once (every later command fails with the same error).
      for (const part of context.subscriptions.splice(before).reverse()) part.dispose();
      showFailure(vscodeUi, failureView(error, 'startUp', vscode.l10n)).catch(() => undefined);
      throw error;
    }
  });
  // The tools' names now (VS Code asks for them as soon as an activation returns); each builds the extension on first use.
  registerTools(context.subscriptions, () => extension.get().tools);
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(ANALYTICS_VIEW_TYPE, { deserializeWebviewPanel: async (panel) => extension.get().analytics.revive(panel) }),
    timeout(0, () => {
      try {
        extension.get();
      } catch {
        // Shown to the user by the build itself.
      }
    }),
  );
  return extension;
}

/** The extension's objects, wired: each line one concern, everything in context.subscriptions. */
function start(context: vscode.ExtensionContext, command: RegisterCommand, onRequest: ((entry: RequestLogEntry) => void) | undefined, began: number): Parts {
  const log = createLog(context, command);
  const ui = createUi();
  const settings = new Settings(context.globalState);
  const keys = new ApiKeyStore(context.secrets, log.scoped('auth'));
  const sync = new WindowSync(vscode.Uri.joinPath(context.globalStorageUri, 'sync'), log.scoped('sync'), context.globalState, () => settings.apiBaseUrl);
  context.subscriptions.push(
    settings,
    keys,
    sync,
    keys.onDidChange(() =>
      background(
        keys.get().then((key) => sync.ledger.setKey(key)),
        log,
        "naming the key's bucket in the shared ledger",
      ),
    ),
  );
  const api = createClient(context, settings, keys, sync, log, onRequest);
  const gate = new HourGate(sync.ledger.account, ui, vscode.l10n, Date.now, () => settings.analyticsTeamSize);

  const store = new JobStore(context.globalState, sync, log.scoped('store'));
  const reviewHints = new ReviewHints(log.scoped('git'));
  const tracker = new JobTracker({ api, store, keys, settings, ui, sync, log: log.scoped('jobs'), canReview: (t) => reviewHints.isReviewable(t) });
  const tree = new JobsTreeProvider(store, tracker, keys, reviewHints);
  const statusBar = new JobsStatusBar(store);
  const jobsView = vscode.window.createTreeView('mintlifyAgent.jobs', { treeDataProvider: tree, showCollapseAll: false });
  tree.keepTimesFresh(jobsView);
  context.subscriptions.push(reviewHints, store, tracker, tree, statusBar, jobsView, showLedger(jobsView, statusBar, sync, store, settings));
  registerContextKeys(context, keys, settings, store);

  registerAuthCommands(command, keys, settings, ui);
  registerJobCommands(command, tracker, store, ui, log.scoped('commands'));
  registerReviewCommands(context, command, reviewHints, store, tracker, settings, ui, log.scoped('git'));
  const review = registerReview(context, command, { sync, store, hints: reviewHints, tree, ui, log: log.scoped('review') });
  const readers = registerReaders(context, { api, settings, keys, ui, log, gate }, command);
  const analytics = registerAnalytics(
    context,
    { api, settings, ui, log, gate, onDidChangeApiKey: keys.onDidChange, snapshots: readers.snapshots, trends: sync.trends },
    command,
  );
  registerAskAboutThis(command, {
    docs: { pageOf: (uri) => readers.docs.pageOf(uri) },
    store,
    ui,
    repositoryPathOf: (uri) => reviewHints.repositoryPathOf(uri),
    log: log.scoped('agent'),
  });
  const signals = registerSignals(context, { api, settings, store, sync, gate, readers, ui, log }, command);
  const codeFeedback = registerCodeFeedback(context, { signals, docs: readers.docs, settings, jobs: store, hour: sync.ledger, ui, log }, command);
  const preview = registerPreview(context, command, {
    api,
    sync,
    store,
    hints: reviewHints,
    docs: readers.docs,
    tree,
    settings,
    ui,
    log: log.scoped('preview'),
  });
  const tools = buildTools({ keys, settings, readers, signals, jobs: store, tracker, gate, reviews: review, ui, log: log.scoped('tools') });

  const startMs = performance.now() - began;
  log.info(`activated ${String((context.extension.packageJSON as { version?: unknown }).version)} (built in ${startMs.toFixed(1)} ms)`);
  return { ui, store, tracker, statusBar, tree, sync, gate, analytics, readers, signals, codeFeedback, review, preview, tools, startMs };
}

/** The log: one output channel, and the command that shows it. */
function createLog(context: vscode.ExtensionContext, command: RegisterCommand): Logger {
  const channel = vscode.window.createOutputChannel('Mintlify Agent & Analytics', { log: true });
  context.subscriptions.push(channel);
  command(COMMANDS.showLog, () => channel.show());
  return createLogger(channel);
}

/** The API client: every request logged, counted in the shared ledger, and shown to `onRequest`. */
function createClient(
  context: vscode.ExtensionContext,
  settings: Settings,
  keys: ApiKeyStore,
  sync: WindowSync,
  log: Logger,
  onRequest: ((entry: RequestLogEntry) => void) | undefined,
) {
  const logApi = logRequest(log.scoped('api'));
  return createApiClient({
    baseUrl: () => settings.apiBaseUrl,
    getApiKey: () => keys.get(),
    timeoutMs: () => settings.requestTimeoutMs,
    userAgent: `mintlify-agent-analytics/${String((context.extension.packageJSON as { version?: unknown }).version)} (VS Code ${vscode.version})`,
    onRequest: (entry) => {
      logApi(entry);
      sync.ledger.record(entry);
      onRequest?.(entry);
    },
    familyWaitMs: (family) => sync.ledger.familyWaitMs(family),
    sharedWaitMessage: (ms) => sharedWaitMessage(ms, vscode.l10n),
  });
}

/** Registers commands with VS Code, each disposed with the extension. */
function vscodeCommands(subscriptions: vscode.Disposable[]): RegisterCommand {
  return (id, handler) => void subscriptions.push(vscode.commands.registerCommand(id, handler));
}

export function deactivate(): void {
  // Everything, timers and requests in flight included, is disposed through context.subscriptions.
}

function logRequest(log: Logger) {
  return (entry: RequestLogEntry) => {
    const outcome = entry.sent
      ? `→ ${entry.status ?? entry.error?.message ?? '?'} (${Math.round(entry.durationMs)} ms)`
      : `not sent: ${entry.error?.message ?? '?'}`;
    const line = `${entry.method} ${entry.path} ${outcome}`;
    if (entry.error) log.warn(line);
    else log.info(line);
  };
}
