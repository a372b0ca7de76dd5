// The Visitor Analytics panel, extension side: one per window. It owns what is shown (range, page,
// page size, the rows last loaded, the error or setup hint) and posts it whole to the webview as a
// `state` message; the webview only renders that and sends back what the user asked for. Every
// message from the webview is validated first (protocol.ts) and ignored, with a log line, if it
// is not one the webview could have sent.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError, type VisitorsPage } from '../api';
import type { Settings } from '../config';
import { whenToRetry } from '../errorMessages';
import type { Logger } from '../log';
import {
  EXTENSION_COMMANDS,
  parseRestoredView,
  parseWebviewMessage,
  type ErrorView,
  type ExportFormat,
  type ExportStatus,
  type ExtensionMessage,
  type LoadedData,
  type ViewQuery,
  type ViewState,
} from '../shared/protocol';
import type { Ui } from '../ui';
import { Disposable } from '../util/lifecycle';
import { localToday, resolveRange, type RangeResult } from './dateRange';
import type { ExportRequest } from './export';
import { openDocPage } from '../docs/openDocPage';
import { panelHtml } from './panelHtml';
import type { PageKey, VisitorsPager } from './visitorsQuery';

export interface AnalyticsPanelDeps {
  extensionUri: vscode.Uri;
  pager: VisitorsPager;
  settings: Settings;
  ui: Ui;
  log: Logger;
  onDidChangeApiKey: vscode.Event<void>;
  /** The page size the settings ask for, and a line for the panel when the setting is out of range. */
  pageSizeSetting(): { value: number; notice: string | undefined };
  /** Runs an export; resolves when it has finished or failed. */
  exportVisitors(request: ExportRequest): Promise<unknown>;
}

const DEFAULT_PRESET = 'last30';

export class AnalyticsPanel extends Disposable {
  static readonly viewType = 'mintlifyAgent.analytics';

  static create(deps: AnalyticsPanelDeps): AnalyticsPanel {
    const panel = vscode.window.createWebviewPanel(AnalyticsPanel.viewType, 'Visitor Analytics', vscode.ViewColumn.Active, webviewOptions(deps.extensionUri));
    return new AnalyticsPanel(panel, deps);
  }

  /** After a window reload VS Code restores the tab; it needs its options and content again. */
  static revive(panel: vscode.WebviewPanel, deps: AnalyticsPanelDeps): AnalyticsPanel {
    panel.webview.options = webviewOptions(deps.extensionUri);
    return new AnalyticsPanel(panel, deps);
  }

  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** Fires once, when the tab is closed or the extension stops. */
  readonly onDidDispose = this.disposeEmitter.event;

  private readonly log: Logger;
  private projectId: string | undefined;
  private settingsPageSize: number;
  private view: ViewQuery;
  private notice: string | undefined;
  private setup: ViewState['setup'];
  private loading = false;
  /** The rows last loaded and the view they were loaded for. */
  private data: { loaded: Omit<LoadedData, 'current'>; identity: string } | undefined;
  private error: ErrorView | undefined;
  /** The view whose load ended (rows or an error): showing it again needs no request. */
  private settledFor: string | undefined;
  /** After a 429, no request leaves before this time (epoch ms); the error says when. */
  private retryAt = 0;
  /** Only the newest load may change what is shown. */
  private loadSeq = 0;
  private ready = false;
  private busyCount = 0;
  private idleWaiters: (() => void)[] = [];
  private state: ViewState | undefined;
  private exportStatus: ExportStatus | undefined;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly deps: AnalyticsPanelDeps,
  ) {
    super();
    this.log = deps.log;
    this.projectId = deps.settings.projectId;
    const size = deps.pageSizeSetting();
    this.settingsPageSize = size.value;
    this.notice = size.notice;
    this.view = { range: { kind: 'preset', preset: DEFAULT_PRESET }, page: 1, pageSize: size.value };

    panel.title = panelTitle(this.projectId);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'mintlify.svg');
    const webview = panel.webview;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'media', 'analytics.css')).toString(),
      nonce: randomBytes(16).toString('base64'),
    });
    this.register(webview.onDidReceiveMessage((message: unknown) => this.receive(message)));
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(deps.settings.onDidChange(() => this.onSettingsChanged()));
    this.register(deps.onDidChangeApiKey(() => this.onApiKeyChanged()));
    this.register(this.disposeEmitter);
  }

  // ---- Test seam ----------------------------------------------------------------------------------

  /** The last state posted to the webview (or that would have been, before its ready message). */
  get lastState(): ViewState | undefined {
    return this.state;
  }

  /** The last export progress or outcome posted to the webview. */
  get lastExport(): ExportStatus | undefined {
    return this.exportStatus;
  }

  /** Resolves once no request or export started by this panel is under way and its state is posted. */
  whenIdle(): Promise<void> {
    return this.busyCount === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A message as if from the webview; it goes through the same validation. */
  receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`ignored a message from the webview: ${parsed.reason}`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'ready':
        return this.onReady(message.restore);
      case 'setRange':
        this.view = { ...this.view, range: message.range, page: 1 };
        return this.load();
      case 'setPage':
        if (!this.canGoTo(message.page)) {
          this.log.warn(`ignored a move to page ${message.page}: the panel offers only earlier pages, or the next while there is more`);
          return this.post();
        }
        this.view = { ...this.view, page: message.page };
        return this.load();
      case 'setPageSize':
        if (message.pageSize === this.view.pageSize) return this.post();
        this.view = { ...this.view, pageSize: message.pageSize, page: 1 };
        return this.load();
      case 'refresh':
        return this.load({ refresh: true });
      case 'retry':
        return this.load();
      case 'export':
        return this.startExport(message.format);
      case 'openPath':
        void openDocPage(message.path, this.deps.ui, this.log).then(undefined, (error: unknown) => this.log.error(asError(error)));
        return;
      case 'runCommand':
        void vscode.commands.executeCommand(EXTENSION_COMMANDS[message.command]).then(undefined, (error: unknown) => this.log.error(asError(error)));
        return;
    }
  }

  // ---- For the commands ---------------------------------------------------------------------------

  reveal(): void {
    this.panel.reveal();
  }

  /** What "Export Visitors…" exports while the panel is open: its project and range. */
  exportRequest(format: ExportFormat): ExportRequest | undefined {
    const range = this.resolve();
    return this.projectId && range.ok ? { projectId: this.projectId, range: range.range, format } : undefined;
  }

  showExportStatus(status: ExportStatus): void {
    this.exportStatus = status;
    this.send({ type: 'export', status });
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.disposeEmitter.fire();
    super.dispose();
    this.panel.dispose();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  // ---- Loading ------------------------------------------------------------------------------------

  private resolve(): RangeResult {
    return resolveRange(this.view.range, localToday());
  }

  /** Names what is on screen: two loads with the same identity show the same rows. */
  private identity(range: RangeResult = this.resolve()): string | undefined {
    if (!this.projectId || !range.ok) return undefined;
    return JSON.stringify([this.projectId, range.range.dateFrom, range.range.dateTo, this.view.pageSize, this.view.page]);
  }

  /** Only what the buttons offer: an earlier page, this one, or the next while the API has more. */
  private canGoTo(page: number): boolean {
    if (page <= this.view.page) return true;
    return page === this.view.page + 1 && this.data !== undefined && this.data.identity === this.identity() && this.data.loaded.hasMore;
  }

  private load(options: { refresh?: boolean } = {}): void {
    // Counted as busy from this very moment, so a test that calls receive() then whenIdle() waits.
    void this.busy(() => this.loadNow(options));
  }

  private async loadNow({ refresh = false }: { refresh?: boolean }): Promise<void> {
    const seq = ++this.loadSeq;
    if (!this.projectId) {
      this.setup = { message: 'Set the Mintlify project ID to see who reads your docs.', action: 'setProjectId' };
      this.loading = false;
      return this.post();
    }
    const range = this.resolve();
    const identity = this.identity(range);
    if (!range.ok || identity === undefined) {
      this.loading = false; // the range error is in the state; nothing is sent until it is fixed
      return this.post();
    }
    const key: PageKey = { projectId: this.projectId, dateFrom: range.range.dateFrom, dateTo: range.range.dateTo, pageSize: this.view.pageSize };
    const page = this.view.page;
    const hit = refresh ? undefined : this.deps.pager.cached(key, page);
    if (hit) {
      this.show(hit.page, hit.fetchedAt, true, identity, range.range.label);
      this.loading = false;
      return this.post();
    }
    const wait = this.retryAt - Date.now();
    if (wait > 0) {
      this.error = { message: rateLimitMessage(wait), actions: ['retry'] };
      this.settledFor = identity;
      this.loading = false;
      return this.post();
    }
    this.loading = true;
    this.error = undefined;
    this.post();
    try {
      const loaded = await this.deps.pager.load(key, page, { refresh });
      if (seq !== this.loadSeq || this.isDisposed) return;
      this.show(loaded.page, loaded.fetchedAt, loaded.fromCache, identity, range.range.label);
    } catch (error) {
      if (seq !== this.loadSeq || this.isDisposed) return;
      this.fail(error, identity);
    }
    this.loading = false;
    this.post();
  }

  private show(page: VisitorsPage, fetchedAt: number, fromCache: boolean, identity: string, rangeLabel: string): void {
    this.setup = undefined;
    this.error = undefined;
    this.settledFor = identity;
    this.data = {
      identity,
      loaded: {
        totals: page.totals,
        rows: page.visitors,
        // hasMore with an empty page would lead Next to more empty pages.
        hasMore: page.hasMore && page.visitors.length > 0,
        page: this.view.page,
        pageSize: this.view.pageSize,
        rangeLabel,
        fromCache,
        fetchedAt,
      },
    };
    if (page.hasMore && page.visitors.length === 0) this.log.warn(`page ${this.view.page} was empty although the API said there were more`);
  }

  private fail(error: unknown, identity: string): void {
    this.settledFor = identity;
    if (!isApiError(error)) {
      this.log.error(asError(error));
      this.error = { message: 'Loading visitors failed unexpectedly. The log has the details.', actions: ['retry'] };
      return;
    }
    this.log.warn(`loading visitors failed: ${[error.message, ...error.details].join('\n')}`);
    switch (error.kind) {
      case 'cancelled':
        return;
      case 'noApiKey':
        this.setup = { message: 'Set your Mintlify admin API key to load visitor analytics.', action: 'setApiKey' };
        return;
      case 'unauthorized':
        this.error = { message: error.message, actions: ['setApiKey'] };
        return;
      case 'forbidden':
        // A read-only key needs replacing; an IP allow-list may be fixed on the dashboard, then Retry.
        this.error = { message: error.message, actions: ['setApiKey', 'retry'] };
        return;
      case 'rateLimited':
        this.retryAt = Date.now() + (error.retryAfterMs ?? 0);
        this.error = { message: rateLimitMessage(error.retryAfterMs), actions: ['retry'] };
        return;
      case 'notFound':
        this.error = { message: `${error.message} Check the project ID.`, actions: ['setProjectId', 'retry'] };
        return;
      case 'invalidInput':
      case 'insecureBaseUrl':
      case 'invalidRequest':
        // Sending the same request again cannot succeed.
        this.error = { message: error.message, actions: [] };
        return;
      default:
        this.error = { message: error.message, actions: ['retry'] };
    }
  }

  private startExport(format: ExportFormat): void {
    const request = this.exportRequest(format);
    if (!request) {
      this.log.warn('ignored an export request: no project ID or no valid range');
      return this.post();
    }
    void this.busy(() => this.deps.exportVisitors(request));
  }

  // ---- Events -------------------------------------------------------------------------------------

  private onReady(restore: unknown): void {
    this.ready = true;
    const restored = restore === undefined ? undefined : parseRestoredView(restore);
    if (restore !== undefined && !restored) this.log.warn('ignored the saved view of the webview: it is not a valid view');
    const changed = restored !== undefined && JSON.stringify(restored) !== JSON.stringify(this.view);
    if (restored) this.view = restored;
    if (this.exportStatus) this.send({ type: 'export', status: this.exportStatus });
    // A tab shown again, or a second ready: what is on screen is already known, nothing is fetched.
    if (!changed && (this.loading || (this.settledFor !== undefined && this.settledFor === this.identity()))) return this.post();
    this.load();
  }

  private onSettingsChanged(): void {
    const size = this.deps.pageSizeSetting();
    this.notice = size.notice;
    let reload = false;
    if (size.value !== this.settingsPageSize) {
      this.settingsPageSize = size.value;
      this.view = { ...this.view, pageSize: size.value, page: 1 };
      reload = true;
    }
    const projectId = this.deps.settings.projectId;
    if (projectId !== this.projectId) {
      this.projectId = projectId;
      this.panel.title = panelTitle(projectId);
      // Another project's rows are not "the last good data" of this one.
      this.data = undefined;
      this.error = undefined;
      this.setup = undefined;
      this.view = { ...this.view, page: 1 };
      reload = true;
    }
    if (reload) this.load();
    else this.post();
  }

  /** A new key can fix a 401, a 403 or a missing key; rows already on screen need no new request. */
  private onApiKeyChanged(): void {
    if (this.setup?.action === 'setApiKey' || this.error) this.load();
  }

  // ---- Plumbing -----------------------------------------------------------------------------------

  private async busy(work: () => Promise<unknown>): Promise<void> {
    this.busyCount++;
    try {
      await work();
    } catch (error) {
      this.log.error(asError(error));
    } finally {
      if (--this.busyCount === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private snapshot(): ViewState {
    const range = this.resolve();
    const identity = this.identity(range);
    return {
      projectId: this.projectId,
      setup: this.setup,
      view: this.view,
      resolved: range.ok ? { from: range.range.from, to: range.range.to, label: range.range.label } : undefined,
      rangeError: range.ok ? undefined : range.message,
      loading: this.loading,
      data: this.data && { ...this.data.loaded, current: this.data.identity === identity },
      error: this.error,
      notice: this.notice,
    };
  }

  private post(): void {
    this.state = this.snapshot();
    this.send({ type: 'state', state: this.state });
  }

  /** Before the webview's ready message nothing is sent: it would not be listening yet. */
  private send(message: ExtensionMessage): void {
    if (!this.ready || this.isDisposed) return;
    this.panel.webview.postMessage(message).then(undefined, (error: unknown) => this.log.debug(`could not post to the webview: ${String(error)}`));
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    // The bundles and the stylesheet, nothing else of the extension and nothing of the workspace.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

function panelTitle(projectId: string | undefined): string {
  return projectId ? `Visitor Analytics: ${projectId}` : 'Visitor Analytics';
}

function rateLimitMessage(retryAfterMs: number | undefined): string {
  return `The Mintlify API rate limit for analytics is reached (429). ${whenToRetry(retryAfterMs)} Pages already loaded still work.`;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

