// Which trend buckets the shared state keeps, by kind (the `trends` and `trendUse` areas,
// syncState.ts). A settled bucket's figures never change, so keeping one saves its request for good;
// the bound says how many are kept, and which go first past it:
//
// - a site trend's days and its calendar weeks (Monday to Sunday), per project and metric: the
//   newest SITE_DAYS_KEPT days and SITE_WEEKS_KEPT weeks, by date. Nothing else competes with them,
//   so a year of days and a year-long trend's weeks (with their previous periods) stay for good;
// - a site trend's other spans (a week cut short by the range's ends, a previous period's seven
//   days that do not start on a Monday): these change as the days go by, so they have their own
//   bound, the least recently used first;
// - one page's trend (Show Trend), every kind: its own bound, the least recently used first.
//
// "Used" is when a window last kept or drew the bucket (`trendUse`: the latest wins). What belongs to
// another API address is forgotten: the areas are keyed by project and API address (trendScope).
// No vscode import: unit-tested.
import { addDays } from '../util/days';
import type { TrendFigures } from './sharedSchema';

/** Site trend days kept per project and metric: a year of days, and the month before it (Last 30 days with its previous period, drawn every day of a year). */
export const SITE_DAYS_KEPT = 400;
/** Site trend calendar weeks kept per project and metric: two years (a year-long trend and its previous period). */
export const SITE_WEEKS_KEPT = 110;
/** A site trend's other spans kept per project (least recently used first). */
export const SITE_SPANS_KEPT = 200;
/** Page trend buckets kept per project (least recently used first): ten pages' Last 30 days with their previous period. */
export const PAGE_TRENDS_KEPT = 600;

export type TrendKind = 'day' | 'week' | 'span' | 'page';

/** Where a project's trends are kept: by project and API address, so another server's figures are never taken for this one's. */
export function trendScope(project: string, apiBaseUrl: string | undefined): string {
  return apiBaseUrl === undefined ? project : `${project} @ ${apiBaseUrl}`;
}

/** Whether `scope` (a key of the trend areas) belongs to the API address. */
export function inScope(scope: string, apiBaseUrl: string): boolean {
  return scope.endsWith(` @ ${apiBaseUrl}`);
}

/** A bucket's kind from its key, `<metric> <dateFrom> <dateTo>` or `page:<path> <dateFrom> <dateTo>` (trendSeries.ts trendKey). */
export function trendKindOf(key: string): { kind: TrendKind; metric: string; from: string } {
  const [subject = '', from = '', to = ''] = key.split(' ');
  if (subject.startsWith('page:')) return { kind: 'page', metric: subject, from };
  if (to === addDays(from, 1)) return { kind: 'day', metric: subject, from };
  const monday = (new Date(`${from}T00:00:00Z`).getUTCDay() + 6) % 7 === 0;
  return { kind: monday && to === addDays(from, 7) ? 'week' : 'span', metric: subject, from };
}

/** Whether a window notes when it uses a bucket of this kind (the kinds bounded by use). */
export function boundByUse(key: string): boolean {
  const { kind } = trendKindOf(key);
  return kind === 'span' || kind === 'page';
}

/**
 * One project's settled buckets within the bounds (see the header), and the use of those kept.
 * Deterministic: every window keeps the same ones from the same merged state.
 */
export function boundTrends(trends: Record<string, TrendFigures>, use: Record<string, number>): { trends: Record<string, TrendFigures>; use: Record<string, number> } {
  const groups = new Map<string, string[]>();
  for (const key of Object.keys(trends)) {
    const { kind, metric } = trendKindOf(key);
    const group = kind === 'day' || kind === 'week' ? `${kind} ${metric}` : kind;
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const kept: string[] = [];
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const [group, keys] of groups) {
    const kind = group.split(' ')[0] as TrendKind;
    if (kind === 'day' || kind === 'week') {
      // The newest days first; of two buckets on the same first day (never, for these kinds), by key.
      keys.sort((a, b) => byKey(trendKindOf(b).from, trendKindOf(a).from) || byKey(a, b));
      kept.push(...keys.slice(0, kind === 'day' ? SITE_DAYS_KEPT : SITE_WEEKS_KEPT));
    } else {
      keys.sort((a, b) => (use[b] ?? 0) - (use[a] ?? 0) || byKey(a, b));
      kept.push(...keys.slice(0, kind === 'page' ? PAGE_TRENDS_KEPT : SITE_SPANS_KEPT));
    }
  }
  const out: Record<string, TrendFigures> = {};
  const usedOut: Record<string, number> = {};
  for (const key of kept.sort(byKey)) {
    out[key] = trends[key];
    if (use[key] !== undefined && boundByUse(key)) usedOut[key] = use[key];
  }
  return { trends: out, use: usedOut };
}
