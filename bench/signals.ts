// Figure 8, the cost of the reader signals: one full snapshot (feedback/by-page, pending feedback,
// assistant, searches, views) for the last 30 days, through the real fetchSnapshot, ApiClient and
// simulator (requests counted by the simulator), on the default data set and on a large site
// (10,000 pages, 2,000 feedback items, 5,000 search terms, 20,000 assistant turns over 121 days).
// The time from opening a page to its health in the tooltip is measured in the VS Code host.
import { createApiClient } from '../src/api';
import { currentRange, fetchSnapshot, minimumRequests, SEARCH_PAGES, VIEW_PAGES } from '../src/signals/snapshot';
import { startSimulator } from '../test/simulator/server';
import { DEFAULT_SIGNALS, LARGE_SIGNALS } from '../test/simulator/signals';
import { API_KEY, PROJECT } from './pollingClients';
import { unlimited } from '../test/support/grants';

export const SIGNALS_TEXT =
  `One snapshot of every reader signal for the last 30 days, at the largest page sizes: feedback/by-page (1 request), ` +
  `pending feedback (pages of 100), assistant turns (pages of 1,000), searches (pages of 100, at most ${SEARCH_PAGES} pages) and views ` +
  `(pages of 250, at most ${VIEW_PAGES} pages). Minimum: one request per page the same rows need. Without depth limits: the minimum to fetch every row.`;

export interface SignalsRun {
  label: string;
  requests: number;
  minimum: number;
  /** The fewest requests for every row of every endpoint (no depth limits). */
  fullMinimum: number;
  rows: { pending: number; turns: number; searches: number; views: number };
}

async function snapshotOn(label: string, options: { pathCount: number; signals: typeof DEFAULT_SIGNALS }): Promise<SignalsRun> {
  const sim = await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 10_000, ...options });
  try {
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY });
    const range = currentRange();
    const snapshot = await fetchSnapshot(api, PROJECT, range, { grant: unlimited });
    const truth = sim.signalsFor(PROJECT, range);
    const rows = {
      pending: truth.feedback.filter((f) => f.status === 'pending').length,
      turns: truth.assistant.length,
      searches: truth.searches.length,
      views: truth.views.views.length,
    };
    return { label, requests: sim.requests.length, minimum: snapshot.minimum, fullMinimum: minimumRequests(rows), rows };
  } finally {
    await sim.close();
  }
}

export async function measureSignals(): Promise<SignalsRun[]> {
  return [
    await snapshotOn('default (3,000 pages, 400 feedback items, 600 terms, 3,000 turns)', { pathCount: 3_000, signals: DEFAULT_SIGNALS }),
    await snapshotOn('large (10,000 pages, 2,000 feedback items, 5,000 terms, 20,000 turns)', { pathCount: 10_000, signals: LARGE_SIGNALS }),
  ];
}
