// Figure 4, request economy of analytics: a scripted panel session and an export, through the real
// VisitorsPager and fetchAllVisitors, the real ApiClient and the real simulator (real time, with a
// fixed answer latency). Requests are counted by the simulator.
import { createApiClient, type ApiClient } from '../src/api';
import { localToday, resolvePreset, type ResolvedRange } from '../src/analytics/dateRange';
import { EXPORT_PAGE_SIZE, fetchAllVisitors, VisitorsPager, type PageKey } from '../src/analytics/visitorsQuery';
import { startSimulator, type Simulator } from '../test/simulator/server';
import { l10n } from '../test/support/l10n';
import { API_KEY, PROJECT } from './pollingClients';
import { median } from './stats';

export const LATENCY_MS = 50;
/** The panel's default page size (the setting `mintlifyAgent.analytics.pageSize`). */
const DEFAULT_PAGE_SIZE = 50;

export const SESSION_TEXT =
  'Open the panel (Last 30 days, page 1), Next ×3, Previous ×3, change the range to Last 90 days, export that range. ' +
  `Simulator defaults (3,000 paths, 120 days), every answer delayed ${LATENCY_MS} ms.`;

export interface SessionRun {
  pageSize: number;
  requests: number;
  minimum: number;
  /** The same session without a page cache, exporting at the panel's page size. */
  naive: number;
  exportRows: number;
}

export interface AnalyticsResult {
  sessions: SessionRun[];
  exportRows: number;
  exportPages: number;
  /** Rows per second of each timed export. */
  rowsPerSecond: number[];
  medianRowsPerSecond: number;
  medianExportMs: number;
}

interface View {
  range: ResolvedRange;
  page: number;
}

function script(): View[] {
  const today = localToday();
  const last30 = resolvePreset('last30', today, l10n);
  const last90 = resolvePreset('last90', today, l10n);
  return [1, 2, 3, 4, 3, 2, 1].map((page) => ({ range: last30, page })).concat({ range: last90, page: 1 });
}

async function withSimulator<T>(work: (sim: Simulator, api: ApiClient) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ projects: [PROJECT], latencyMs: LATENCY_MS, analyticsLimitPerHour: 10_000 });
  try {
    return await work(sim, createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY }));
  } finally {
    await sim.close();
  }
}

const visitorRequests = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).length;

async function session(pageSize: number): Promise<SessionRun> {
  const views = script();
  const exportRange = views[views.length - 1]?.range;
  const keyOf = (range: ResolvedRange, size: number): PageKey => ({ projectId: PROJECT, dateFrom: range.dateFrom, dateTo: range.dateTo, pageSize: size });
  const id = (range: ResolvedRange, size: number, page: number) => JSON.stringify([range.dateFrom, range.dateTo, size, page]);

  const ours = await withSimulator(async (sim, api) => {
    const pager = new VisitorsPager((projectId, query, options) => api.getVisitors(projectId, query, options));
    for (const { range, page } of views) {
      const key = keyOf(range, pageSize);
      // What AnalyticsPanel.loadNow does: memory first, then the pager (which dedupes in-flight loads).
      if (!pager.cached(key, page)) await pager.load(key, page);
    }
    const all = await fetchAllVisitors((projectId, query, options) => api.getVisitors(projectId, query, options), PROJECT, exportRange);
    pager.dispose();
    return { requests: visitorRequests(sim), rows: all.rows.length };
  });

  const naive = await withSimulator(async (sim, api) => {
    for (const { range, page } of views) await api.getVisitors(PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo, limit: pageSize, offset: (page - 1) * pageSize });
    for (let offset = 0; ; offset += pageSize) {
      const page = await api.getVisitors(PROJECT, { dateFrom: exportRange.dateFrom, dateTo: exportRange.dateTo, limit: pageSize, offset });
      if (!page.hasMore) break;
    }
    return visitorRequests(sim);
  });

  // Every distinct page once, plus the export's pages of 250 that the session did not already see.
  const needed = new Set(views.map((v) => id(v.range, pageSize, v.page)));
  const exportPages = Math.max(1, Math.ceil(ours.rows / EXPORT_PAGE_SIZE));
  for (let page = 1; page <= exportPages; page++) needed.add(id(exportRange, EXPORT_PAGE_SIZE, page));
  return { pageSize, requests: ours.requests, minimum: needed.size, naive, exportRows: ours.rows };
}

export async function measureAnalytics(exportRuns: number): Promise<AnalyticsResult> {
  const sessions = [await session(DEFAULT_PAGE_SIZE), await session(EXPORT_PAGE_SIZE)];
  const range = script()[script().length - 1]?.range;
  const timed = await withSimulator(async (sim, api) => {
    sim.visitorsFor(PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo }); // builds the simulator's data before the clock runs
    const runs: { ms: number; rows: number; pages: number }[] = [];
    for (let i = 0; i < exportRuns; i++) {
      const started = performance.now();
      const all = await fetchAllVisitors((projectId, query, options) => api.getVisitors(projectId, query, options), PROJECT, range);
      runs.push({ ms: performance.now() - started, rows: all.rows.length, pages: all.pages });
    }
    return runs;
  });
  const rowsPerSecond = timed.map((r) => r.rows / (r.ms / 1000));
  return {
    sessions,
    exportRows: timed[0]?.rows ?? 0,
    exportPages: timed[0]?.pages ?? 0,
    rowsPerSecond,
    medianRowsPerSecond: median(rowsPerSecond),
    medianExportMs: median(timed.map((r) => r.ms)),
  };
}
