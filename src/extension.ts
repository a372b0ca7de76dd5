// The table of contents: activate() registers the commands and returns; start(), in the next turn
// (or at once for a command that comes first), wires one concern a line, and everything it creates
// is disposed with the extension. That turn is the only deferral: every feature is built in start(),
// which reads only what is kept (globalState, files, secrets) and sends no request.
import * as vscode from 'vscode';
import { createApiClient, type EndpointName, type RequestLogEntry } from './api';
import type { ApiKeyStore } from './auth/apiKey';
import { registerAuth } from './auth/registerAuth';
import { registerAssistantKey } from './auth/assistantKey';
import { type AnalyticsHandle, registerAnalytics } from './analytics/registerAnalytics';
import { ANALYTICS_VIEW_TYPE } from './analytics/analyticsPanel';
import { editorAiOff, onDidChangeEditorAi, Settings } from './config';
import { registerAskAboutThis } from './agent/askAboutThis';
import { registerAgentInstructions } from './agent/agentInstructions';
import { type CodeFeedbackHandle, registerCodeFeedback } from './codeFeedback/registerCodeFeedback';
import { registerContextKeys } from './contextKeys';
import { registerReviewChanges } from './git/registerReviewChanges';
import { WorkspaceGit } from './git/workspaceGit';
import { sharedWaitMessage } from './waitWords';
import type { JobStore } from './jobs/jobStore';
import type { JobTracker } from './jobs/jobTracker';
import type { JobsStatusBar } from './jobs/jobsStatusBar';
import type { JobsTreeProvider } from './jobs/jobsTree';
import { registerJobs } from './jobs/registerJobs';
import { createLogger, type Logger } from './log';
import { type ReadersHandle, registerReaders } from './readers/registerReaders';
import { registerReviewComments, type ReviewCommentsHandle } from './review/registerReviewComments';
import { type PreviewHandle, registerPreview } from './preview/registerPreview';
import { registerSearch, type SearchHandle } from './search/registerSearch';
import { registerSignals, type SignalsHandle } from './signals/registerSignals';
import { registerSiteSearchMcp } from './siteMcp/registerSiteSearchMcp';
import { registerToolNames, registerTools } from './tools/registerTools';
import type { ToolTable } from './tools/toolPorts';
import { HourGate } from './hour/hourGate';
import { WindowSync } from './sync/windowSync';
import { reportFailure } from './reportFailure';
import { createUi, type Ui, vscodeUi } from './ui';
import { timeout } from './util/lifecycle';
import { lazyFeature, type LazyFeature } from './util/lazyFeature';
import { COMMAND_IDS, COMMANDS, type RegisterCommand } from './commands';

/** The extension's objects, as start() wires them. activate() hands them to nobody; see load(). */
export interface Parts {
  ui: Ui;
  /** The tracked agent jobs (src/jobs/jobStore.ts). */
  jobs: JobStore;
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
  reviewComments: ReviewCommentsHandle;
  /** The agent's branch as a preview deployment, its pages beside their diffs (src/preview). */
  preview: PreviewHandle;
  /** The site's own search: searches readers gave up on, checked, and replayed once a job's change is live (src/search). */
  search: SearchHandle;
  /** The language model tools, as registered (src/tools). */
  tools: ToolTable;
  /** How long start() took (performance.now); the log says it too. */
  startMs: number;
}

/** Called by VS Code; returns nothing, so no other extension reaches our objects. */
// ts-unused-exports:disable-next-line
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
      // The error goes on to VS Code, whose log has it: no log of ours was built.
      reportFailure({ ui: vscodeUi, log: { warn: () => undefined, error: () => undefined } }, error, { context: 'startUp' }).catch(() => undefined);
      throw error;
    }
  });
  // The tools' names now (VS Code asks for them as soon as an activation returns); each builds the extension on first use.
  registerToolNames(context, () => extension.get().tools, { off: editorAiOff, onDidChange: onDidChangeEditorAi });
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

/**
 * The extension's objects, wired. First what every feature shares (the log, the dialogs, the
 * settings, the other windows, the key, the API, the hour, the workspace's git); then one line per
 * feature, `register<Feature>(context, ports)`, each handed only what it uses and scoping its own
 * log. Everything goes in context.subscriptions.
 */
function start(context: vscode.ExtensionContext, command: RegisterCommand, onRequest: ((entry: RequestLogEntry) => void) | undefined, began: number): Parts {
  const log = createLog(context, command);
  const ui = createUi();
  const settings = new Settings(context.globalState);
  const sync = new WindowSync(vscode.Uri.joinPath(context.globalStorageUri, 'sync'), log.scoped('sync'), context.globalState, () => settings.apiBaseUrl);
  context.subscriptions.push(settings, sync);
  const keys = registerAuth(context, { command, settings, ledger: sync.ledger, ui, log });
  const assistantKeys = registerAssistantKey(context, { command, settings, ui, log });
  const withdrawn = new vscode.EventEmitter<EndpointName>();
  context.subscriptions.push(withdrawn);
  const api = createClient(context, settings, { admin: keys, assistant: assistantKeys }, sync, log, onRequest, withdrawn);
  const gate = new HourGate(sync.ledger.account, ui, vscode.l10n, Date.now, () => settings.analyticsTeamSize);
  const git = new WorkspaceGit(log.scoped('git'));
  context.subscriptions.push(git);

  const { jobs, tracker, tree, statusBar, onDidShowView } = registerJobs(context, { command, api, keys, settings, sync, git, ui, log });
  registerContextKeys(context, { keys, assistantKeys, settings, jobs, withdrawn: withdrawn.event });
  registerReviewChanges(context, { command, git, jobs, tracker, settings, ui, log });
  const reviewComments = registerReviewComments(context, { command, sync, ledger: sync.ledger, jobs, git, rows: tree, ui, log });
  const readers = registerReaders(context, { command, api, settings, keys, gate, ui, log });
  const analytics = registerAnalytics(context, {
    command,
    api,
    settings,
    gate,
    onDidChangeApiKey: keys.onDidChange,
    snapshots: readers.snapshots,
    trends: sync.trends,
    ui,
    log,
  });
  registerAskAboutThis(context, { command, docs: readers.docs, jobs, git, ui, log });
  registerAgentInstructions(context, { command, docs: readers.docs, onDidShowJobs: onDidShowView, ui, log });
  const signals = registerSignals(context, { command, api, settings, jobs, sync, gate, readers, ui, log });
  const codeFeedback = registerCodeFeedback(context, { command, signals, docs: readers.docs, settings, jobs, ledger: sync.ledger, ui, log });
  const preview = registerPreview(context, {
    command,
    api,
    sync,
    ledger: sync.ledger,
    jobs,
    git,
    docs: readers.docs,
    rows: tree,
    settings,
    ui,
    log,
  });
  const search = registerSearch(context, {
    command,
    api,
    settings,
    assistantKeys,
    sync,
    jobs,
    signals,
    git,
    docs: readers.docs,
    rows: tree,
    ledger: sync.ledger,
    ui,
    log,
  });
  registerSiteSearchMcp(context, { settings, ui, log });
  const tools = registerTools(context, {
    keys,
    settings,
    visitors: readers.pageReaders,
    snapshots: readers.snapshots,
    docs: readers.docs,
    signals: signals.store,
    jobs,
    tracker,
    gate,
    reviews: reviewComments,
    searches: search,
    ui,
    log,
  });

  const startMs = performance.now() - began;
  log.info(`activated ${String((context.extension.packageJSON as { version?: unknown }).version)} (built in ${startMs.toFixed(1)} ms)`);
  return { ui, jobs, tracker, statusBar, tree, sync, gate, analytics, readers, signals, codeFeedback, reviewComments, preview, search, tools, startMs };
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
  keys: { admin: ApiKeyStore; assistant: ApiKeyStore },
  sync: WindowSync,
  log: Logger,
  onRequest: ((entry: RequestLogEntry) => void) | undefined,
  withdrawn: vscode.EventEmitter<EndpointName>,
) {
  const logApi = logRequest(log.scoped('api'));
  return createApiClient({
    baseUrl: () => settings.apiBaseUrl,
    getApiKey: () => keys.admin.get(),
    getAssistantKey: () => keys.assistant.get(),
    timeoutMs: () => settings.requestTimeoutMs,
    userAgent: `mintlify-agent-analytics/${String((context.extension.packageJSON as { version?: unknown }).version)} (VS Code ${vscode.version})`,
    onRequest: (entry) => {
      logApi(entry);
      sync.ledger.record(entry);
      onRequest?.(entry);
    },
    familyWaitMs: (family) => sync.ledger.familyWaitMs(family),
    sharedWaitMessage: (ms) => sharedWaitMessage(ms, vscode.l10n),
    onWithdrawn: (endpoint) => {
      log.scoped('api').warn(`the platform no longer offers ${endpoint}: not asked again in this window`);
      withdrawn.fire(endpoint);
    },
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
