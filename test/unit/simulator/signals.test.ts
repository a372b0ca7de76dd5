// The reader-signals endpoints of the simulator against the published analytics OpenAPI: every
// 200 and 400 body conforms to its schema, the limits are the documented ones, each paging style
// (none, opaque cursor, ULID cursor, offset) walks the whole ground truth, and the hostile reader
// text is there to be found.
import assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../simulator/server';
import { CODE_FEEDBACK, HOSTILE_PAGE, HOSTILE_TEXTS } from '../../simulator/signals';
import { analyticsSpec, violations, type OpenApiDocument } from '../../support/openapi';

const PROJECT = 'demo-project';
const KEY = 'mint_unit_test_key';
const RANGE = { dateFrom: '2026-10-01', dateTo: '2026-11-21' };

const ENDPOINTS = [
  { path: 'feedback/by-page', spec: '/v1/analytics/{projectId}/feedback/by-page' },
  { path: 'feedback', spec: '/v1/analytics/{projectId}/feedback' },
  { path: 'assistant', spec: '/v1/analytics/{projectId}/assistant' },
  { path: 'searches', spec: '/v1/analytics/{projectId}/searches' },
  { path: 'views', spec: '/v1/analytics/{projectId}/views' },
] as const;

describe('reader signals endpoints of the simulator', () => {
  let sim: Simulator;
  let spec: OpenApiDocument;

  before(async () => {
    spec = analyticsSpec();
    sim = await startSimulator({ today: '2026-11-20', analyticsLimitPerHour: 100_000 });
  });
  after(() => sim.close());

  async function get(path: string, query: Record<string, string | number> = {}): Promise<{ status: number; body: unknown }> {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const response = await fetch(`${sim.url}/v1/analytics/${PROJECT}/${path}${search ? `?${search}` : ''}`, { headers: { Authorization: `Bearer ${KEY}` } });
    return { status: response.status, body: await response.json() };
  }

  function conforms(specPath: string, status: number, body: unknown): void {
    const schema = spec.paths[specPath]?.get?.responses[String(status)]?.content?.['application/json']?.schema;
    assert.ok(schema, `the spec documents ${status} for ${specPath}`);
    assert.deepEqual(violations(spec, schema, body), []);
  }

  describe('contract with the published OpenAPI', () => {
    for (const endpoint of ENDPOINTS) {
      it(`${endpoint.path}: a 200 conforms, the documented maximum limit is accepted and one more is a conforming 400`, async () => {
        const limit = spec.paths[endpoint.spec]?.get?.parameters.find((p) => p.name === 'limit');
        const max = limit?.schema.maximum;
        assert.ok(max, 'the spec gives a maximum limit');
        const ok = await get(endpoint.path, { ...RANGE, limit: max });
        assert.equal(ok.status, 200);
        conforms(endpoint.spec, 200, ok.body);
        const tooMany = await get(endpoint.path, { ...RANGE, limit: max + 1 });
        assert.equal(tooMany.status, 400);
        conforms(endpoint.spec, 400, tooMany.body);
      });
    }

    it('assistant/threads/{id}: a thread conforms; a non-ULID is 400 and an unknown one 404, both conforming', async () => {
      const specPath = '/v1/analytics/{projectId}/assistant/threads/{threadId}';
      const id = sim.signalsFor(PROJECT, RANGE).assistant[3]?.id ?? '';
      const thread = await get(`assistant/threads/${id}`);
      assert.equal(thread.status, 200);
      conforms(specPath, 200, thread.body);
      assert.deepEqual(thread.body, sim.assistantThreadFor(id));
      const bad = await get('assistant/threads/not-a-ulid');
      assert.equal(bad.status, 400);
      conforms(specPath, 400, bad.body);
      const missing = await get('assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV');
      assert.equal(missing.status, 404);
      conforms(specPath, 404, missing.body);
    });

    it('rejects an unknown source, an unknown status and a cursor it did not make, with conforming 400s', async () => {
      for (const [path, query] of [
        ['feedback', { source: 'email' }],
        ['feedback/by-page', { status: 'pending,open' }],
        ['feedback', { cursor: 'bm90LWEtY3Vyc29y' }],
        ['searches', { cursor: 'zzz' }],
        ['assistant', { cursor: 'o:100' }],
      ] as const) {
        const answer = await get(path, query);
        assert.equal(answer.status, 400, `${path} ${JSON.stringify(query)}`);
        conforms('/v1/analytics/{projectId}/feedback', 400, answer.body);
      }
    });
  });

  describe('paging walks the whole ground truth', () => {
    it('feedback/by-page has no paging: at most `limit` pages, hasMore when there are more', async () => {
      const truth = sim.signalsFor(PROJECT, RANGE).byPage;
      assert.ok(truth.length > 100, 'more pages have feedback than one answer can hold');
      const answer = (await get('feedback/by-page', { ...RANGE, limit: 100 })).body as { feedback: unknown[]; hasMore: boolean };
      assert.deepEqual(answer.feedback, truth.slice(0, 100));
      assert.equal(answer.hasMore, true);
      const small = (await get('feedback/by-page', { ...RANGE })).body as { feedback: unknown[] };
      assert.equal(small.feedback.length, 10, 'the default limit is 10');
    });

    it('feedback: cursor pages of 100 with a status filter', async () => {
      const truth = sim.signalsFor(PROJECT, RANGE).feedback.filter((f) => f.status === 'pending');
      const seen: unknown[] = [];
      let cursor: string | null = null;
      let requests = 0;
      do {
        const page = (await get('feedback', { ...RANGE, status: 'pending', limit: 100, ...(cursor && { cursor }) })).body as {
          feedback: unknown[];
          nextCursor: string | null;
          hasMore: boolean;
        };
        requests++;
        seen.push(...page.feedback);
        assert.equal(page.hasMore, page.nextCursor !== null);
        cursor = page.nextCursor;
      } while (cursor);
      assert.deepEqual(seen, truth);
      assert.equal(requests, Math.ceil(truth.length / 100));
    });

    it('assistant: ULID cursor pages of up to 1000, newest first', async () => {
      const truth = sim.signalsFor(PROJECT, RANGE).assistant;
      const seen: { id: string }[] = [];
      let cursor: string | null = null;
      do {
        const page = (await get('assistant', { ...RANGE, limit: 1000, ...(cursor && { cursor }) })).body as {
          conversations: { id: string }[];
          nextCursor: string | null;
        };
        seen.push(...page.conversations);
        cursor = page.nextCursor;
      } while (cursor);
      assert.deepEqual(seen, truth);
      assert.ok(truth.length > 1000, 'more than one page');
      assert.deepEqual(
        [...seen.map((t) => t.id)].sort().reverse(),
        seen.map((t) => t.id),
      );
    });

    it('searches: cursor pages of 100, hits descending, totalSearches the sum of all hits', async () => {
      const truth = sim.signalsFor(PROJECT, RANGE);
      const seen: { hits: number }[] = [];
      let cursor: string | null = null;
      do {
        const page = (await get('searches', { ...RANGE, limit: 100, ...(cursor && { cursor }) })).body as {
          searches: { hits: number }[];
          totalSearches: number;
          nextCursor: string | null;
        };
        assert.equal(page.totalSearches, truth.totalSearches);
        seen.push(...page.searches);
        cursor = page.nextCursor;
      } while (cursor);
      assert.deepEqual(seen, truth.searches);
      assert.equal(
        truth.totalSearches,
        seen.reduce((sum, row) => sum + row.hits, 0),
      );
    });

    it('views: offset pages of 250 with the same shape as visitors, never fewer events than visitors', async () => {
      const truth = sim.signalsFor(PROJECT, RANGE).views;
      const visitors = new Map(sim.visitorsFor(PROJECT, RANGE).visitors.map((row) => [row.path, row]));
      const first = (await get('views', { ...RANGE, limit: 250, offset: 0 })).body as {
        totals: unknown;
        views: { path: string; total: number; human: number; ai: number }[];
        hasMore: boolean;
      };
      assert.deepEqual(first.totals, truth.totals);
      assert.deepEqual(first.views, truth.views.slice(0, 250));
      assert.equal(first.hasMore, truth.views.length > 250);
      for (const row of first.views) {
        assert.equal(row.total, row.human + row.ai);
        assert.ok(row.total >= (visitors.get(row.path)?.total ?? 0), row.path);
      }
    });
  });

  describe('ground truth the tests build on', () => {
    it('the same seed gives the same data', async () => {
      const other = await startSimulator({ today: '2026-11-20' });
      try {
        assert.deepEqual(other.signalsFor(PROJECT, RANGE), sim.signalsFor(PROJECT, RANGE));
      } finally {
        await other.close();
      }
    });

    it('carries the hostile reader text on /quickstart, newest first, including a 50 KB comment', () => {
      const truth = sim.signalsFor(PROJECT, RANGE);
      const comments = truth.feedback.filter((f) => f.path === HOSTILE_PAGE).map((f) => f.comment);
      assert.deepEqual(comments.slice(0, 5), [HOSTILE_TEXTS.injection, HOSTILE_TEXTS.markup, HOSTILE_TEXTS.rtl, HOSTILE_TEXTS.formula, HOSTILE_TEXTS.huge]);
      assert.equal(HOSTILE_TEXTS.huge.length, 50 * 1024);
      assert.ok(truth.assistant.some((t) => t.query.includes(HOSTILE_TEXTS.injection) && t.resolutionStatus === 'unanswered'));
      assert.ok(
        truth.searches.some((s) => s.topClickedPage === null && s.hits > 20),
        'searched often, never clicked',
      );
      assert.ok(
        truth.searches.some((s) => s.topClickedPage === HOSTILE_PAGE && s.ctr < 0.2),
        'a low-CTR term whose top page is /quickstart',
      );
    });

    it('the large site has 10,000 pages, 2,000 feedback items, 5,000 search terms and 20,000 assistant turns', async () => {
      const large = await startSimulator({
        today: '2026-11-20',
        pathCount: 10_000,
        signals: { feedbackItems: 2_000, assistantTurns: 20_000, searchTerms: 5_000 },
      });
      try {
        const all = large.signalsFor(PROJECT, {});
        assert.equal(
          all.feedback.length,
          2_000 + Object.keys(HOSTILE_TEXTS).length + Object.values(CODE_FEEDBACK).reduce((n, block) => n + block.comments.length, 0),
        );
        assert.equal(all.assistant.length, 20_001);
        assert.equal(all.searches.length, 5_000);
        assert.ok(all.views.views.length > 9_000);
      } finally {
        await large.close();
      }
    });
  });
});
