// What the reader-signals unit tests share (evidencePrompt, signalsModel, snapshot): the project and
// range they ask for, a client of the simulator, and the snapshot it serves over real HTTP.
import { createApiClient, type ApiClient } from '../../../src/api';
import { fetchSnapshot, type SignalsSnapshot } from '../../../src/signals/snapshot';
import { startSimulator, type Simulator } from '../../simulator/server';
import { unlimited } from '../../support/grants';

export const PROJECT = 'demo-project';
export const RANGE = { dateFrom: '2026-10-22', dateTo: '2026-11-21' };

export function client(sim: Simulator): ApiClient {
  return createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_unit_test_key', timeoutMs: () => 10_000 });
}

/** A simulator with no practical hour limit, and the whole snapshot fetched from it once. */
export async function serveSignals(): Promise<{ sim: Simulator; snapshot: SignalsSnapshot }> {
  const sim = await startSimulator({ today: '2026-11-20', analyticsLimitPerHour: 10_000 });
  return { sim, snapshot: await fetchSnapshot(client(sim), PROJECT, RANGE, { grant: unlimited }) };
}
