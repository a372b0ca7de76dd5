// The checks of the site's search (src/search/searchChecks.ts) over the simulator and two windows
// sharing one folder: N terms not kept are N requests; a term checked is kept for a day and shared,
// so a second check, another window or a reload sends nothing; a replay (fresh) sends one per term;
// a refusal stops the run and keeps what was checked before it.
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../../src/api';
import { SearchChecks } from '../../../src/search/searchChecks';
import { SharedArea } from '../../../src/sync/sharedArea';
import { CHECK_KEPT_MS, CONTENT_HITS, MAX_HIT_CONTENT } from '../../../src/sync/searchState';
import { SharedStore } from '../../../src/sync/sharedStore';
import { startSimulator, type Simulator } from '../../simulator/server';
import { memoryFs } from '../../support/memorySyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const DOMAIN = 'acme-docs';
const TERMS = ['auth token', 'deploy preview', 'rate limit sdk', 'zebra unicorn'];

describe('checks of the site search, kept a day and shared by every window', () => {
  let sim: Simulator;
  let api: ApiClient;
  let now = Date.parse('2026-11-20T10:00:00Z');
  const searches = () => sim.requests.filter((r) => r.rawPath.startsWith('/discovery/')).length;

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', now: () => now });
    api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_admin', getAssistantKey: async () => 'mint_dsc_key' });
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
  });

  function window(files: ReturnType<typeof memoryFs>, id: string) {
    const store = new SharedStore(files, id, quiet, () => now);
    const checks = new SearchChecks({ api, area: new SharedArea('searchChecks', store), domain: () => DOMAIN, now: () => now });
    return { store, checks };
  }

  it('checks N terms with N requests, then reuses them for a day in this window and in another, and searches again after it', async () => {
    const files = memoryFs();
    const first = window(files, 'wa');
    const run = await first.checks.check(TERMS);
    assert.equal(run.requests, TERMS.length, 'one request per term');
    assert.equal(searches(), TERMS.length);
    assert.deepEqual([...run.checks.keys()], TERMS, 'in the order asked');
    for (const term of TERMS) {
      const truth = sim.search.resultsFor(term, 10);
      const kept = run.checks.get(term);
      assert.deepEqual(
        kept?.hits.map((h) => h.p),
        truth.map((r) => new URL(r.path, `https://${DOMAIN}.mintlify.site/`).pathname).map(decodeURI),
        `${term}: each result as a site path, whether the API named it by path or by URL`,
      );
      kept?.hits.forEach((hit, i) => assert.equal(hit.c !== undefined, i < CONTENT_HITS && truth[i].content.length > 0));
      assert.ok(kept?.hits.every((h) => (h.c?.length ?? 0) <= MAX_HIT_CONTENT));
    }
    assert.deepEqual(run.checks.get('zebra unicorn')?.hits, [], 'a term no page has: nothing');

    sim.clearRequests();
    assert.equal(first.checks.cost(TERMS), 0);
    assert.equal((await first.checks.check(TERMS)).requests, 0, 'kept: no request');
    const second = window(files, 'wb');
    await second.store.refresh();
    const reused = await second.checks.check(TERMS.slice(0, 2));
    assert.equal(reused.requests, 0, 'another window reuses them');
    assert.deepEqual(reused.checks.get(TERMS[0]), run.checks.get(TERMS[0]));
    assert.equal(searches(), 0);

    now += CHECK_KEPT_MS;
    assert.equal(first.checks.kept(TERMS[0]), undefined, 'a day old: not kept any more');
    assert.equal((await first.checks.check(TERMS.slice(0, 1))).requests, 1);
  });

  it('a fresh check (a replay, Check Again) sends one request per term even when they are kept', async () => {
    const { checks } = window(memoryFs(), 'wa');
    await checks.check(TERMS);
    sim.clearRequests();
    sim.search.deploy({ '/guides/zebra-unicorn': 'Zebra unicorn: the zebra unicorn guide.' });
    const fresh = await checks.check(TERMS, { fresh: true });
    assert.equal(fresh.requests, TERMS.length);
    assert.equal(searches(), TERMS.length);
    assert.equal(fresh.checks.get('zebra unicorn')?.hits[0]?.p, '/guides/zebra-unicorn', 'what the deploy changed');
    assert.equal(checks.kept('zebra unicorn')?.hits[0]?.p, '/guides/zebra-unicorn', 'and kept for the others');
  });

  it('stops at a refusal (a 401 would answer every term the same) and keeps what it checked before', async () => {
    const { checks } = window(memoryFs(), 'wa');
    sim.addFault({ fault: { kind: 'status', status: 401 }, pathIncludes: '/discovery/' });
    const refused = await checks.check(['one term', 'two terms', 'three terms', 'four terms', 'five terms', 'six terms'], { fresh: true });
    assert.ok(refused.error);
    assert.equal(refused.checks.size, 0);
    assert.ok(refused.requests <= 4, `at most the searches already in flight: ${refused.requests}`);
    sim.clearFaults();
    const kept = await checks.check(['one term']);
    assert.equal(kept.requests, 1);
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 9 }, pathIncludes: '/discovery/' });
    const limited = await checks.check(['one term', 'seven terms'], { fresh: false });
    assert.equal(limited.checks.get('one term')?.at, kept.checks.get('one term')?.at, 'the kept one still answers');
    assert.ok(limited.error);
  });

  it('without a site domain nothing is sent', async () => {
    const store = new SharedStore(memoryFs(), 'wa', quiet, () => now);
    const checks = new SearchChecks({ api, area: new SharedArea('searchChecks', store), domain: () => undefined, now: () => now });
    const run = await checks.check(['auth']);
    assert.ok(run.error);
    assert.equal(run.requests, 0);
    assert.equal(searches(), 0);
  });
});
