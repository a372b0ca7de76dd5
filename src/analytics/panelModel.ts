// The Visitor Analytics panel's view state, without vscode: what is shown (range, page, page size,
// the rows last loaded, the error or setup hint, the export status), which request that takes, and
// every message the webview is sent. The panel class (analyticsPanel.ts) only wires VS Code to it:
// webview messages and settings in, `send` out. Unit tests drive it with a fake pager and clock.
import { isApiError } from '../api/errors';
import {
  parseRestoredView,
  type ExportFormat,
  type FocusView,
  type PresetId,
  type ExportStatus,
  type ExtensionMessage,
  type LoadedData,
  type ViewQuery,
  type ViewState,
} from '../shared/protocol';
import { Comparison } from './comparison';
import { type Day, localToday } from '../util/days';
import { resolveRange, type RangeResult } from './dateRange';
import type { ExportRequest } from './export';
import type { TrendExport } from './exportFormats';
import { loadFailureView, noProjectSetup, rateLimitMessage } from './loadFailure';
import { compareUnavailableFor } from './metric';
import { loadFocused, pendingFocus } from './pageFocus';
import type { MetricPageKey } from './snapshotReuse';
import type { LoadedPage } from './visitorsQuery';
import { Trend, type TrendAsk } from './trend/trend';
import type { PanelModelDeps, PanelSettings, ViewMessage } from './panelPorts';

const DEFAULT_PRESET = 'last30';

export class PanelModel {
  private readonly now: () => number;
  private readonly today: () => Day;
  private projectId: string | undefined;
  private settingsPageSize: number;
  private notice: string | undefined;
  private view: ViewQuery;
  private setup: ViewState['setup'];
  private loading = false;
  /** The rows last loaded and the view (identity) they were loaded for. */
  private data: { loaded: Omit<LoadedData, 'current'>; identity: string } | undefined;
  private error: ViewState['error'];
  /** The view whose load ended (rows or an error): showing it again needs no request. */
  private settledFor: string | undefined;
  /** After a 429, no request leaves before this time (epoch ms); the error says when. */
  private retryAt = 0;
  /** Only the newest load may change what is shown. */
  private loadSeq = 0;
  private ready = false;
  private exportStatus: ExportStatus | undefined;
  /** Aborted when the panel closes: what is in flight for it stops. */
  private readonly lifetime = new AbortController();
  private readonly comparison: Comparison;
  private readonly trend: Trend | undefined;
  /** What was found for `view.focus`, once its range's rows are in. */
  private focusView: FocusView | undefined;
  /**
   * The extension moved the view (opened on a page) after the webview last saved it: a webview
   * that comes back (a hidden tab shown again) restores an older view, which must not win.
   */
  private viewFromExtension = false;

  constructor(
    private readonly deps: PanelModelDeps,
    settings: PanelSettings,
  ) {
    this.now = deps.now ?? Date.now;
    this.today = deps.today ?? (() => localToday(new Date(this.now())));
    this.projectId = settings.projectId;
    this.settingsPageSize = settings.pageSize;
    this.notice = settings.notice;
    this.view = { range: { kind: 'preset', preset: DEFAULT_PRESET }, page: 1, pageSize: settings.pageSize, metric: 'visitors' };
    this.comparison = new Comparison(deps.fetchPrevious);
    this.trend = deps.trend && new Trend({ ...deps.trend, l10n: deps.l10n, today: this.today });
  }

  /** What the webview shows now. */
  get state(): ViewState {
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
      requestsThisHour: this.deps.requestsThisHour?.(),
      compare:
        this.comparison.enabled && compareUnavailableFor(this.view.metric, this.deps.l10n)
          ? {
              status: 'unavailable',
              message: compareUnavailableFor(this.view.metric, this.deps.l10n),
              previousLabel: undefined,
              totals: undefined,
              rows: undefined,
            }
          : this.comparison.view(
              this.projectId,
              range.ok ? range.range : undefined,
              this.data && this.data.identity === identity ? this.data.loaded : undefined,
            ),
      focus: this.view.focus === undefined ? undefined : this.focusView?.path === this.view.focus ? this.focusView : pendingFocus(this.view.focus),
      trend: this.trend?.view(this.trendAsk(range)),
    };
  }

  get project(): string | undefined {
    return this.projectId;
  }

  /** Acts on a (validated) message from the webview; resolves when the load it caused has ended. */
  async handle(message: ViewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.onReady(message.restore);
      case 'setRange':
        this.view = { ...this.view, range: message.range, page: 1 };
        return this.load();
      case 'setPage':
        if (!this.canGoTo(message.page)) {
          this.deps.log.warn(`ignored a move to page ${message.page}: the panel offers only earlier pages, or the next while there is more`);
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
      case 'setCompare':
        this.comparison.set(message.on);
        return this.compare();
      case 'setMetric':
        if (message.metric === this.view.metric) return this.post();
        // The page's row comes from the visitors snapshot; view events are paged like any range.
        this.view = { ...this.view, metric: message.metric, page: 1, focus: undefined };
        return this.load();
      case 'clearFocus':
        this.view = { ...this.view, page: 1, focus: undefined };
        return this.load();
      case 'drawTrend':
        return this.drawTrend({ approve: true });
    }
  }

  /** Opened on one docs page (from its tooltip): its unique visitors for the readers' range, until cleared. */
  async focus(path: string, preset: PresetId | undefined): Promise<void> {
    const range = preset ? { kind: 'preset' as const, preset } : this.view.range;
    this.view = { ...this.view, range, page: 1, metric: 'visitors', focus: path };
    this.viewFromExtension = true;
    return this.load();
  }

  /** The settings changed: a new page size or project starts again on page 1. */
  async settingsChanged(settings: PanelSettings): Promise<void> {
    this.notice = settings.notice;
    let reload = false;
    if (settings.pageSize !== this.settingsPageSize) {
      this.settingsPageSize = settings.pageSize;
      this.view = { ...this.view, pageSize: settings.pageSize, page: 1 };
      reload = true;
    }
    if (settings.projectId !== this.projectId) {
      this.projectId = settings.projectId;
      // Another project's rows are not "the last good data" of this one.
      this.data = undefined;
      this.error = undefined;
      this.setup = undefined;
      this.view = { ...this.view, page: 1 };
      reload = true;
    }
    return reload ? this.load() : this.post();
  }

  /** A new key can fix a 401, a 403 or a missing key; rows already on screen need no new request. */
  async apiKeyChanged(): Promise<void> {
    if (this.setup?.action === 'setApiKey' || this.error) await this.load();
  }

  /** What an export takes while the panel is open: its project and range. */
  exportRequest(format: ExportFormat): ExportRequest | undefined {
    const range = this.resolve();
    return this.projectId && range.ok ? { projectId: this.projectId, range: range.range, format, metric: this.view.metric } : undefined;
  }

  /** The trend on screen, for Export Trend; undefined until one is drawn. */
  trendExport(): TrendExport | undefined {
    const range = this.resolve();
    const trend = this.trend?.view(this.trendAsk(range));
    if (!this.projectId || !range.ok || trend?.status !== 'ready') return undefined;
    return {
      projectId: this.projectId,
      metric: this.view.metric,
      unit: trend.unit,
      range: { label: range.range.label, from: range.range.from ?? null, to: range.range.to ?? null },
      points: trend.points,
      previous: trend.previous,
    };
  }

  showExportStatus(status: ExportStatus): void {
    this.exportStatus = status;
    this.send({ type: 'export', status });
  }

  /** The panel closed: what is in flight for it is aborted, and nothing more is sent. */
  dispose(): void {
    this.lifetime.abort();
  }

  private get disposed(): boolean {
    return this.lifetime.signal.aborted;
  }

  // ---- Loading ------------------------------------------------------------------------------------

  /** The previous period's rows, when comparing: shown loading, then compared (the trend's previous period too). */
  private async compare(refresh = false): Promise<void> {
    const range = this.resolve();
    this.post();
    await this.comparison.load(this.projectId, range.ok ? range.range : undefined);
    if (!this.disposed) await this.drawTrend({ refresh });
  }

  /** The trend of the range on screen (the site's, or the page's while one is shown), posted when drawn. */
  private async drawTrend(options: { approve?: boolean; refresh?: boolean } = {}): Promise<void> {
    const ask = this.trendAsk(this.resolve());
    if (!this.trend || !ask) return this.post();
    const drawing = this.trend.load(ask, { ...options, signal: this.lifetime.signal });
    this.post();
    await drawing;
    if (!this.disposed) this.post();
  }

  /** The site's trend, or (the panel shows one page) that page's, with what one of its buckets costs. */
  private trendAsk(range: RangeResult): TrendAsk | undefined {
    if (!this.projectId || !range.ok || this.setup) return undefined;
    const compare = this.comparison.enabled && !compareUnavailableFor(this.view.metric, this.deps.l10n);
    const { focus: path, metric } = this.view;
    const [pagesOf, whole] = [this.deps.trend?.pagesPerBucket, { projectId: this.projectId, dateFrom: range.range.dateFrom, dateTo: range.range.dateTo }];
    const page = path === undefined ? {} : { path, pagesPerBucket: pagesOf && ((bucket: { dateFrom: string; dateTo: string }) => pagesOf(bucket, whole)) };
    return { projectId: this.projectId, metric, range: range.range, compare, ...page };
  }

  private resolve(): RangeResult {
    return resolveRange(this.view.range, this.today(), this.deps.l10n);
  }

  /** Names what is on screen: two loads with the same identity show the same rows. */
  private identity(range: RangeResult = this.resolve()): string | undefined {
    if (!this.projectId || !range.ok) return undefined;
    const { pageSize, page, metric, focus } = this.view;
    return JSON.stringify([this.projectId, range.range.dateFrom, range.range.dateTo, pageSize, page, metric, focus ?? null]);
  }

  /** Only what the buttons offer: an earlier page, this one, or the next while the API has more. */
  private canGoTo(page: number): boolean {
    if (page <= this.view.page) return true;
    return page === this.view.page + 1 && this.data !== undefined && this.data.identity === this.identity() && this.data.loaded.hasMore;
  }

  private async load({ refresh = false }: { refresh?: boolean } = {}): Promise<void> {
    const seq = ++this.loadSeq;
    if (!this.projectId) {
      this.setup = noProjectSetup(this.deps.l10n);
      this.loading = false;
      return this.post();
    }
    const range = this.resolve();
    const identity = this.identity(range);
    if (!range.ok || identity === undefined) {
      this.loading = false; // the range error is in the state; nothing is sent until it is fixed
      return this.post();
    }
    // Everything below belongs to this request, whatever the view is by the time its answer comes.
    const key: MetricPageKey = {
      projectId: this.projectId,
      dateFrom: range.range.dateFrom,
      dateTo: range.range.dateTo,
      pageSize: this.view.pageSize,
      metric: this.view.metric,
    };
    const request = { page: this.view.page, pageSize: this.view.pageSize, identity, rangeLabel: range.range.label };
    const focus = this.view.focus;
    const hit = refresh || focus !== undefined ? undefined : this.deps.pager.cached(key, request.page);
    if (hit) {
      this.show(hit, request);
      this.loading = false;
      return this.drawTrend();
    }
    const wait = this.retryAt - this.now();
    if (wait > 0) {
      this.error = { message: rateLimitMessage(wait, this.deps.l10n), actions: ['retry'] };
      this.settledFor = identity;
      this.loading = false;
      return this.drawTrend();
    }
    this.loading = true;
    this.error = undefined;
    if (focus !== undefined) this.focusView = undefined; // the rank of another range is not this one's
    this.post();
    try {
      const loaded: LoadedPage & { focus?: FocusView } =
        focus === undefined
          ? await this.deps.pager.load(key, request.page, { refresh, signal: this.lifetime.signal })
          : await loadFocused(key, focus, {
              wholeRange: this.deps.wholeRange,
              firstPage: () => this.deps.pager.load({ ...key, metric: 'visitors' }, 1, { refresh, signal: this.lifetime.signal }),
              refresh,
              now: this.now,
            });
      if (seq !== this.loadSeq || this.disposed) return;
      if (focus !== undefined) this.focusView = loaded.focus;
      this.show(loaded, request);
    } catch (error) {
      if (seq !== this.loadSeq || this.disposed) return;
      this.fail(error, identity);
    }
    this.loading = false;
    await (this.comparison.enabled ? this.compare(refresh) : this.drawTrend({ refresh }));
  }

  /**
   * Shows rows as the data of the request that fetched them: if the view moved on meanwhile (the
   * day turned, say), `current` is false and the webview says these are the last rows loaded.
   */
  private show(loaded: LoadedPage, request: { page: number; pageSize: number; identity: string; rangeLabel: string }): void {
    const page = loaded.page;
    this.setup = undefined;
    this.error = undefined;
    this.settledFor = request.identity;
    this.data = {
      identity: request.identity,
      loaded: {
        totals: page.totals,
        rows: page.visitors,
        // hasMore with an empty page would lead Next to more empty pages.
        hasMore: page.hasMore && page.visitors.length > 0,
        page: request.page,
        pageSize: request.pageSize,
        rangeLabel: request.rangeLabel,
        fromCache: loaded.fromCache,
        fetchedAt: loaded.fetchedAt,
      },
    };
    if (page.hasMore && page.visitors.length === 0) this.deps.log.warn(`page ${request.page} was empty although the API said there were more`);
  }

  private fail(error: unknown, identity: string): void {
    this.settledFor = identity;
    if (isApiError(error)) this.deps.log.warn(`loading visitors failed: ${[error.message, ...error.details].join('\n')}`);
    else this.deps.log.error(error);
    const view = loadFailureView(error, this.deps.l10n);
    if (view.silent) return;
    if (view.retryAfterMs !== undefined) this.retryAt = this.now() + view.retryAfterMs;
    if (view.setup) this.setup = view.setup;
    if (view.error) this.error = view.error;
  }

  // ---- Events -------------------------------------------------------------------------------------

  private onReady(restore: unknown): Promise<void> | void {
    this.ready = true;
    // A view the extension set since the webview last saved one is newer than what it restores.
    const view = restore === undefined || this.viewFromExtension ? undefined : parseRestoredView(restore);
    this.viewFromExtension = false;
    if (restore !== undefined && !view) this.deps.log.warn('ignored the saved view of the webview: it is not a valid view');
    const changed = view !== undefined && JSON.stringify(view) !== JSON.stringify(this.view);
    if (view) this.view = view;
    if (this.exportStatus) this.send({ type: 'export', status: this.exportStatus });
    // A tab shown again, or a second ready: what is on screen is already known, nothing is fetched.
    if (!changed && (this.loading || (this.settledFor !== undefined && this.settledFor === this.identity()))) return this.post();
    return this.load();
  }

  private post(): void {
    this.send({ type: 'state', state: this.state });
  }

  private send(message: ExtensionMessage): void {
    if (this.ready && !this.disposed) this.deps.send(message);
  }
}
