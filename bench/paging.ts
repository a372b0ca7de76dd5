// Figure 10, paging that always ends: for each fetch that pages, the requests it takes against a
// simulator whose paging never ends (the `pagingNeverEnds` fault, `endless`: a new cursor, or
// hasMore at every offset, over rows that never run out), which must equal its cap, and against
// the simulator's default and large data, which must equal what the same fetch took before the
// paging rule (measured on main 32bcd29, recorded below). Real ApiClient, real HTTP, the simulator
// counting requests. Cheap: about 600 local requests in all.
import { createApiClient, ENDPOINTS } from '../src/api';
import { fetcherFor } from '../src/analytics/metric';
import { fetchAllVisitors } from '../src/analytics/visitorsQuery';
import { fetchSnapshot as fetchReaders } from '../src/analytics/visitorsSnapshot';
import { comparisonWindows } from '../src/signals/didItHelp';
import { countWindow, WINDOW_MOST_REQUESTS } from '../src/signals/impactCheck';
import { currentRange, fetchSnapshot, MOST_REQUESTS } from '../src/signals/snapshot';
import { startSimulator, type Simulator } from '../test/simulator/server';
import { DEFAULT_SIGNALS, LARGE_SIGNALS } from '../test/simulator/signals';
import { API_KEY, PROJECT } from './pollingClients';
import { DEFAULT_MAX_PAGES } from '../src/api/paging';
import { unlimited, withLeave } from '../test/support/grants';

export const PAGING_TEXT =
  'Each fetch that pages, through the one paging rule (src/api/paging.ts): against a simulator whose paging never ends ' +
  '(a new cursor, or hasMore at every offset, over rows that never run out), where it must stop at its cap; and against the ' +
  "simulator's default (3,000 pages) and large (10,000 pages, 20,000 assistant turns) data, where it must take what it took " +
  'before the rule (main 32bcd29). Export and readers read all time; Did It Help? one 28-day window looking for a term no page has.';

interface Fetch {
  label: string;
  cap: number;
  /** Requests before the paging rule: [never-ending server, default, large]. */
  before: [string, number, number];
  run: (sim: Simulator) => Promise<unknown>;
}

const api = (sim: Simulator) => createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
const allTime = { dateFrom: undefined, dateTo: undefined };

const FETCHES: Fetch[] = [
  {
    label: 'Fetch Reader Signals',
    cap: MOST_REQUESTS,
    before: ['never ended', 12, 18],
    run: (sim) => fetchSnapshot(api(sim), PROJECT, currentRange(), { grant: unlimited }),
  },
  {
    label: 'Did It Help? (one window)',
    cap: WINDOW_MOST_REQUESTS,
    before: ['never ended', 7, 14],
    run: (sim) => {
      const window = comparisonWindows(Date.now() - 30 * 86_400_000, Date.now());
      if (!window) throw new Error('no comparison window');
      return countWindow(api(sim), PROJECT, { path: '/quickstart', searches: ['a term no page has'] }, window.before, { grant: unlimited });
    },
  },
  {
    label: 'Export visitors',
    cap: ENDPOINTS.getVisitors.maxPages,
    before: ['400, then failed', 12, 40],
    run: (sim) => fetchAllVisitors(fetcherFor(api(sim), 'visitors'), PROJECT, allTime, { grant: unlimited }),
  },
  {
    label: 'Export view events',
    cap: ENDPOINTS.getViews.maxPages,
    before: ['400, then failed', 12, 40],
    run: (sim) => fetchAllVisitors(fetcherFor(api(sim), 'views'), PROJECT, allTime, { grant: unlimited }),
  },
  {
    label: `Readers and Compare (${DEFAULT_MAX_PAGES} pages)`,
    cap: DEFAULT_MAX_PAGES,
    before: ['40', 12, 40],
    run: (sim) => fetchReaders(withLeave(fetcherFor(api(sim), 'visitors')), { projectId: PROJECT, ...allTime }, { maxPages: DEFAULT_MAX_PAGES }),
  },
];

export interface PagingRun {
  label: string;
  cap: number;
  before: [string, number, number];
  /** Requests now: never-ending server, default data, large data. */
  endless: number;
  defaultData: number;
  large: number;
}

async function countOn(sim: Simulator, fetch: Fetch): Promise<number> {
  sim.clearRequests();
  await fetch.run(sim);
  return sim.requests.length;
}

export async function measurePaging(): Promise<PagingRun[]> {
  const sims = {
    endless: await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 100_000 }),
    defaultData: await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 100_000, pathCount: 3_000, signals: DEFAULT_SIGNALS }),
    large: await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 100_000, pathCount: 10_000, signals: LARGE_SIGNALS }),
  };
  sims.endless.addFault({ fault: { kind: 'pagingNeverEnds', how: 'endless' } });
  try {
    const runs: PagingRun[] = [];
    for (const fetch of FETCHES) {
      runs.push({
        label: fetch.label,
        cap: fetch.cap,
        before: fetch.before,
        endless: await countOn(sims.endless, fetch),
        defaultData: await countOn(sims.defaultData, fetch),
        large: await countOn(sims.large, fetch),
      });
    }
    return runs;
  } finally {
    await Promise.all(Object.values(sims).map((sim) => sim.close()));
  }
}

/** The summary table's rows. */
export function pagingRows(runs: readonly PagingRun[]): { figure: string; value: string }[] {
  return runs.map((run) => ({
    figure: `${run.label}: requests, never-ending server (cap) / default / large data (before the rule)`,
    value: `${run.endless} (${run.cap}) / ${run.defaultData} (${run.before[1]}) / ${run.large} (${run.before[2]})`,
  }));
}

export function pagingSection(runs: readonly PagingRun[]): string {
  const lines = runs.map(
    (run) =>
      `- ${run.label}: never-ending server ${run.endless} requests (cap ${run.cap}; before: ${run.before[0]}), default data ${run.defaultData} (before: ${run.before[1]}), large data ${run.large} (before: ${run.before[2]}).`,
  );
  return `## 10. Paging that always ends

${PAGING_TEXT} The caps are the endpoint table's (src/api/endpoints.ts), summed over the lists a fetch reads.

${lines.join('\n')}

Reproduce: \`npm run bench\` (\`--no-host\` for the request figures alone).
`;
}
