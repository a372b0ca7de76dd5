// Figure 18: requests of the site's own search. Checking the gap inbox's searches readers gave up on
// (N terms), then the same day again, from a second window, and a day later; and one job's before and
// after (its terms checked, the prompt that records the before, the one replay once its change is
// live), from one window and with a second one open. Through the real SearchChecks and ApiClient to
// the real simulator over HTTP, two windows sharing one folder of the shared store on disk, on a
// clock the bench sets. Against the minimum: one request per term per search that must be new (the
// first check of a term in a day, and the replay). Which window replays is the leader's rule
// (src/search/searchReplays.ts, the host test's "one replay"); here the second window reads the after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../src/api';
import { SearchChecks } from '../src/search/searchChecks';
import { withAfter, withBefore } from '../src/search/searchReplay';
import { buildInbox } from '../src/signals/signalsModel';
import type { SignalsSnapshot } from '../src/signals/snapshot';
import { SharedArea } from '../src/sync/sharedArea';
import { CHECK_KEPT_MS, MAX_REPLAY_TERMS } from '../src/sync/searchState';
import { SharedStore } from '../src/sync/sharedStore';
import { LARGE_SIGNALS } from '../test/simulator/signals';
import { startSimulator } from '../test/simulator/server';
import { nodeSyncFs } from '../test/support/nodeSyncFs';

export const SEARCH_REQUESTS_TEXT =
  "Requests of the site's search (POST /discovery/v1/search/{domain} received by the simulator) for checking the gap inbox's searches with no " +
  'click (N terms: the inbox of the default site, of the large site, and of a site where every third term is a gap), then checking them again ' +
  'the same day, from a second window, and a day later; and for one job of 8 of those terms: checking them, the prompt that records the before, ' +
  'and the one replay once its change is live (with a second window open). Against the minimum: one request per term per search that must be new.';

export interface SearchRequestsRun {
  site: string;
  terms: number;
  first: number;
  again: number;
  otherWindow: number;
  nextDay: number;
  /** One job: its terms, the requests of checking them, of the prompt (the before), of the replay, and of the second window. */
  job: { terms: number; check: number; before: number; replay: number; otherWindow: number; beforeUnchecked: number };
}

const quiet = { info: () => undefined, warn: () => undefined };
const DOMAIN = 'acme-docs';

async function run(site: string, options: Parameters<typeof startSimulator>[0]): Promise<SearchRequestsRun> {
  let now = Date.parse('2026-11-20T10:00:00Z');
  const sim = await startSimulator({ today: '2026-11-20', now: () => now, analyticsLimitPerHour: 1_000_000, ...options });
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  try {
    const truth = sim.signalsFor('demo-project', { dateFrom: '2026-10-21', dateTo: '2026-11-20' });
    // The inbox's searches as the Reader Signals view ranks them (only the searches matter to it).
    const inbox = buildInbox({ searches: truth.searches, views: [], byPage: [], pending: [], questions: [] } as unknown as SignalsSnapshot);
    const terms = inbox.searches.map((s) => s.searchQuery);
    const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_bench', getAssistantKey: async () => 'mint_dsc_bench' });
    const window = (id: string) => {
      const store = new SharedStore(nodeSyncFs(dir), id, quiet, () => now);
      return { store, checks: new SearchChecks({ api, area: new SharedArea('searchChecks', store), domain: () => DOMAIN, now: () => now }) };
    };
    const searches = () => sim.requests.filter((r) => r.rawPath.startsWith('/discovery/')).length;
    const counted = async (work: () => Promise<unknown>) => {
      const before = searches();
      await work();
      return searches() - before;
    };
    const a = window('wa');
    const b = window('wb');
    const first = await counted(() => a.checks.check(terms));
    const again = await counted(() => a.checks.check(terms));
    await b.store.refresh();
    const otherWindow = await counted(() => b.checks.check(terms));
    now += CHECK_KEPT_MS;
    const nextDay = await counted(() => a.checks.check(terms));

    // One job: a day later still, so nothing is kept; its terms are checked, the prompt records the before, the change goes live.
    now += CHECK_KEPT_MS;
    const jobTerms = terms.slice(0, MAX_REPLAY_TERMS);
    const check = await counted(() => a.checks.check(jobTerms));
    let replay = withBefore(undefined, { domain: DOMAIN, checks: new Map(), at: now });
    const before = await counted(async () => {
      const run = await a.checks.check(jobTerms);
      replay = withBefore(undefined, { domain: DOMAIN, checks: run.checks, at: now });
    });
    now += 3_600_000;
    sim.search.deploy({ '/guides/answers': jobTerms.join(' ') });
    const replayed = await counted(async () => {
      const run = await a.checks.check(Object.keys(replay.terms), { fresh: true });
      replay = withAfter(replay, run.checks, { commit: 'c', at: now, pages: ['/guides/answers'] }, now);
    });
    await b.store.refresh();
    const seen = await counted(() => b.checks.check(Object.keys(replay.terms)));
    // The same prompt without checking first: its before is searched for it.
    now += CHECK_KEPT_MS;
    const beforeUnchecked = await counted(() => a.checks.check(jobTerms));
    return {
      site,
      terms: terms.length,
      first,
      again,
      otherWindow,
      nextDay,
      job: { terms: jobTerms.length, check, before, replay: replayed, otherWindow: seen, beforeUnchecked },
    };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureSearchRequests(): Promise<SearchRequestsRun[]> {
  return [
    await run('the default site', {}),
    await run('the large site', { pathCount: 10_000, signals: LARGE_SIGNALS }),
    await run('a site where every third term is a gap', { signals: { feedbackItems: 400, assistantTurns: 3_000, searchTerms: 600, searchGapEvery: 3 } }),
  ];
}

export function searchRequestsRows(runs: readonly SearchRequestsRun[]): { figure: string; value: string }[] {
  return runs.flatMap((r) => [
    {
      figure: `${r.site}: checking its gap inbox of ${r.terms} searches (minimum ${r.terms})`,
      value: `${r.first} requests → ours / minimum ${(r.first / Math.max(1, r.terms)).toFixed(2)}×; again the same day ${r.again}, from a second window ${r.otherWindow}, a day later ${r.nextDay}`,
    },
    {
      figure: `${r.site}: one job of ${r.job.terms} terms, checked, asked, replayed (minimum ${2 * r.job.terms})`,
      value: `check ${r.job.check} + before ${r.job.before} + replay ${r.job.replay} = ${r.job.check + r.job.before + r.job.replay} → ours / minimum ${((r.job.check + r.job.before + r.job.replay) / (2 * r.job.terms)).toFixed(2)}×; the second window ${r.job.otherWindow}; asked unchecked, the before costs ${r.job.beforeUnchecked}`,
    },
  ]);
}

export function searchRequestsSection(runs: readonly SearchRequestsRun[] | undefined): string {
  return `## 18. The site's search: checking searches readers gave up on, and a job's before and after

${SEARCH_REQUESTS_TEXT}${runs?.length ? '' : ' Not measured in this run.'}
A term's results are kept a day in the shared state, so a second check, another window or a reload sends nothing;
the prompt that records a job's before reuses the check the writer just made; the replay searches every term once,
fresh. None of it touches the analytics hour: the site's search is its own family (10,000 an hour for the
organisation, its own 15 s deadline, its 429 wait shared). A check of more than 10 requests says the count first.

Reproduce: \`node bench/build.mjs && node out/bench/run.js --search-only\` (no VS Code needed; \`npm run bench\` includes it).
`;
}
