// The site's own search through the one client, against the simulator over real HTTP: the request's
// shape (the published body, the assistant key and never the admin key), what is refused before
// sending, each refusal's kind, the family's own deadline, and that no grant of the analytics hour is
// needed or spent.
import assert from 'node:assert/strict';
import { type ApiClient, createApiClient, endpointOf, ENDPOINTS, FAMILIES, type RequestLogEntry } from '../../../src/api';
import { familyOf } from '../../../src/hour/ledger';
import { startSimulator, type Simulator } from '../../simulator/server';
import { FakeClock } from '../../support/fakeClock';
import { rejectsWith } from '../../support/rejectsWith';

const ADMIN_KEY = 'mint_unit_test_key';
const ASSISTANT_KEY = 'mint_dsc_unit_test_key';
const DOMAIN = 'acme-docs';

describe('the site search through the client', () => {
  let sim: Simulator;
  let api: ApiClient;
  let assistantKey: string | undefined;
  let log: RequestLogEntry[];

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20' });
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
    sim.resetRateLimits();
    assistantKey = ASSISTANT_KEY;
    log = [];
    api = createApiClient({
      baseUrl: () => sim.url,
      getApiKey: async () => ADMIN_KEY,
      getAssistantKey: async () => assistantKey,
      timeoutMs: () => 5_000,
      onRequest: (entry) => log.push(entry),
    });
  });

  it('POSTs { query, pageSize } to /discovery/v1/search/{domain} with the assistant key, and reads the results', async () => {
    const results = await api.searchSite(DOMAIN, { query: 'auth token', pageSize: 10 });
    assert.deepEqual(results, sim.search.resultsFor('auth token', 10));
    const [request] = sim.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.rawPath, `/discovery/v1/search/${DOMAIN}`);
    assert.deepEqual(request?.body, { query: 'auth token', pageSize: 10 });
    assert.equal(request?.authorization, `Bearer ${ASSISTANT_KEY}`);
    assert.ok(
      sim.requests.every((r) => !r.authorization?.includes(ADMIN_KEY)),
      'the admin key never goes to the search',
    );
  });

  it('needs no grant of the analytics hour: search is its own family, never counted in the ledger', async () => {
    // No `grant` in the call options: an analytics request would be refused unsent (notGranted).
    await api.searchSite(DOMAIN, { query: 'deploy' });
    assert.equal(sim.requests.length, 1);
    assert.equal(familyOf(`/discovery/v1/search/${DOMAIN}`), 'search');
    assert.equal(endpointOf('POST', `/discovery/v1/search/${DOMAIN}`), ENDPOINTS.searchSite);
    assert.equal(ENDPOINTS.searchSite.counted, false);
    assert.equal(FAMILIES.search.limit, 10_000);
    assert.equal(FAMILIES.search.perMs, 3_600_000);
  });

  it('refuses before sending: no assistant key, a domain that is not one segment, an empty or overlong term, a page size over 50', async () => {
    assistantKey = undefined;
    const missing = await rejectsWith(api.searchSite(DOMAIN, { query: 'auth' }), 'noApiKey');
    assert.match(missing.message, /assistant API key/);
    assert.equal(log.at(-1)?.sent, false);
    assistantKey = ASSISTANT_KEY;
    for (const domain of ['', '..', 'a/b', 'a b']) await rejectsWith(api.searchSite(domain, { query: 'auth' }), 'invalidInput');
    await rejectsWith(api.searchSite(DOMAIN, { query: '  ' }), 'invalidInput');
    await rejectsWith(api.searchSite(DOMAIN, { query: 'x'.repeat(501) }), 'invalidInput');
    await rejectsWith(api.searchSite(DOMAIN, { query: 'auth', pageSize: 51 }), 'invalidInput');
    assert.equal(sim.requests.length, 0, 'nothing reached the server');
  });

  it('words each refusal by its kind: a wrong or revoked key 401, a forbidden one 403, another site 404, the limit 429 with its wait', async () => {
    sim.revokeKey(ASSISTANT_KEY);
    await rejectsWith(api.searchSite(DOMAIN, { query: 'auth' }), 'unauthorized');
    assistantKey = 'mint_dsc_other';
    sim.search.forbid('mint_dsc_other');
    await rejectsWith(api.searchSite(DOMAIN, { query: 'auth' }), 'forbidden');
    assistantKey = 'mint_dsc_fine';
    await rejectsWith(api.searchSite('someone-else', { query: 'auth' }), 'notFound');
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 30 }, times: 1, pathIncludes: '/discovery/' });
    const limited = await rejectsWith(api.searchSite(DOMAIN, { query: 'auth' }), 'rateLimited');
    assert.equal(limited.retryAfterMs, 30_000);
  });

  it("ends by the search family's own deadline, shorter than the setting's", async () => {
    const clock = new FakeClock();
    const slow = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => ADMIN_KEY, getAssistantKey: async () => ASSISTANT_KEY, timers: clock });
    sim.addFault({ fault: { kind: 'noAnswer' }, times: 1, pathIncludes: '/discovery/' });
    const pending = slow.searchSite(DOMAIN, { query: 'auth' });
    const failed = rejectsWith(pending, 'timeout');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(clock.delays, [FAMILIES.search.deadlineMs]);
    assert.ok((FAMILIES.search.deadlineMs ?? Infinity) < 30_000);
    await clock.fireNext();
    await failed;
  });

  it('a 429 another window saw holds the search back unsent, and only the search', async () => {
    const held = createApiClient({
      baseUrl: () => sim.url,
      getApiKey: async () => ADMIN_KEY,
      getAssistantKey: async () => ASSISTANT_KEY,
      familyWaitMs: (family) => (family === 'search' ? 42_000 : 0),
    });
    const refused = await rejectsWith(held.searchSite(DOMAIN, { query: 'auth' }), 'rateLimited');
    assert.equal(refused.retryAfterMs, 42_000);
    assert.equal(sim.requests.length, 0);
    await held.createPreview('demo-project', 'a-branch');
    assert.equal(sim.requests.length, 1, 'the other families are not held');
  });
});
