// The panel's trend: the chart above the table. For the range on screen it plans the buckets
// (trendBuckets.ts), says what drawing costs in the hour gate's one wording and waits for Draw when
// that is more than a few requests or more than the hour has left, draws the newest points that fit
// when not all do (the rest shown as not fetched yet), and words what the chart cost. The figures
// come from TrendSeries (kept buckets free, the rest one request each, or a page's pages). Each draw
// is kept by its own identity, so one that ends after the user moved on updates only its own entry.
// vscode for its types only (erased): the import is how `npm run l10n` finds the l10n.t calls.
// Unit-tested with fakes.
import type * as vscode from 'vscode';
import type { Metric, TrendPoint, TrendView } from '../../shared/protocol';
import { waitText } from '../../waitWords';
import type { HourGate } from '../../hour/hourGate';
import { CONFIRM_ABOVE_REQUESTS } from '../../hour/hourGate';
import { HOURLY_LIMIT } from '../../hour/ledger';
import { type Day, daysBetween } from '../../util/days';
import { showInvisible } from '../../util/visibleText';
import type { ResolvedRange } from '../dateRange';
import { loadFailureView } from '../loadFailure';
import { previousBuckets, type TrendBucket, trendBuckets, type TrendPlan } from './trendBuckets';
import type { TrendSeries, TrendSubject } from './trendSeries';

type L10n = Pick<typeof vscode.l10n, 't'>;

export interface TrendDeps {
  series: Pick<TrendSeries, 'missing' | 'load'>;
  l10n: L10n;
  today: () => Day;
  /** The organisation's analytics hour: what is left, when it frees, the cost's words, the grant for a Draw. */
  gate: Pick<HourGate, 'left' | 'freesInMs' | 'question' | 'granted'>;
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
  /** For a page's trend: about how many requests (pages of 250 paths) a bucket takes, from what is kept; undefined when nothing tells. */
  pagesPerBucket?: (bucket: Pick<TrendBucket, 'dateFrom' | 'dateTo'>) => number | undefined;
}

interface Drawn {
  status: 'loading' | 'ready' | 'failed';
  message?: string;
  points?: TrendPoint[];
  previous?: TrendPoint[];
  cost?: string;
  /** The hour gave out before every point was fetched: only a Draw fetches the rest. */
  partial?: boolean;
}

/** Draws kept by identity: the few last looked at are enough to switch back and forth. */
const DRAWS_KEPT = 8;

export class Trend {
  /** Each trend's last draw, by its identity (the most recent last). */
  private readonly drawn = new Map<string, Drawn>();
  /** The trends whose Draw is on its way: the yes belongs to that draw and ends with it. */
  private readonly approved = new Set<string>();
  /** Draws on their way, by identity: a second ask of the same trend waits for its draw. */
  private readonly drawing = new Map<string, Promise<void>>();

  constructor(private readonly deps: TrendDeps) {}

  view(ask: TrendAsk | undefined): TrendView | undefined {
    if (!ask) return undefined;
    const t = this.deps.l10n;
    const plan = this.plan(ask);
    if (!plan.ok) return { status: 'unavailable', unit: 'day', message: unavailable(plan.reason, t), points: [], previous: undefined, cost: undefined };
    const id = this.id(ask);
    const base = { unit: plan.unit, points: [], previous: undefined, cost: undefined };
    const drawn = this.drawn.get(id);
    if (drawn?.status === 'ready')
      return { status: 'ready', unit: plan.unit, message: drawn.message, points: drawn.points ?? [], previous: drawn.previous, cost: drawn.cost };
    if (drawn) return { ...base, status: drawn.status, message: drawn.message };
    const cost = this.cost(ask, this.deps.series.missing(ask.projectId, subjectOf(ask), this.bucketsOf(ask, plan.buckets).buckets));
    if (this.approved.has(id) || !this.mustAsk(ask, cost)) return { ...base, status: 'loading', message: undefined };
    const question = this.question(ask, cost, plan.unit);
    return { ...base, status: question.fits === 0 ? 'failed' : 'confirm', message: question.message };
  }

  /**
   * Draws the trend of `ask`: at once when it costs a few requests or fewer and fits in the hour
   * (or `approve`: the user said Draw), else it waits for Draw. Resolves when the draw has ended;
   * `refresh` asks again for every bucket not settled yet (today's, and yesterday's in the hour after its end at UTC).
   */
  async load(ask: TrendAsk | undefined, options: { approve?: boolean; refresh?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    if (!ask) return;
    const id = this.id(ask);
    // A draw of this trend on its way (Draw, then Next at once) is awaited, never sent twice; a
    // Draw said meanwhile is its own draw once that one has ended.
    const pending = this.drawing.get(id);
    if (pending && !options.refresh && !options.approve) return pending;
    if (pending) await pending.catch(() => undefined);
    if (options.approve) this.approved.add(id);
    const done = this.draw(ask, id, options);
    this.drawing.set(id, done);
    try {
      await done;
    } finally {
      if (this.drawing.get(id) === done) this.drawing.delete(id);
      // The yes was for this draw: a later table action, Refresh or redraw asks anew.
      if (options.approve) this.approved.delete(id);
    }
  }

  private async draw(
    ask: TrendAsk,
    id: string,
    { refresh = false, signal, approve = false }: { refresh?: boolean; signal?: AbortSignal; approve?: boolean },
  ): Promise<void> {
    const plan = this.plan(ask);
    if (!plan.ok) return;
    const { buckets, previous } = this.bucketsOf(ask, plan.buckets);
    // What the series will fetch, and so what the grant must cover: on Refresh every bucket not
    // settled yet, yesterday's too in the hour after its end at UTC (not only the one with today).
    const cost = this.cost(ask, this.deps.series.missing(ask.projectId, subjectOf(ask), buckets, refresh));
    // Only a Draw pays for more than a few requests: a chart drawn before (whole or in part) stays as it is.
    if ((this.mustAsk(ask, cost) || this.drawn.get(id)?.partial) && !approve) return;
    const t = this.deps.l10n;
    const left = this.deps.gate.left();
    if (cost > 0 && left === 0) {
      // Nothing left: a chart drawn before stays, with the question's words beside it.
      const shown = this.drawn.get(id);
      const message = this.question(ask, cost, plan.unit).message;
      return this.keep(id, shown?.status === 'ready' ? { ...shown, message } : { status: 'failed', message });
    }
    if (cost > 0) this.keep(id, { ...this.drawn.get(id), status: 'loading', message: t.t('Fetching the trend…') });
    try {
      // What the writer saw and said yes to, held request by request to what the hour has left: the
      // cost, or (a page's "at least", guessed) what the hour has left.
      const grant = this.deps.gate.granted(this.guessed(ask) ? (left ?? cost) : Math.min(cost, left ?? cost));
      const result = await this.deps.series.load(ask.projectId, subjectOf(ask), buckets, { signal, refresh, grant }).finally(() => grant.end());
      const points = result.points.slice(0, plan.buckets.length);
      const missing = result.points.filter((point) => point.missing);
      const message = missing.length ? this.notFetched(ask, missing.length, buckets, result.points) : undefined;
      this.keep(id, {
        status: 'ready',
        points,
        previous: previous.length ? result.points.slice(plan.buckets.length) : undefined,
        cost: costLine(result.requests, result.points.length - missing.length, result.kept, t),
        message,
        partial: missing.length > 0,
      });
    } catch (error) {
      const failure = loadFailureView(error, t);
      if (failure.silent) this.drawn.delete(id);
      else this.keep(id, { status: 'failed', message: failure.error?.message ?? failure.setup?.message ?? String(error) });
    }
  }

  /** Keeps a draw's outcome under its own identity, the few most recent only. */
  private keep(id: string, drawn: Drawn): void {
    this.drawn.delete(id);
    this.drawn.set(id, drawn);
    for (const oldest of this.drawn.keys()) {
      if (this.drawn.size <= DRAWS_KEPT) break;
      this.drawn.delete(oldest);
      this.approved.delete(oldest);
    }
  }

  /** A yes first: more than a few requests, more than the hour has left, or a page's cost that is only a guess. */
  private mustAsk(ask: TrendAsk, cost: number): boolean {
    const left = this.deps.gate.left();
    return cost > CONFIRM_ABOVE_REQUESTS || (left !== undefined && cost > left) || (cost > 0 && this.guessed(ask));
  }

  /** The gate's one wording of the cost, and what Draw does when not all of it fits. */
  private question(ask: TrendAsk, cost: number, unit: 'day' | 'week'): { message: string; fits: number } {
    const t = this.deps.l10n;
    const what =
      ask.path === undefined
        ? t.t('Drawing the trend')
        : // A path from the workspace is shown with its invisible and direction-changing characters made visible, as in its tooltip.
          t.t('{0}’s trend, which reads every path of each {1} (pages of 250 paths),', showInvisible(ask.path), unit === 'day' ? t.t('day') : t.t('week'));
    // A page's buckets of which nothing is kept count one page each: then its cost is said as "at least".
    const question = this.deps.gate.question({ what, estimate: cost, atLeast: this.guessed(ask) });
    const each =
      unit === 'day'
        ? t.t('Days that have ended are kept, so drawing it again costs only today.')
        : t.t('Weeks that have ended are kept, so drawing it again costs only this week.');
    const partly =
      question.fits > 0 && question.fits < cost ? t.t('Draw Trend draws the newest points that fit; the others are shown as not fetched yet.') : '';
    return { message: [question.message, partly, each].filter(Boolean).join(' '), fits: question.fits };
  }

  /** Said under a chart the hour could not pay for whole: how many points wait, and when they fit. */
  private notFetched(ask: TrendAsk, count: number, buckets: readonly TrendBucket[], points: readonly TrendPoint[]): string {
    const t = this.deps.l10n;
    const cost = this.cost(
      ask,
      buckets.filter((_, i) => points[i].missing),
    );
    if (cost > HOURLY_LIMIT)
      return t.t(
        '{0} points are not fetched yet: the hour’s analytics requests gave out first, and the {1} they need can never all fit in one hour (the platform allows {2}). Draw Trend fetches the newest of them that fit.',
        count,
        cost,
        HOURLY_LIMIT,
      );
    const wait = waitText(Math.max(1_000, this.deps.gate.freesInMs(cost)), t);
    return count === 1
      ? t.t('1 point is not fetched yet: the hour’s analytics requests gave out first. Draw Trend fetches it; the {0} it needs are free in {1}.', cost, wait)
      : t.t(
          '{0} points are not fetched yet: the hour’s analytics requests gave out first. Draw Trend fetches them; the {1} they need are free in {2}.',
          count,
          cost,
          wait,
        );
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

  /** Whether a page trend's cost counts a bucket nothing kept tells about (as one page). */
  private guessed(ask: TrendAsk): boolean {
    if (ask.path === undefined) return false;
    const plan = this.plan(ask);
    if (!plan.ok) return false;
    const { buckets } = this.bucketsOf(ask, plan.buckets);
    return this.deps.series.missing(ask.projectId, subjectOf(ask), buckets).some((bucket) => ask.pagesPerBucket?.(bucket) === undefined);
  }

  /** Requests for `buckets`: one each, or (a page's trend) each bucket's own pages, as far as they are known. */
  private cost(ask: TrendAsk, buckets: readonly TrendBucket[]): number {
    if (ask.path === undefined) return buckets.length;
    return buckets.reduce((sum, bucket) => sum + Math.max(1, ask.pagesPerBucket?.(bucket) ?? 1), 0);
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

/** "14 requests for 14 points", "1 request for 14 points; 13 kept from before", "No request: 14 points kept from before". */
function costLine(requests: number, points: number, kept: number, t: L10n): string {
  if (requests === 0) return t.t('No request: all {0} points were kept from before.', points);
  if (kept === 0) return requests === 1 ? t.t('1 request for 1 point.') : t.t('{0} requests for {1} points.', requests, points);
  return requests === 1
    ? t.t('1 request for {0} points; {1} kept from before.', points, kept)
    : t.t('{0} requests for {1} points; {2} kept from before.', requests, points, kept);
}
