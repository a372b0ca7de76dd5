// What the Visitor Analytics panel's view state (panelModel.ts) takes from the rest of the
// extension, and the webview messages it answers: the ports a test fakes. Types only.
import type { ExtensionMessage, WebviewMessage } from '../shared/protocol';
import type { L10n } from '../errorMessages';
import type { Day } from '../util/days';
import type { FetchPrevious } from './comparison';
import type { WholeRange } from './pageFocus';
import type { MetricPageKey } from './snapshotReuse';
import type { LoadedPage } from './visitorsQuery';
import type { SnapshotKey } from './visitorsSnapshot';
import type { TrendDeps } from './trend/trend';

/** The part of the panel's pages (PanelPages, or a VisitorsPager in tests) the panel uses. */
export interface PagerPort {
  cached(key: MetricPageKey, page: number): LoadedPage | undefined;
  load(key: MetricPageKey, page: number, options: { refresh?: boolean; signal?: AbortSignal }): Promise<LoadedPage>;
}

/** What the panel takes from the settings. */
export interface PanelSettings {
  projectId: string | undefined;
  pageSize: number;
  /** A line for the panel when the page size setting is out of range. */
  notice: string | undefined;
}

export interface PanelModelDeps {
  pager: PagerPort;
  log: { warn(message: string): void; error(message: unknown): void };
  /** Posts to the webview. Called only after its `ready`: before, it would not be listening. */
  send(message: ExtensionMessage): void;
  /** `vscode.l10n` in the extension, a plain formatter in unit tests. */
  l10n: L10n;
  now?: () => number;
  /** The user's calendar day; by default from `now`. A panel open past midnight moves its presets. */
  today?: () => Day;
  /** Analytics requests this hour across windows (the shared ledger), shown in the panel; undefined while unknown. */
  requestsThisHour?: () => number | undefined;
  /** The previous period's rows for "Compare with previous period"; without it the toggle says it is unavailable. */
  fetchPrevious?: FetchPrevious;
  /** Every row of a range, for the panel opened on one page; without it that page is looked for on page 1 only. */
  wholeRange?: WholeRange;
  /** The trend's figures, the hour they are held to, and what a page's bucket costs; without them there is no chart. */
  trend?: Pick<TrendDeps, 'series' | 'gate'> & { pagesPerBucket?: (bucket: { dateFrom: string; dateTo: string }, range: SnapshotKey) => number | undefined };
}

/** Messages the view state answers; the panel class handles openPath, runCommand and export. */
export type ViewMessage = Extract<
  WebviewMessage,
  { type: 'ready' | 'setRange' | 'setPage' | 'setPageSize' | 'refresh' | 'retry' | 'setCompare' | 'setMetric' | 'clearFocus' | 'drawTrend' }
>;
