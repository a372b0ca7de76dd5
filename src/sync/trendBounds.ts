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
import type { TrendFigures } from './sharedSchema';

/** Site trend days kept per project and metric: a year of days, and the month before it (Last 30 days with its previous period, drawn every day of a year). */
export const SITE_DAYS_KEPT = 400;
/** Site trend calendar weeks kept per project and metric: two years (a year-long trend and its previous period). */
export const SITE_WEEKS_KEPT = 110;
/** A site trend's other spans kept per project (least recently used first). */
export const SITE_SPANS_KEPT = 200;
/** Page trend buckets kept per project (least recently used first): ten pages' Last 30 days with their previous period. */
export const PAGE_TRENDS_KEPT = 600;

type TrendKind = 'day' | 'week' | 'span' | 'page';

const DAY_MS = 86_400_000;

/** Where a project's trends are kept: by project and API address, so another server's figures are never taken for this one's. */
export function trendScope(project: string, apiBaseUrl: string | undefined): string {
  return apiBaseUrl === undefined ? project : `${project} @ ${apiBaseUrl}`;
}

/** Whether `scope` (a key of the trend areas) belongs to the API address. */
export function inScope(scope: string, apiBaseUrl: string): boolean {
  return scope.endsWith(` @ ${apiBaseUrl}`);
}

/** A bucket's kind from its key, `<metric> <dateFrom> <dateTo>` or `page:<path> <dateFrom> <dateTo>` (trendSeries.ts trendKey). */
function trendKindOf(key: string): { kind: TrendKind; metric: string; from: string } {
  const [subject = '', from = '', to = ''] = key.split(' ');
  if (subject.startsWith('page:')) return { kind: 'page', metric: subject, from };
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
  if (days === 1) return { kind: 'day', metric: subject, from };
  const monday = new Date(Date.parse(from)).getUTCDay() === 1;
  return { kind: monday && days === 7 ? 'week' : 'span', metric: subject, from };
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
function boundTrends(trends: Record<string, TrendFigures>, use: Record<string, number>): { trends: Record<string, TrendFigures>; use: Record<string, number> } {
  const groups = new Map<string, { key: string; from: string }[]>();
  for (const key of Object.keys(trends)) {
    const { kind, metric, from } = trendKindOf(key);
    const group = kind === 'day' || kind === 'week' ? `${kind} ${metric}` : kind;
    const members = groups.get(group) ?? [];
    members.push({ key, from });
    groups.set(group, members);
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const kept: string[] = [];
  for (const [group, members] of groups) {
    const kind = group.split(' ')[0] as TrendKind;
    const bound = { day: SITE_DAYS_KEPT, week: SITE_WEEKS_KEPT, span: SITE_SPANS_KEPT, page: PAGE_TRENDS_KEPT }[kind];
    if (members.length > bound) {
      // Days and weeks: the newest first; the kinds bounded by use: the most recently used first. Ties by key.
      if (kind === 'day' || kind === 'week') members.sort((a, b) => byText(b.from, a.from) || byText(a.key, b.key));
      else members.sort((a, b) => (use[b.key] ?? 0) - (use[a.key] ?? 0) || byText(a.key, b.key));
    }
    for (const { key } of members.slice(0, bound)) kept.push(key);
  }
  const out: Record<string, TrendFigures> = {};
  const usedOut: Record<string, number> = {};
  for (const key of kept.sort(byText)) {
    out[key] = trends[key];
    if (use[key] !== undefined && boundByUse(key)) usedOut[key] = use[key];
  }
  return { trends: out, use: usedOut };
}

/**
 * Bounds the `trends` and `trendUse` areas in place (every scope), and forgets the scopes of an API
 * address other than `apiBaseUrl` (or, from files of versions before the address was part of the
 * key, unknown ones); all addresses' are kept when it is undefined.
 */
export function pruneTrendAreas(
  trends: Record<string, Record<string, TrendFigures>>,
  trendUse: Record<string, Record<string, number>>,
  apiBaseUrl: string | undefined,
): void {
  for (const scope of new Set([...Object.keys(trends), ...Object.keys(trendUse)])) {
    if (apiBaseUrl !== undefined && !inScope(scope, apiBaseUrl)) {
      delete trends[scope];
      delete trendUse[scope];
      continue;
    }
    const bounded = boundTrends(trends[scope] ?? {}, trendUse[scope] ?? {});
    if (Object.keys(bounded.trends).length) trends[scope] = bounded.trends;
    else delete trends[scope];
    if (Object.keys(bounded.use).length) trendUse[scope] = bounded.use;
    else delete trendUse[scope];
  }
}
