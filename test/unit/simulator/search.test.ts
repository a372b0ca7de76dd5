// The site's own search in the simulator: its answers conform to the published discovery OpenAPI,
// its index is the simulated site (a term readers click finds its page, a deploy changes what is
// found once it lands), and its refusals are the documented ones: an admin key, a revoked key, a
// forbidden key, another domain, a bad body, past the organisation's 10,000 an hour.
import assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../simulator/server';
import { discoverySpec, type Schema, violations } from '../../support/openapi';

const ASSISTANT_KEY = 'mint_dsc_unit_test_key';
const DOMAIN = 'acme-docs';
const SPEC_PATH = '/v1/search/{domain}';

describe('the site search of the simulator', () => {
  let sim: Simulator;
  let now = Date.parse('2026-11-20T10:00:00Z');
  const spec = discoverySpec();
  const schema = spec.paths[SPEC_PATH]?.post?.responses['200']?.content?.['application/json']?.schema as Schema;
  const bodySchema = spec.paths[SPEC_PATH]?.post?.requestBody?.content['application/json']?.schema as Schema;

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', now: () => now, search: { limitPerHour: 5 } });
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.resetRateLimits();
    sim.clearFaults();
  });

  async function search(body: unknown, { key = ASSISTANT_KEY, domain = DOMAIN } = {}): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
    const response = await fetch(`${sim.url}/discovery/v1/search/${domain}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json(), retryAfter: response.headers.get('Retry-After') };
  }

  it('answers a term readers click with its page among the results, in the published shape', async () => {
    assert.ok(schema && bodySchema, 'the spec documents the search');
    const truth = sim.signalsFor('demo-project', { dateFrom: '2026-08-01', dateTo: '2026-11-21' });
    // A page path without `?`, `#` or `%`, so its URL form reads back as the same path.
    const clicked = truth.searches.find((s) => s.topClickedPage && !/[?#%\s]/.test(s.topClickedPage) && s.ctr > 0.3);
    assert.ok(clicked?.topClickedPage);
    const request = { query: clicked.searchQuery, pageSize: 10 };
    assert.deepEqual(violations(spec, bodySchema, request), [], 'our request is the published body');
    const answer = await search(request);
    assert.equal(answer.status, 200);
    assert.deepEqual(violations(spec, schema, answer.body), []);
    assert.deepEqual(answer.body, sim.search.resultsFor(clicked.searchQuery, 10), 'the ground truth is what the endpoint answers');
    const paths = (answer.body as { path: string }[]).map((r) => new URL(r.path, `https://${DOMAIN}.mintlify.site/`).pathname);
    assert.ok(paths.map(decodeURI).includes(clicked.topClickedPage), `${clicked.topClickedPage} in ${paths.join(', ')}`);
  });

  it('a deploy changes what a search finds once it lands, not before', async () => {
    const term = 'zebra onboarding checklist';
    assert.deepEqual(sim.search.resultsFor(term), [], 'no page has these words');
    sim.search.deploy({ '/guides/zebra-onboarding': 'Zebra onboarding checklist: the zebra onboarding steps.' }, { landsInMs: 60_000 });
    assert.deepEqual((await search({ query: term })).body, [], 'not before it lands');
    now += 60_000;
    const after = (await search({ query: term })).body as { path: string; content: string }[];
    assert.equal(after[0]?.path, 'guides/zebra-onboarding', 'the new page ranks first');
    assert.match(after[0]?.content ?? '', /Zebra onboarding/);
    sim.search.deploy({}, { removed: ['/guides/zebra-onboarding'] });
    assert.deepEqual((await search({ query: term })).body, [], 'a page removed is found no more');
  });

  it('refuses an admin key, a revoked or forbidden assistant key, another domain and a bad body', async () => {
    assert.equal((await search({ query: 'auth' }, { key: 'mint_admin_key' })).status, 401);
    sim.revokeKey('mint_dsc_revoked');
    assert.equal((await search({ query: 'auth' }, { key: 'mint_dsc_revoked' })).status, 401);
    sim.search.forbid('mint_dsc_other_deployment');
    assert.equal((await search({ query: 'auth' }, { key: 'mint_dsc_other_deployment' })).status, 403);
    assert.equal((await search({ query: 'auth' }, { domain: 'acme-docs-preview-branch' })).status, 404, 'only the site itself is indexed');
    for (const bad of [{}, { query: '' }, { query: 'auth', pageSize: 51 }, { query: 'auth', pageSize: 0 }, { query: 'auth', scoreThreshold: 2 }]) {
      const answer = await search(bad);
      assert.equal(answer.status, 400, JSON.stringify(bad));
      assert.ok((answer.body as { details?: unknown[] }).details?.length);
    }
  });

  it('holds the organisation to its hourly limit with a Retry-After, and answers 401/403/429 on demand', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await search({ query: 'auth' })).status, 200);
    const refused = await search({ query: 'auth' });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.retryAfter) > 0);
    sim.resetRateLimits();
    sim.addFault({ fault: { kind: 'status', status: 403 }, times: 1, pathIncludes: '/discovery/' });
    assert.equal((await search({ query: 'auth' })).status, 403);
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 7 }, times: 1, pathIncludes: '/discovery/' });
    const limited = await search({ query: 'auth' });
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, '7');
    assert.equal((await search({ query: 'auth' })).status, 200);
  });
});
