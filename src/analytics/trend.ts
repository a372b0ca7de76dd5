// The panel's trend: the chart above the table. For the range on screen it plans the buckets
// (trendBuckets.ts), says what drawing costs and waits for Draw when that is more than a few
// requests, holds the draw to what the organisation's hour has left, and words what the chart cost.
// The figures come from TrendSeries (kept buckets free, the rest one request each). The trend is
// the site's; while the panel shows one page (`focus`) there is none. vscode for its types only
// (erased): the import is how `npm run l10n` finds the l10n.t calls. Unit-tested with fakes.
import type * as vscode from 'vscode';
import type { Metric, TrendPoint, TrendView } from '../shared/protocol';
import { tryAgainIn } from '../errorMessages';
import { type Day, daysBetween } from '../util/days';
import { showInvisible } from '../util/visibleText';
import { withinHour } from '../sync/ledger';
import type { ResolvedRange } from './dateRange';
import { loadFailureView } from './loadFailure';
import { CONFIRM_ABOVE_REQUESTS } from './periodCompare';
import { previousBuckets, type TrendBucket, trendBuckets, type TrendPlan } from './trendBuckets';
import { TrendCutShort, type TrendSeries, type TrendSubject } from './trendSeries';

type L10n = Pick<typeof vscode.l10n, 't'>;

/** The organisation's analytics hour as the shared ledger counts it (every window). */
export interface TrendBudget {
  /** Requests left this hour; undefined while the ledger cannot tell (no key yet). */
  left(): number | undefined;
  /** When `needed` requests (1 unless said) are free again, in ms from now; 0 when they are now. */
  freesInMs(needed?: number): number;
}

export interface TrendDeps {
  series: Pick<TrendSeries, 'missing' | 'load'>;
  l10n: L10n;
  today: () => Day;
  budget?: TrendBudget;
}

/** What the panel shows: the trend is drawn for this. */
export interface TrendAsk {
  projectId: string;
  metric: Metric;
  range: Pick<ResolvedRange, 'from' | 'to' | 'dateFrom' | 'dateTo'>;
  /** "Compare with previous period" is on (and available): the previous period is drawn too. */
  compare: boolean;
  /** One page's trend (the panel shows that page): every page of each bucket's range is read. */
  path?: string;
  /** For a page's trend: about how many requests (pages of 250 paths) one bucket takes. */
  pagesPerBucket?: number;
}

interface Drawn {
  id: string;
  status: 'loading' | 'ready' | 'failed';
  message?: string;
  points?: TrendPoint[];
  previous?: TrendPoint[];
  cost?: string;
}

export class Trend {
  private drawn: Drawn | undefined;
  /** The trend the user said Draw for: its cost was shown. */
  private approved: string | undefined;
  private drawing: { id: string; done: Promise<void> } | undefined;

  constructor(private readonly deps: TrendDeps) {}

  view(ask: TrendAsk | undefined): TrendView | undefined {
    if (!ask) return undefined;
    const t = this.deps.l10n;
    const plan = this.plan(ask);
    if (!plan.ok) return { status: 'unavailable', unit: 'day', message: unavailable(plan.reason, t), points: [], previous: undefined, cost: undefined };
    const base = { unit: plan.unit, points: [], previous: undefined, cost: undefined };
    const drawn = this.drawn?.id === this.id(ask) ? this.drawn : undefined;
    if (drawn?.status === 'ready') return { status: 'ready', unit: plan.unit, message: undefined, points: drawn.points ?? [], previous: drawn.previous, cost: drawn.cost };
    if (drawn) return { ...base, status: drawn.status, message: drawn.message };
    const missing = this.cost(ask, this.deps.series.missing(ask.projectId, subjectOf(ask), this.bucketsOf(ask, plan.buckets).buckets).length);
    if (missing > CONFIRM_ABOVE_REQUESTS && this.approved !== this.id(ask)) return { ...base, status: 'confirm', message: costMessage(missing, plan.unit, this.deps.budget?.left(), t, ask.path) };
    return { ...base, status: 'loading', message: undefined };
  }

  /**
   * Draws the trend of `ask`: at once when it costs a few requests or fewer (or `approve`: the user
   * said Draw), else it waits for Draw. Resolves when the draw has ended; `refresh` asks again for the
   * buckets that include today.
   */
  async load(ask: TrendAsk | undefined, options: { approve?: boolean; refresh?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    if (!ask) return;
    const id = this.id(ask);
    if (options.approve) this.approved = id;
    // A draw of this trend on its way (Draw, then Next at once) is awaited, never sent twice.
    if (this.drawing?.id === id && !options.refresh) return this.drawing.done;
    const done = this.draw(ask, id, options);
    this.drawing = { id, done };
    try {
      await done;
    } finally {
      if (this.drawing?.done === done) this.drawing = undefined;
    }
  }

  private async draw(ask: TrendAsk, id: string, { refresh = false, signal }: { refresh?: boolean; signal?: AbortSignal }): Promise<void> {
    const plan = this.plan(ask);
    if (!plan.ok) return;
    const { buckets, previous } = this.bucketsOf(ask, plan.buckets);
    const absent = new Set(this.deps.series.missing(ask.projectId, subjectOf(ask), buckets));
    const missing = this.cost(ask, buckets.filter((bucket) => absent.has(bucket) || (refresh && bucket.open)).length);
    if (missing > CONFIRM_ABOVE_REQUESTS && this.approved !== id && this.drawn?.id !== id) return;
    const t = this.deps.l10n;
    const left = this.deps.budget?.left();
    if (left !== undefined && missing > left) {
      this.drawn = { id, status: 'failed', message: t.t('The trend needs {0} analytics requests and the organisation has {1} left this hour. {2}', missing, left, this.freesIn(missing)) };
      return;
    }
    if (missing > 0) this.drawn = { id, status: 'loading', message: t.t('Fetching the trend…') };
    try {
      // Held to what was left when the draw began, request by request (three are on their way at once).
      const mayRequest = withinHour(() => this.deps.budget?.left(), left ?? Number.POSITIVE_INFINITY);
      const result = await this.deps.series.load(ask.projectId, subjectOf(ask), buckets, { signal, refresh, mayRequest });
      const points = result.points.slice(0, plan.buckets.length);
      this.drawn = { id, status: 'ready', points, previous: previous.length ? result.points.slice(plan.buckets.length) : undefined, cost: costLine(result.requests, result.points.length, t) };
    } catch (error) {
      if (error instanceof TrendCutShort) {
        this.drawn = { id, status: 'failed', message: t.t('The trend stopped after {0} requests: the organisation’s analytics hour ran out. What was fetched is kept. {1}', error.requests, this.freesIn()) };
        return;
      }
      const failure = loadFailureView(error, t);
      this.drawn = failure.silent ? undefined : { id, status: 'failed', message: failure.error?.message ?? failure.setup?.message ?? String(error) };
    }
  }

  private plan(ask: TrendAsk): TrendPlan {
    return trendBuckets(ask.range.from, ask.range.to, this.deps.today());
  }

  /** The range's buckets, then (comparing) the previous period's, point for point. */
  private bucketsOf(ask: TrendAsk, current: readonly TrendBucket[]): { buckets: TrendBucket[]; previous: TrendBucket[] } {
    const previous = ask.compare && ask.range.dateFrom && ask.range.dateTo ? previousBuckets(current, daysBetween(ask.range.dateFrom, ask.range.dateTo)) : [];
    return { buckets: [...current, ...previous], previous };
  }

  /** Names a trend: the same ask on the same day draws the same buckets. */
  private id(ask: TrendAsk): string {
    return JSON.stringify([ask.projectId, ask.metric, ask.path ?? null, ask.range.dateFrom ?? null, ask.range.dateTo ?? null, ask.compare, this.deps.today()]);
  }

  /** Requests for `buckets` buckets: one each, or (a page's trend) about its pages each. */
  private cost(ask: TrendAsk, buckets: number): number {
    return ask.path === undefined ? buckets : buckets * Math.max(1, ask.pagesPerBucket ?? 1);
  }

  private freesIn(needed = 1): string {
    return tryAgainIn(Math.max(1_000, this.deps.budget?.freesInMs(needed) ?? 0), this.deps.l10n);
  }
}

function unavailable(reason: 'allTime' | 'future' | 'tooLong', t: L10n): string {
  if (reason === 'allTime') return t.t('All time has no first day to draw from: choose a range to see its trend.');
  if (reason === 'future') return t.t('The range starts after today: there is nothing to draw yet.');
  return t.t('A trend covers at most 53 weeks: choose a shorter range.');
}

function subjectOf(ask: TrendAsk): TrendSubject {
  return { metric: ask.metric, ...(ask.path !== undefined && { path: ask.path }) };
}

function costMessage(requests: number, unit: 'day' | 'week', left: number | undefined, t: L10n, path: string | undefined): string {
  const each = unit === 'day' ? t.t('Days that have ended are kept, so drawing it again costs only today.') : t.t('Weeks that have ended are kept, so drawing it again costs only this week.');
  if (path !== undefined) {
    // A path from the workspace is shown with its invisible and direction-changing characters made visible, as in its tooltip.
    const what = t.t('{0}’s trend reads every path of each {1} (pages of 250 paths): about {2} analytics requests', showInvisible(path), unit === 'day' ? t.t('day') : t.t('week'), requests);
    return left === undefined ? t.t('{0}. {1}', what, each) : t.t('{0}, of the {1} the organisation has left this hour. {2}', what, left, each);
  }
  return left === undefined
    ? t.t('Drawing the trend takes {0} analytics requests. {1}', requests, each)
    : t.t('Drawing the trend takes {0} of the {1} analytics requests the organisation has left this hour. {2}', requests, left, each);
}

/** "14 requests for 14 points", "1 request for 14 points; 13 kept from before", "No request: 14 points kept from before". */
function costLine(requests: number, points: number, t: L10n): string {
  if (requests === 0) return t.t('No request: all {0} points were kept from before.', points);
  if (requests === points) return requests === 1 ? t.t('1 request for 1 point.') : t.t('{0} requests for {1} points.', requests, points);
  return requests === 1 ? t.t('1 request for {0} points; {1} kept from before.', points, points - 1) : t.t('{0} requests for {1} points; {2} kept from before.', requests, points, points - requests);
}
