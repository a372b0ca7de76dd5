// The analytics panel's message protocol, imported by both bundles. Messages from the webview are
// untrusted input (a compromised or stale webview can post anything), so each one is parsed with
// the schemas below before the extension acts on it. Messages to the webview are plain types.
//
// The webview imports this module with `import type` only, so zod never reaches its bundle: esbuild
// cannot drop the top-level schema calls below, and they would cost more than the webview itself.
import * as z from 'zod/mini';
import { MAX_PAGE_SIZE } from '../api/inputs';
import { COMMANDS } from '../commands';

// ---- Choices shared by both sides ---------------------------------------------------------------

export const PRESETS = ['last7', 'last30', 'last90', 'thisMonth', 'allTime'] as const;
export type PresetId = (typeof PRESETS)[number];

export const PAGE_SIZE_CHOICES = [25, 50, 100, 250] as const;

/** What the panel counts: unique visitors (`/visitors`) or view events (`/views`, same shape and paging). */
export const METRICS = ['visitors', 'views'] as const;
export type Metric = (typeof METRICS)[number];

/** 10,000 pages of 250 is 2.5 million paths: far past any docs site, and a safe integer offset. */
export const MAX_PAGE = 10_000;

/** Paths come from the public internet; 5,000 characters must work, megabytes must not. */
export const MAX_PATH_LENGTH = 10_000;

/** A date input yields `YYYY-MM-DD`; anything longer is not from our webview. */
const MAX_DATE_TEXT = 32;

// ---- Webview → extension ------------------------------------------------------------------------

const Page = z.int().check(z.minimum(1), z.maximum(MAX_PAGE));
const PageSize = z.int().check(z.minimum(1), z.maximum(MAX_PAGE_SIZE));
/** Free text on purpose: dateRange.ts turns a bad date into a message the user can read. */
const DateText = z.string().check(z.maxLength(MAX_DATE_TEXT));

export const RangeSelection = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('preset'), preset: z.enum(PRESETS) }),
  /** `to` is inclusive: the day the user picked, not the API's exclusive `dateTo`. */
  z.strictObject({ kind: z.literal('custom'), from: DateText, to: DateText }),
]);
export type RangeSelection = z.infer<typeof RangeSelection>;

const SitePath = z.string().check(z.minLength(1), z.maxLength(MAX_PATH_LENGTH));

/**
 * What the panel is showing: the part of the webview's saved state the extension acts on. `focus`
 * is the one site path the panel was opened on (Open Visitor Analytics from a page), until cleared.
 */
export const ViewQuery = z.strictObject({ range: RangeSelection, page: Page, pageSize: PageSize, metric: z.enum(METRICS), focus: z.optional(SitePath) });
export type ViewQuery = z.infer<typeof ViewQuery>;

export const EXTENSION_COMMANDS = { setApiKey: COMMANDS.setApiKey, setProjectId: COMMANDS.setProjectId } as const;
export type CommandAction = keyof typeof EXTENSION_COMMANDS;

export const ExportFormat = z.enum(['csv', 'json']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const WebviewMessage = z.discriminatedUnion('type', [
  /**
   * The webview has loaded and listens. `restore` is its saved view (from a reload or a hidden tab);
   * it is parsed separately so that a stale saved state cannot make the handshake itself invalid.
   */
  z.strictObject({ type: z.literal('ready'), restore: z.optional(z.unknown()) }),
  z.strictObject({ type: z.literal('setRange'), range: RangeSelection }),
  z.strictObject({ type: z.literal('setPage'), page: Page }),
  z.strictObject({ type: z.literal('setPageSize'), pageSize: PageSize }),
  /** Forget the pages fetched for this view and fetch the current one again. */
  z.strictObject({ type: z.literal('refresh') }),
  /** Try the request that failed again; pages already fetched stay. */
  z.strictObject({ type: z.literal('retry') }),
  /** Compare with the previous period (of the same length, just before) on or off. */
  z.strictObject({ type: z.literal('setCompare'), on: z.boolean() }),
  z.strictObject({ type: z.literal('setMetric'), metric: z.enum(METRICS) }),
  /** Show every path again after the panel was opened on one page. */
  z.strictObject({ type: z.literal('clearFocus') }),
  /** Draw the trend whose cost the panel showed (more than a few requests): the user said yes. */
  z.strictObject({ type: z.literal('drawTrend') }),
  /** Save the trend on screen, one row a bucket (CSV or JSON, as the save dialog's name says); no request. */
  z.strictObject({ type: z.literal('exportTrend') }),
  z.strictObject({ type: z.literal('export'), format: ExportFormat }),
  z.strictObject({ type: z.literal('openPath'), path: SitePath }),
  /** Only the commands named here; a webview never names a command id itself. */
  z.strictObject({ type: z.literal('runCommand'), command: z.enum(['setApiKey', 'setProjectId']) }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

type ParsedMessage = { ok: true; message: WebviewMessage } | { ok: false; reason: string };

/** Validates a message from the webview; `reason` is for the log, never shown to the user. */
export function parseWebviewMessage(raw: unknown): ParsedMessage {
  const result = z.safeParse(WebviewMessage, raw);
  if (result.success) return { ok: true, message: result.data };
  const type = typeof raw === 'object' && raw !== null && 'type' in raw ? String(raw.type).slice(0, 40) : typeof raw;
  return { ok: false, reason: `${JSON.stringify(type)}: ${z.prettifyError(result.error).slice(0, 500)}` };
}

/** The view a reloaded webview asks to resume, or undefined when its saved state is not one. */
export function parseRestoredView(raw: unknown): ViewQuery | undefined {
  // A view saved before the metric switch existed counted visitors.
  const withMetric = typeof raw === 'object' && raw !== null && !('metric' in raw) ? { ...raw, metric: 'visitors' } : raw;
  const result = z.safeParse(ViewQuery, withMetric);
  return result.success ? result.data : undefined;
}

// ---- Extension → webview ------------------------------------------------------------------------

interface VisitorCounts {
  human: number;
  ai: number;
  total: number;
}

export interface VisitorRowView extends VisitorCounts {
  path: string;
}

/** Rows and totals as last received, kept on screen when a later request fails. */
export interface LoadedData {
  totals: VisitorCounts;
  rows: VisitorRowView[];
  /** False when the API said there was more but sent an empty page: Next would lead nowhere. */
  hasMore: boolean;
  page: number;
  pageSize: number;
  /** The range these rows belong to, e.g. "Last 7 days (2025-03-01 to 2025-03-07)". */
  rangeLabel: string;
  /** False when the view moved on (another range or page) and this is the last good data. */
  current: boolean;
  /** Served from memory instead of a request. */
  fromCache: boolean;
  /** Epoch milliseconds of the request that fetched these rows. */
  fetchedAt: number;
}

export interface ErrorView {
  message: string;
  /** Buttons next to the message: Retry and/or the command that fixes the cause. */
  actions: ('retry' | CommandAction)[];
}

export interface ViewState {
  projectId: string | undefined;
  /** Set when the panel cannot ask for anything yet; the webview shows only this and its button. */
  setup: { message: string; action: CommandAction } | undefined;
  view: ViewQuery;
  /** The chosen range as inclusive days, for the date inputs; undefined for All time. */
  resolved: { from: string | undefined; to: string | undefined; label: string } | undefined;
  /** The custom range cannot be used, and why. No request is made until it is fixed. */
  rangeError: string | undefined;
  loading: boolean;
  data: LoadedData | undefined;
  error: ErrorView | undefined;
  /** A settings problem worth a line in the panel (an out-of-range page size). */
  notice: string | undefined;
  /**
   * Analytics requests spent this hour (the platform allows 100 per organisation), shown as "N
   * analytics requests this hour"; undefined until a shared ledger counts them across windows.
   */
  requestsThisHour: number | undefined;
  /** Undefined while the comparison is off. */
  compare: CompareView | undefined;
  /** Set while the panel shows one page's row (`view.focus`): what was found for it. */
  focus: FocusView | undefined;
  /** The chart above the table; undefined while there is nothing to chart (no project, a bad range). */
  trend: TrendView | undefined;
}

/** One bucket of a trend: a day, or a week (Monday to Sunday) cut to the range at either end. */
export interface TrendPoint {
  /** First day, inclusive (`YYYY-MM-DD`). */
  from: string;
  /** Last day, inclusive. */
  to: string;
  /** A week with fewer than 7 days of the range: drawn hollow, its figures not comparable to a whole week. */
  partial: boolean;
  /** Includes today: its figures still grow. */
  open: boolean;
  /** Not fetched yet (the hour's requests gave out first): no figures, drawn as a gap. */
  missing?: boolean;
  human: number;
  ai: number;
  total: number;
}

/** The chart of the range, one point a bucket, human, AI and total as three series. */
export interface TrendView {
  /**
   * `confirm`: drawing costs more than a few requests and waits for Draw (`message` says the cost);
   * `unavailable`: no chart for this range (`message` says why); `failed`: `message` says what happened.
   */
  status: 'ready' | 'loading' | 'confirm' | 'unavailable' | 'failed';
  unit: 'day' | 'week';
  message: string | undefined;
  /** Empty until ready. */
  points: TrendPoint[];
  /** With "Compare with previous period": the same buckets one period earlier, point for point. */
  previous: TrendPoint[] | undefined;
  /** "12 requests, 11 of them kept from before": what this chart cost. */
  cost: string | undefined;
}

/** The one page the panel was opened on, filtered to its row across the whole range. */
export interface FocusView {
  path: string;
  /** Until the range's rows are in (or when they could not be fetched) only the path is known. */
  status: 'pending' | 'found' | 'none' | 'beyondCap';
  /** Its rank among the range's pages (1 = most read), when found. */
  rank: number | undefined;
  /** How many pages the range's rows cover (the cap when `beyondCap`). */
  covered: number | undefined;
}

/** What one metric is called where the panel names it. */
interface MetricStrings {
  /** "Unique visitors": the switch's option and the heading of the totals. */
  name: string;
  tableCaption: string;
  totalNote: string;
  loading: string;
  noneInRange: string;
  noneOnPage: string;
}

/** Compare with the previous period, while it is on. Labels are "▲ 12%", "▼ 5%", "0%" or "new". */
export interface CompareView {
  status: 'loading' | 'ready' | 'unavailable' | 'failed';
  /** Why it is unavailable or failed, what it costs while loading, or (ready) what the previous period's fetch left out. */
  message: string | undefined;
  /** "2026-09-25 to 2026-10-24". */
  previousLabel: string | undefined;
  totals: { human: string; ai: string; total: string } | undefined;
  /** One per row of `data.rows`, in the same order: the change of its total. */
  rows: { label: string; rank: number }[] | undefined;
}

export type ExportStatus =
  /** `message`: the export waits for the organisation's hour, worded by the extension ("18 of ~40 pages kept; … going on at 12:40"). */
  | { state: 'running'; pages: number; rows: number; message?: string }
  /** `caveat`: what the file lacks (a partial export) or how it was read, worded by the extension. */
  | { state: 'done'; rows: number; requests: number; fileName: string; caveat?: string }
  | { state: 'cancelled'; requests: number }
  | { state: 'failed'; requests: number; message: string };

/**
 * Every text the webview shows, worded (and translated) by the extension with vscode.l10n.t in
 * analytics/webviewStrings.ts and handed over in the panel's HTML, so the webview itself never
 * holds English. `{0}`, `{1}` mark values the webview fills in (shared/format.ts). A count has one
 * whole string per form: `…One` for exactly one, the other for any other number.
 */
export interface WebviewStrings {
  title: string;
  controlsLabel: string;
  dateRange: string;
  presets: Record<PresetId, string>;
  metric: string;
  metrics: Record<Metric, MetricStrings>;
  /** `{0}` the path, `{1}` its rank, `{2}` the number of pages. */
  focusFound: string;
  /** `{0}` the path. */
  focusNone: string;
  /** `{0}` the path, `{1}` the number of pages covered. */
  focusBeyondCap: string;
  /** `{0}` the path. */
  focusOnly: string;
  clearFocus: string;
  customRange: string;
  customRangeLegend: string;
  from: string;
  to: string;
  apply: string;
  rowsPerPage: string;
  refresh: string;
  refreshTooltip: string;
  exportCsv: string;
  exportCsvTooltip: string;
  exportJson: string;
  exportJsonTooltip: string;
  totalsHeading: string;
  human: string;
  ai: string;
  total: string;
  filterPaths: string;
  path: string;
  humanAiSplit: string;
  change: string;
  compareToggle: string;
  compareAgainst: string;
  previousPeriod: string;
  pagerLabel: string;
  previous: string;
  next: string;
  retry: string;
  setApiKey: string;
  setProjectId: string;
  /** `{0}` the page number. */
  pageLabel: string;
  /** `{0}` the range label, `{1}` the page number. */
  stale: string;
  /** `{0}` the page number, `{1}` the time it was fetched. */
  fromMemory: string;
  /** `{0}` the time. */
  fetchedAt: string;
  requestsThisHourOne: string;
  /** `{0}` the number of requests. */
  requestsThisHour: string;
  /** `{0}` pages, `{1}` rows fetched so far. */
  exporting: string;
  /** Two counts, so four whole strings: rows (one/other) × requests (one/other). `{0}` the file name. */
  exportedOneOne: string;
  /** `{0}` the file name, `{1}` requests. */
  exportedOne: string;
  /** `{0}` rows, `{1}` the file name. */
  exportedOneRequest: string;
  /** `{0}` rows, `{1}` the file name, `{2}` requests. */
  exported: string;
  exportCancelledOne: string;
  /** `{0}` requests. */
  exportCancelled: string;
  scopeOne: string;
  /** `{0}` rows on this page. */
  scope: string;
  matchOne: string;
  /** `{0}` rows that match the filter. */
  match: string;
  /** `{0}` rows shown. */
  shownFirst: string;
  showMoreOne: string;
  /** `{0}` more rows. */
  showMore: string;
  /** `{0}` the filter text. */
  noPathContains: string;
  /** `{0}` percent human, `{1}` percent AI. */
  split: string;
  noVisitors: string;
  trend: TrendStrings;
}

/** The chart's words. */
export interface TrendStrings {
  heading: string;
  /** Under the chart: how buckets are cut. */
  byDay: string;
  byWeek: string;
  /** The button that draws a chart whose cost is shown first. */
  draw: string;
  exportTrend: string;
  exportTrendTooltip: string;
  showTable: string;
  showChart: string;
  /** The chart's accessible name; `{0}` the number of points. */
  chartLabel: string;
  /** The text alternative's caption. */
  tableCaption: string;
  days: string;
  previousPeriod: string;
  /** `{0}` the days, `{1}` human, `{2}` AI, `{3}` total: the readout of the point under the pointer or the keyboard. */
  point: string;
  /** `{0}` the days: a week cut by the range. */
  partial: string;
  /** `{0}` the days: the bucket that includes today. */
  open: string;
  /** `{0}` the days: a point the hour's requests did not reach (drawn as a gap). */
  notFetched: string;
}

export type ExtensionMessage = { type: 'state'; state: ViewState } | { type: 'export'; status: ExportStatus };
