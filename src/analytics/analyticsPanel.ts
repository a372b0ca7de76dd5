// The Visitor Analytics panel, extension side: one per window. It wires VS Code to the view state
// (panelModel.ts, no vscode): every message from the webview is validated first (protocol.ts) and
// ignored, with a log line, if it is not one the webview could have sent; settings and key changes
// go to the model; what the model sends goes to the webview. Opening a path and running a command
// are VS Code's, so they are handled here.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { Logger } from '../log';
import { EXTENSION_COMMANDS, parseWebviewMessage, type ExportFormat, type ExportStatus, type PresetId } from '../shared/protocol';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { Disposable } from '../util/lifecycle';
import type { ExportRequest } from './export';
import type { TrendExport } from './exportFormats';
import { openDocPage } from '../docs/openDocPage';
import type { FetchPrevious } from './comparison';
import type { WholeRange } from './pageFocus';
import { panelHtml } from './panelHtml';
import { PanelModel } from './panelModel';
import type { PagerPort, PanelModelDeps, PanelSettings } from './panelPorts';
import { webviewStrings } from './webviewStrings';

export interface AnalyticsPanelDeps {
  extensionUri: vscode.Uri;
  pager: PagerPort;
  settings: Settings;
  ui: Ui;
  log: Logger;
  onDidChangeApiKey: vscode.Event<void>;
  /** The page size the settings ask for, and a line for the panel when the setting is out of range. */
  pageSizeSetting(): { value: number; notice: string | undefined };
  /** Runs an export; resolves when it has finished or failed. */
  exportVisitors(request: ExportRequest): Promise<unknown>;
  /** Saves the trend on screen (no request). */
  exportTrend(trend: TrendExport): Promise<unknown>;
  /** The previous period's rows for "Compare with previous period". */
  fetchPrevious?: FetchPrevious;
  /** Analytics requests this hour across windows (the shared ledger). */
  requestsThisHour?: () => number | undefined;
  /** Every row of a range (the readers' snapshot), for the panel opened on one page. */
  wholeRange?: WholeRange;
  /** The trend's figures and the hour they are held to. */
  trend?: PanelModelDeps['trend'];
}

/** The panel's webview type (its serializer is registered in activate()). */
export const ANALYTICS_VIEW_TYPE = 'mintlifyAgent.analytics';

export class AnalyticsPanel extends Disposable {
  static readonly viewType = ANALYTICS_VIEW_TYPE;

  static create(deps: AnalyticsPanelDeps): AnalyticsPanel {
    const panel = vscode.window.createWebviewPanel(
      AnalyticsPanel.viewType,
      vscode.l10n.t('Visitor Analytics'),
      vscode.ViewColumn.Active,
      webviewOptions(deps.extensionUri),
    );
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
  /** What the panel shows and why; the seam the tests observe besides the webview itself. */
  readonly model: PanelModel;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly deps: AnalyticsPanelDeps,
  ) {
    super();
    this.log = deps.log;
    this.model = new PanelModel(
      {
        pager: deps.pager,
        log: deps.log,
        l10n: vscode.l10n,
        fetchPrevious: deps.fetchPrevious,
        requestsThisHour: deps.requestsThisHour,
        wholeRange: deps.wholeRange,
        trend: deps.trend,
        send: (message) => {
          this.panel.webview.postMessage(message).then(undefined, (error: unknown) => this.log.debug(`could not post to the webview: ${String(error)}`));
        },
      },
      this.currentSettings(),
    );

    panel.title = panelTitle(this.model.project);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'mintlify.svg');
    const webview = panel.webview;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'media', 'analytics.css')).toString(),
      nonce: randomBytes(16).toString('base64'),
      strings: webviewStrings(vscode.l10n),
      lang: vscode.env.language,
    });
    this.register(webview.onDidReceiveMessage((message: unknown) => this.receive(message)));
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(deps.settings.onDidChange(() => this.onSettingsChanged()));
    this.register(deps.onDidChangeApiKey(() => this.run(this.model.apiKeyChanged())));
    this.register(this.disposeEmitter);
  }

  /** A message from the webview; validated before anything acts on it. */
  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`ignored a message from the webview: ${parsed.reason}`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'export':
        return this.startExport(message.format);
      case 'exportTrend': {
        const trend = this.model.trendExport();
        if (trend) this.run(this.deps.exportTrend(trend));
        else this.log.warn('ignored Export Trend: no trend is drawn');
        return;
      }
      case 'openPath':
        return this.run(openDocPage(message.path, this.deps.ui, this.log));
      case 'runCommand':
        return this.run(vscode.commands.executeCommand(EXTENSION_COMMANDS[message.command]));
      default:
        return this.run(this.model.handle(message));
    }
  }

  // ---- For the commands ---------------------------------------------------------------------------

  reveal(): void {
    this.panel.reveal();
  }

  /** Shows one site path's row for a range preset (Open Visitor Analytics from a docs page). */
  focus(path: string, preset: PresetId | undefined): void {
    this.run(this.model.focus(path, preset));
  }

  /**
   * Show Trend from a page's tooltip: the panel on that page, and its trend drawn; when that takes
   * more than a few requests, the cost (said in the panel too) is asked first in a notification.
   */
  async showTrend(path: string, preset: PresetId | undefined): Promise<void> {
    await this.model.focus(path, preset);
    const trend = this.model.state.trend;
    if (trend?.status !== 'confirm') return;
    const draw = vscode.l10n.t('Draw Trend');
    if ((await this.deps.ui.showMessage('warning', trend.message ?? '', draw)) === draw) await this.model.handle({ type: 'drawTrend' });
  }

  /** What "Export Visitors…" exports while the panel is open: its project and range. */
  exportRequest(format: ExportFormat): ExportRequest | undefined {
    return this.model.exportRequest(format);
  }

  showExportStatus(status: ExportStatus): void {
    this.model.showExportStatus(status);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.model.dispose();
    this.disposeEmitter.fire();
    super.dispose();
    this.panel.dispose();
  }

  // ---- Plumbing -----------------------------------------------------------------------------------

  private currentSettings(): PanelSettings {
    const size = this.deps.pageSizeSetting();
    return { projectId: this.deps.settings.projectId, pageSize: size.value, notice: size.notice };
  }

  private onSettingsChanged(): void {
    const settings = this.currentSettings();
    this.panel.title = panelTitle(settings.projectId);
    this.run(this.model.settingsChanged(settings));
  }

  private startExport(format: ExportFormat): void {
    const request = this.model.exportRequest(format);
    if (!request) {
      this.log.warn('ignored an export request: no project ID or no valid range');
      return;
    }
    this.run(this.deps.exportVisitors(request));
  }

  /** Work the panel started: a failure goes to the log, never to an unhandled rejection. */
  private run(work: PromiseLike<unknown>): void {
    background(work, this.log, "the analytics panel's work");
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
  return projectId ? vscode.l10n.t('Visitor Analytics: {0}', projectId) : vscode.l10n.t('Visitor Analytics');
}
