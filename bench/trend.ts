// Figure 12, the trend: what drawing the panel's trend costs in requests, the first time, in another
// window the same day, in the same window 20 minutes later and the next day. The real Trend and
// TrendSeries (src/analytics/trend/trend.ts, trendSeries.ts) fetch through the real ApiClient from the real
// simulator over HTTP through the extension's own trendTotals (one `limit=1` request a bucket);
// the windows share one kept store as WindowSync shares it. The clock is injected and fixed (noon
// UTC on a Wednesday), so the figure does not depend on the day it runs; requests are counted by
// the simulator. The draw time in the real webview is measured by bench/webview.ts.
import { createApiClient } from '../src/api';
import { resolvePreset, resolveRange, type ResolvedRange } from '../src/analytics/dateRange';
import { BucketRows } from '../src/analytics/trend/bucketRows';
import { Trend, type TrendAsk } from '../src/analytics/trend/trend';
import { isSettled, trendBuckets, weekdayFromMonday, type TrendBucket } from '../src/analytics/trend/trendBuckets';
import { TrendSeries, trendKey } from '../src/analytics/trend/trendSeries';
import { trendTotals } from '../src/analytics/trend/trendTotals';
import { LIVE_PAGE_MAX_AGE_MS } from '../src/analytics/visitorsQuery';
import type { TrendPoint } from '../src/shared/protocol';
import { MemoryTrendStore } from '../test/support/memoryTrendStore';
import { addDays, type Day, localToday } from '../src/util/days';
import { startSimulator } from '../test/simulator/server';
import { l10n } from '../test/support/l10n';
import { API_KEY, PROJECT } from './pollingClients';
import { HourGate } from '../src/hour/hourGate';
import { memoryLedger } from '../test/support/memoryLedger';

/** The fixed instant of the first view: Wednesday 2026-03-18, 12:00 UTC (the same calendar day from UTC−12 to UTC+11). */
export const TREND_NOW = Date.UTC(2026, 2, 18, 12);
const MINUTE = 60_000;

export const TREND_TEXT =
  'Each range is drawn four times: the first view (window A), another window the same day 5 minutes later (window B: a new ' +
  'Trend and TrendSeries sharing the kept store), window A again 20 minutes after the first view, and window A the next day ' +
  '(clock +24 h: today moves by a day, and a preset range with it).';

export interface TrendStep {
  name: string;
  /** Visitors requests the simulator received for this view. */
  requests: number;
  /** One request per bucket that no window kept (settled when fetched) or fetched in the last 15 minutes. */
  minimum: number;
  /** Without keeping anything: one request per bucket. */
  naive: number;
  points: number;
}

export interface TrendRun {
  label: string;
  unit: 'day' | 'week';
  steps: TrendStep[];
}

interface RangeCase {
  label: string;
  range: (today: Day) => ResolvedRange;
}

function cases(): RangeCase[] {
  const firstDay = localToday(new Date(TREND_NOW));
  // Twelve whole Monday-to-Sunday weeks ending with this one: a custom range keeps its dates the next day.
  const monday = addDays(firstDay, -weekdayFromMonday(firstDay) - 11 * 7);
  const custom = resolveRange({ kind: 'custom', from: monday, to: addDays(monday, 83) }, firstDay, l10n);
  if (!custom.ok) throw new Error(custom.message);
  return [
    { label: `12 weeks, custom (${monday} to ${addDays(monday, 83)})`, range: () => custom.range },
    { label: 'Last 90 days', range: (today) => resolvePreset('last90', today, l10n) },
    { label: 'Last 30 days', range: (today) => resolvePreset('last30', today, l10n) },
  ];
}

async function drawFourTimes(c: RangeCase): Promise<TrendRun> {
  let clock = TREND_NOW;
  const now = () => clock;
  const today = () => localToday(new Date(clock));
  // Data up to the day after the first view, so the next day's bucket has readers too.
  const sim = await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 10_000, now, today: addDays(today(), 1), days: 400 });
  try {
    const window = windowsOf(sim.url, now, today);
    const windows = { A: window(), B: window() };
    // The minimum's own account: when each bucket was fetched (by any window).
    const fetched = new Map<string, { at: number; window: string }[]>();
    const needs = (bucket: TrendBucket) =>
      !(fetched.get(trendKey({ metric: 'visitors' }, bucket)) ?? []).some((f) => isSettled(bucket, f.at) || clock - f.at < LIVE_PAGE_MAX_AGE_MS);
    const steps: TrendStep[] = [];
    let unit: 'day' | 'week' = 'day';
    const view = async (name: string, w: keyof typeof windows, at: number) => {
      clock = at;
      const range = c.range(today());
      const plan = trendBuckets(range.from, range.to, today());
      if (!plan.ok) throw new Error(`${c.label}: no trend (${plan.reason})`);
      unit = plan.unit;
      const minimum = plan.buckets.filter(needs);
      for (const bucket of minimum)
        fetched.set(trendKey({ metric: 'visitors' }, bucket), [...(fetched.get(trendKey({ metric: 'visitors' }, bucket)) ?? []), { at: clock, window: w }]);
      const before = sim.requests.length;
      const ask: TrendAsk = { projectId: PROJECT, metric: 'visitors', range, compare: false };
      await windows[w].load(ask, { approve: true });
      const shown = windows[w].view(ask);
      if (shown?.status !== 'ready') throw new Error(`${c.label}, ${name}: the trend is ${shown?.status ?? 'absent'} (${shown?.message ?? ''})`);
      const received = sim.requests.slice(before).filter((r) => r.rawPath.endsWith('/visitors'));
      if (received.some((r) => r.query.limit !== '1')) throw new Error(`${c.label}, ${name}: a trend request without limit=1`);
      steps.push({ name, requests: received.length, minimum: minimum.length, naive: plan.buckets.length, points: shown.points.length });
    };
    await view('first view', 'A', TREND_NOW);
    await view('another window, same day (+5 min)', 'B', TREND_NOW + 5 * MINUTE);
    await view('the same window 20 minutes later', 'A', TREND_NOW + 20 * MINUTE);
    await view('the next day (+24 h)', 'A', TREND_NOW + 24 * 60 * MINUTE);
    return { label: c.label, unit, steps };
  } finally {
    await sim.close();
  }
}

/**
 * Makes windows' trends as registerAnalytics.ts wires one: the real client and trendTotals, each
 * window its own rows and today's buckets, one kept store for all as WindowSync shares it.
 */
function windowsOf(url: string, now: () => number, today: () => Day): () => Trend {
  const api = createApiClient({ baseUrl: () => url, getApiKey: async () => API_KEY });
  const kept = new MemoryTrendStore();
  return () => {
    const rows = new BucketRows();
    // The hour is not what this figure measures: a gate over an empty ledger grants every draw.
    const gate = new HourGate(memoryLedger(now).account, { showMessage: async () => undefined }, l10n, now);
    return new Trend({ series: new TrendSeries({ kept, now, rows, fetchTotals: trendTotals(api, rows, () => undefined, l10n) }), l10n, today, gate });
  };
}

export async function measureTrend(): Promise<TrendRun[]> {
  const runs: TrendRun[] = [];
  for (const c of cases()) runs.push(await drawFourTimes(c));
  return runs;
}

export const PAGE_TREND_PATHS = 600;

export const PAGE_TREND_TEXT =
  `**Show Trend** (one page's trend): Last 30 days for one page, then for another page in the same window, on the same fixed ` +
  `clock, against a site of ${PAGE_TREND_PATHS} paths (each day's every path is up to three pages of 250, every one read to find the page's ` +
  'row). **Minimum**: the first page needs every page of every day; the second only the pages of the days that have not settled ' +
  "(the settled days' rows the first read are kept in the window, src/analytics/trend/bucketRows.ts). **Keeping nothing**: every page " +
  'of every day, for each page.';

/** Show Trend over Last 30 days for one page, then another: what the second costs once the first's settled days are kept. */
export async function measurePageTrends(): Promise<TrendStep[]> {
  const now = () => TREND_NOW;
  const today = () => localToday(new Date(TREND_NOW));
  const sim = await startSimulator({
    projects: [PROJECT],
    analyticsLimitPerHour: 10_000,
    now,
    today: addDays(today(), 1),
    days: 400,
    pathCount: PAGE_TREND_PATHS,
  });
  try {
    const trend = windowsOf(sim.url, now, today)();
    const range = resolvePreset('last30', today(), l10n);
    const plan = trendBuckets(range.from, range.to, today());
    if (!plan.ok) throw new Error(`Last 30 days: no trend (${plan.reason})`);
    const pagesOf = (buckets: readonly TrendBucket[]) =>
      buckets.reduce((sum, b) => sum + Math.max(1, Math.ceil(sim.visitorsFor(PROJECT, b).visitors.length / 250)), 0);
    const every = pagesOf(plan.buckets);
    const paths = sim.visitorsFor(PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo }).visitors.map((v) => v.path);
    const steps: TrendStep[] = [];
    for (const [name, path, minimum] of [
      ['Show Trend, one page', paths[3], every],
      ['Show Trend, another page over the same days', paths[400], pagesOf(plan.buckets.filter((b) => !isSettled(b, TREND_NOW)))],
    ] as const) {
      const before = sim.requests.length;
      const ask: TrendAsk = { projectId: PROJECT, metric: 'visitors', range, compare: false, path };
      await trend.load(ask, { approve: true });
      const shown = trend.view(ask);
      if (shown?.status !== 'ready') throw new Error(`${name}: the trend is ${shown?.status ?? 'absent'} (${shown?.message ?? ''})`);
      const received = sim.requests.slice(before).filter((r) => r.rawPath.endsWith('/visitors'));
      steps.push({ name, requests: received.length, minimum, naive: every, points: shown.points.length });
    }
    return steps;
  } finally {
    await sim.close();
  }
}

/**
 * Points for the webview figure: `count` days or Monday-to-Sunday weeks ending on the fixed day
 * (the last one open), with figures that rise and fall like a real site's.
 */
export function benchTrendPoints(unit: 'day' | 'week', count: number, shiftDays = 0): TrendPoint[] {
  const step = unit === 'day' ? 1 : 7;
  const last = addDays(localToday(new Date(TREND_NOW)), shiftDays);
  return Array.from({ length: count }, (_, i) => {
    const from = addDays(last, -(count - 1 - i) * step - (step - 1));
    const human = Math.round(800 + 300 * Math.sin(i / 3) + 37 * (i % 5)) * step;
    const ai = Math.round(200 + 120 * Math.cos(i / 4) + 11 * (i % 7)) * step;
    return { from, to: addDays(from, step - 1), partial: false, open: i === count - 1 && shiftDays === 0, human, ai, total: human + ai };
  });
}
