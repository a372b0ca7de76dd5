// Figure 6, request economy of the readers figures in the editor: 50 different docs pages opened
// over one hour, through the real SnapshotStore and fetchSnapshot, the real ApiClient and the real
// simulator (requests counted by the simulator), on a simulated clock (a page every 72 s). The time
// from opening a page to its status-bar figure is measured in the VS Code host (host/entry.ts).
import { createApiClient } from '../src/api';
import { resolvePreset } from '../src/analytics/dateRange';
import { localToday } from '../src/util/days';
import { fetchSnapshot, readersOf, SNAPSHOT_PAGE_SIZE, SnapshotStore, type SnapshotKey } from '../src/analytics/visitorsSnapshot';
import { l10n } from '../test/support/l10n';
import { startSimulator } from '../test/simulator/server';
import { API_KEY, PROJECT } from './pollingClients';
import { DEFAULT_MAX_PAGES } from '../src/api/paging';
import { unlimited } from '../test/support/grants';

export const READERS_TEXT =
  'Open 50 different docs pages over one hour (one every 72 s, Last 30 days), each showing its readers figure. ' +
  'Minimum: ceil(paths with readers / 250) requests per range per hour. Naive: each page opened pages through the ' +
  'range until its path turns up (the API has no path filter).';

export interface ReadersRun {
  paths: number;
  /** Rows the range has (paths with at least one reader). */
  rows: number;
  requests: number;
  minimum: number;
  naive: number;
  /** Pages whose figure was found in the snapshot (the rest: "no readers" or beyond the cap). */
  found: number;
}

async function openFiftyPages(pathCount: number): Promise<ReadersRun> {
  const sim = await startSimulator({ projects: [PROJECT], pathCount, analyticsLimitPerHour: 10_000 });
  try {
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
    const range = resolvePreset('last30', localToday(), l10n);
    const key: SnapshotKey = { projectId: PROJECT, dateFrom: range.dateFrom, dateTo: range.dateTo };
    const truth = sim.visitorsFor(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo }).visitors;
    let clock = Date.now();
    const values = new Map<string, unknown>();
    const store = new SnapshotStore({
      fetch: (k, grant) => fetchSnapshot((p, q, o) => api.getVisitors(p, q, { ...o, grant }), k, { maxPages: DEFAULT_MAX_PAGES, now: () => clock }),
      storage: {
        get: (k) => values.get(k),
        update: (k, v) => {
          values.set(k, v);
          return Promise.resolve();
        },
      },
      now: () => clock,
    });
    // 50 pages spread over the ranks, the head and the long tail alike.
    const step = Math.max(1, Math.floor(truth.length / 50));
    const pages = Array.from({ length: 50 }, (_, i) => truth[Math.min(truth.length - 1, i * step)].path);
    let found = 0;
    let naive = 0;
    for (const path of pages) {
      const snapshot = await store.get(key, { grant: unlimited });
      if (readersOf(snapshot, path).kind === 'read') found++;
      naive += Math.floor(truth.findIndex((r) => r.path === path) / SNAPSHOT_PAGE_SIZE) + 1;
      clock += 72_000;
    }
    const requests = sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).length;
    return { paths: pathCount, rows: truth.length, requests, minimum: Math.max(1, Math.ceil(truth.length / SNAPSHOT_PAGE_SIZE)), naive, found };
  } finally {
    await sim.close();
  }
}

export async function measureReaders(): Promise<ReadersRun[]> {
  return [await openFiftyPages(400), await openFiftyPages(10_000)];
}
