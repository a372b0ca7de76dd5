// Figure 4, request economy of analytics: a scripted panel session and an export, through the real
// VisitorsPager and fetchAllVisitors, the real ApiClient and the real simulator (real time, with a
// fixed answer latency). Requests are counted by the simulator.
import { createApiClient, type ApiClient } from '../src/api';
import { resolvePreset, type ResolvedRange } from '../src/analytics/dateRange';
import { localToday } from '../src/util/days';
import { EXPORT_PAGE_SIZE, fetchAllVisitors, VisitorsPager, type PageKey } from '../src/analytics/visitorsQuery';
import { fetcherFor } from '../src/analytics/metric';
import { PanelPages, SnapshotReuse, snapshotKeyOf } from '../src/analytics/snapshotReuse';
import { fetchSnapshot, isFreshFor, snapshotId, type VisitorsSnapshot } from '../src/analytics/visitorsSnapshot';
import { startSimulator, type Simulator } from '../test/simulator/server';
import { l10n } from '../test/support/l10n';
import { API_KEY, PROJECT } from './pollingClients';
import { median } from './stats';
import { DEFAULT_MAX_PAGES } from '../src/api/paging';
import { unlimited, withLeave } from '../test/support/grants';

export const LATENCY_MS = 50;
/** The panel's default page size (the setting `mintlifyAgent.analytics.pageSize`). */
export const DEFAULT_PAGE_SIZE = 50;

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
  /** The session at the default page size when the readers status item already holds Last 30 days. */
  withReaders: { readers: number; panel: number; withoutReuse: number };
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
    const pager = new VisitorsPager(withLeave((projectId, query, options) => api.getVisitors(projectId, query, options)));
    for (const { range, page } of views) {
      const key = keyOf(range, pageSize);
      // What AnalyticsPanel.loadNow does: memory first, then the pager (which dedupes in-flight loads).
      if (!pager.cached(key, page)) await pager.load(key, page);
    }
    const all = await fetchAllVisitors(
      withLeave((projectId, query, options) => api.getVisitors(projectId, query, options)),
      PROJECT,
      exportRange,
    );
    pager.dispose();
    return { requests: visitorRequests(sim), rows: all.rows.length };
  });

  const naive = await withSimulator(async (sim, api) => {
    for (const { range, page } of views)
      await api.getVisitors(PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo, limit: pageSize, offset: (page - 1) * pageSize }, { grant: unlimited });
    for (let offset = 0; ; offset += pageSize) {
      const page = await api.getVisitors(
        PROJECT,
        { dateFrom: exportRange.dateFrom, dateTo: exportRange.dateTo, limit: pageSize, offset },
        { grant: unlimited },
      );
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

/**
 * The same session after the readers status item fetched Last 30 days (as opening a docs page
 * does): through PanelPages, the panel's Last 30 days pages come from that snapshot, so what the
 * panel spends is Last 90 days page 1 and its export.
 */
async function sessionWithReaders(): Promise<AnalyticsResult['withReaders']> {
  return withSimulator(async (sim, api) => {
    const views = script();
    const kept = new Map<string, VisitorsSnapshot>();
    const port = {
      cached: (key: Parameters<typeof snapshotId>[0]) => kept.get(snapshotId(key)),
      isFresh: (snapshot: VisitorsSnapshot) => isFreshFor(snapshot, Date.now()),
      put: (snapshot: VisitorsSnapshot) => void kept.set(snapshotId(snapshot.key), snapshot),
      maxPages: () => DEFAULT_MAX_PAGES,
    };
    const first = views[0].range;
    port.put(await fetchSnapshot(withLeave(fetcherFor(api, 'visitors')), snapshotKeyOf({ projectId: PROJECT, ...first }), { maxPages: DEFAULT_MAX_PAGES }));
    const readers = visitorRequests(sim);
    const reuse = new SnapshotReuse(port);
    const pagers = { visitors: new VisitorsPager(withLeave(fetcherFor(api, 'visitors'))), views: new VisitorsPager(withLeave(fetcherFor(api, 'views'))) };
    const pages = new PanelPages(pagers, reuse);
    for (const { range, page } of views) {
      const key = { projectId: PROJECT, dateFrom: range.dateFrom, dateTo: range.dateTo, pageSize: DEFAULT_PAGE_SIZE, metric: 'visitors' as const };
      if (!pages.cached(key, page)) await pages.load(key, page, {});
    }
    // What VisitorsExporter does: the kept snapshot when it covers the range, else every page of 250.
    const exportRange = views[views.length - 1].range;
    if (!reuse.usable(snapshotKeyOf({ projectId: PROJECT, ...exportRange })))
      await fetchAllVisitors(withLeave(fetcherFor(api, 'visitors')), PROJECT, exportRange);
    pagers.visitors.dispose();
    pagers.views.dispose();
    return { readers, panel: visitorRequests(sim) - readers, withoutReuse: 0 };
  });
}

export async function measureAnalytics(exportRuns: number): Promise<AnalyticsResult> {
  const sessions = [await session(DEFAULT_PAGE_SIZE), await session(EXPORT_PAGE_SIZE)];
  const withReaders = { ...(await sessionWithReaders()), withoutReuse: sessions[0].requests };
  const range = script()[script().length - 1]?.range;
  const timed = await withSimulator(async (sim, api) => {
    sim.visitorsFor(PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo }); // builds the simulator's data before the clock runs
    const runs: { ms: number; rows: number; pages: number }[] = [];
    for (let i = 0; i < exportRuns; i++) {
      const started = performance.now();
      const all = await fetchAllVisitors(
        withLeave((projectId, query, options) => api.getVisitors(projectId, query, options)),
        PROJECT,
        range,
      );
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
    withReaders,
  };
}
