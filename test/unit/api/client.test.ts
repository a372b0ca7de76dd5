// The API layer against the simulator over real HTTP: every error kind, every input check, and
// exactly which requests reached the server.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient, type ApiClient, sendOutcome } from '../../../src/api';
import { startSimulator, type Simulator } from '../../simulator/server';
import { FakeClock, settled } from '../../support/fakeClock';
import { collectGarbage } from '../../support/gc';
import { nextResponseHeaders } from '../../support/httpHeaders';
import { waitFor } from '../../support/waitFor';
import { unlimited } from '../../support/grants';
import { rejectsWith } from '../../support/rejectsWith';

const PROJECT = 'demo-project';
const KEY = 'mint_unit_test_key';

describe('API client against the simulator', () => {
  let sim: Simulator;
  let key: string | undefined;
  let baseUrl: string;
  let api: ApiClient;

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', jobDurationMs: 60_000, agentPostLimitPerHour: 1000, analyticsLimitPerHour: 1000 });
  });
  after(() => sim.close());
  beforeEach(() => {
    key = KEY;
    baseUrl = sim.url;
    sim.clearRequests();
    sim.clearFaults();
    sim.resetRateLimits();
    api = createApiClient({ baseUrl: () => baseUrl, getApiKey: async () => key, timeoutMs: () => 2_000 });
  });

  describe('agent jobs', () => {
    it('creates a job with a POST carrying the prompt and the bearer key', async () => {
      const job = await api.createJob(PROJECT, 'Document the new webhook');
      assert.equal(job.status, 'active');
      assert.equal(sim.requests.length, 1);
      const [request] = sim.requests;
      assert.equal(request?.method, 'POST');
      assert.equal(request?.rawPath, `/v2/agent/${PROJECT}/job`);
      assert.deepEqual(request?.body, { prompt: 'Document the new webhook' });
      assert.equal(request?.authorization, `Bearer ${KEY}`);
      assert.equal(request?.status, 201);
    });

    it('gets a job and sends a follow-up that makes it active again', async () => {
      const created = sim.addJob(PROJECT, { status: 'completed', prLink: 'https://github.com/acme/docs/pull/7' });
      const read = await api.getJob(PROJECT, created.id);
      assert.equal(read.status, 'completed');
      assert.equal(read.prLink, 'https://github.com/acme/docs/pull/7');
      const followed = await api.sendMessage(PROJECT, created.id, 'Also fix the typo');
      assert.equal(followed.status, 'active');
      assert.deepEqual(
        sim.requests.map((r) => `${r.method} ${r.rawPath} ${r.status}`),
        [`GET /v2/agent/${PROJECT}/job/${created.id} 200`, `POST /v2/agent/${PROJECT}/job/${created.id}/message 200`],
      );
      assert.deepEqual(sim.requests[1]?.body, { prompt: 'Also fix the typo' });
    });

    it('sends a 100 KB prompt whole', async () => {
      const job = sim.addJob(PROJECT);
      const prompt = 'x'.repeat(100 * 1024);
      await api.sendMessage(PROJECT, job.id, prompt);
      assert.deepEqual(sim.requests[0]?.body, { prompt });
    });

    for (const id of ['../x', 'a/b', 'a?b', 'a#b', 'a b', 'ü', '%2F', '..x']) {
      it(`keeps the job id ${JSON.stringify(id)} inside its path segment`, async () => {
        await rejectsWith(api.getJob(PROJECT, id), 'notFound');
        assert.equal(sim.requests.length, 1);
        assert.deepEqual(sim.requests[0]?.segments, ['', 'v2', 'agent', PROJECT, 'job', id]);
        assert.deepEqual(sim.requests[0]?.query, {});
      });
    }

    it('finds a job whose id needs encoding', async () => {
      const job = sim.addJob(PROJECT, { id: 'weird/ü?#id' });
      const read = await api.getJob(PROJECT, job.id);
      assert.equal(read.id, 'weird/ü?#id');
    });

    it('keeps a status it does not know instead of rejecting the job', async () => {
      const job = sim.addJob(PROJECT);
      sim.setRawJob(PROJECT, job.id, { id: job.id, status: 'paused' });
      const read = await api.getJob(PROJECT, job.id);
      assert.equal(read.status, 'unknown');
      assert.equal(read.reportedStatus, 'paused');
      assert.equal(read.model, undefined);
    });

    it('accepts a job with only an id and a status', async () => {
      const job = sim.addJob(PROJECT);
      sim.setRawJob(PROJECT, job.id, { id: job.id, status: 'active', prLink: null });
      const read = await api.getJob(PROJECT, job.id);
      assert.equal(read.status, 'active');
      assert.equal(read.prLink, undefined);
    });
  });

  describe('inputs checked before any request', () => {
    const cases: [string, (api: ApiClient) => Promise<unknown>][] = [
      ['an empty prompt', (a) => a.sendMessage(PROJECT, 'job_1', '')],
      ['a whitespace-only prompt', (a) => a.sendMessage(PROJECT, 'job_1', ' \n\t ')],
      ['an empty prompt on create', (a) => a.createJob(PROJECT, '   ')],
      ['an empty project id', (a) => a.getJob('', 'job_1')],
      ['a whitespace project id', (a) => a.getVisitors('  ', {})],
      ['an empty job id', (a) => a.getJob(PROJECT, '')],
      ['the job id "."', (a) => a.getJob(PROJECT, '.')],
      ['the job id ".."', (a) => a.sendMessage(PROJECT, '..', 'hi')],
      ['limit 0', (a) => a.getVisitors(PROJECT, { limit: 0 })],
      ['limit 251', (a) => a.getVisitors(PROJECT, { limit: 251 })],
      ['limit 2.5', (a) => a.getVisitors(PROJECT, { limit: 2.5 })],
      ['limit NaN', (a) => a.getVisitors(PROJECT, { limit: Number.NaN })],
      ['offset -1', (a) => a.getVisitors(PROJECT, { offset: -1 })],
      ['offset 1.5', (a) => a.getVisitors(PROJECT, { offset: 1.5 })],
      ['a date that is not a date', (a) => a.getVisitors(PROJECT, { dateFrom: 'last week' })],
      ['a day that does not exist', (a) => a.getVisitors(PROJECT, { dateTo: '2025-02-30' })],
      ['dateFrom equal to dateTo', (a) => a.getVisitors(PROJECT, { dateFrom: '2025-03-01', dateTo: '2025-03-01' })],
      ['dateFrom after dateTo', (a) => a.getVisitors(PROJECT, { dateFrom: '2025-03-02', dateTo: '2025-03-01' })],
    ];
    for (const [name, call] of cases) {
      it(`refuses ${name} without sending`, async () => {
        const error = await rejectsWith(call(api), 'invalidInput');
        assert.ok(error.message.length > 10);
        assert.equal(sim.requests.length, 0);
      });
    }

    it('sends nothing without a key', async () => {
      key = undefined;
      const error = await rejectsWith(api.getJob(PROJECT, 'job_1'), 'noApiKey');
      assert.match(error.message, /Set API Key/);
      assert.equal(sim.requests.length, 0);
    });

    it('never sends the key to a plain-http host that is not this machine', async () => {
      baseUrl = 'http://example.com';
      const error = await rejectsWith(api.getJob(PROJECT, 'job_1'), 'insecureBaseUrl');
      assert.doesNotMatch(error.message, new RegExp(KEY));
      assert.equal(sim.requests.length, 0);
    });
  });

  describe('server answers become typed errors', () => {
    it('401 for a key without the admin prefix', async () => {
      key = 'not_a_mintlify_key';
      const error = await rejectsWith(api.getJob(PROJECT, 'job_1'), 'unauthorized');
      assert.equal(error.status, 401);
      assert.doesNotMatch(error.message, /not_a_mintlify_key/);
    });

    it('401 for a key of another kind', async () => {
      key = 'mint_dsc_public_key';
      await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'unauthorized');
    });

    it('403 for a read-only key on a POST', async () => {
      const readOnly = await startSimulator({ readOnlyKeys: ['mint_read_only'] });
      try {
        const client = createApiClient({ baseUrl: () => readOnly.url, getApiKey: async () => 'mint_read_only' });
        const job = readOnly.addJob(PROJECT);
        await client.getJob(PROJECT, job.id);
        await rejectsWith(client.sendMessage(PROJECT, job.id, 'hi'), 'forbidden');
      } finally {
        await readOnly.close();
      }
    });

    it('404 for an unknown project carries the server message', async () => {
      const error = await rejectsWith(api.getVisitors('no-such-project', {}, { grant: unlimited }), 'notFound');
      assert.match(error.message, /Project not found/);
    });

    it('429 with Retry-After gives the wait', async () => {
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 42 }, times: 1 });
      const error = await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'rateLimited');
      assert.equal(error.retryAfterMs, 42_000);
      assert.equal(sim.requests.length, 1, 'a 429 is not retried');
    });

    it('429 without Retry-After has no wait', async () => {
      sim.addFault({ fault: { kind: 'rateLimit' }, times: 1 });
      const error = await rejectsWith(api.createJob(PROJECT, 'hi'), 'rateLimited');
      assert.equal(error.retryAfterMs, undefined);
    });

    it('the agent POST limit answers 429 with Retry-After', async () => {
      const limited = await startSimulator({ agentPostLimitPerHour: 2 });
      try {
        const client = createApiClient({ baseUrl: () => limited.url, getApiKey: async () => KEY });
        await client.createJob(PROJECT, 'one');
        await client.createJob(PROJECT, 'two');
        const error = await rejectsWith(client.createJob(PROJECT, 'three'), 'rateLimited');
        assert.ok(error.retryAfterMs !== undefined && error.retryAfterMs > 0);
      } finally {
        await limited.close();
      }
    });

    it('400 carries the server details', async () => {
      sim.addFault({ fault: { kind: 'status', status: 400, body: { error: 'Invalid query', details: [{ message: 'limit too big' }] } }, times: 1 });
      const error = await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'invalidRequest');
      assert.deepEqual(error.details, ['limit too big']);
      assert.match(error.message, /Invalid query/);
    });

    it('500 with an HTML body is a server error, and a POST is never retried', async () => {
      sim.addFault({ fault: { kind: 'status', status: 500, html: true } });
      const job = sim.addJob(PROJECT);
      const error = await rejectsWith(api.sendMessage(PROJECT, job.id, 'hi'), 'serverError');
      assert.equal(error.status, 500);
      assert.equal(sim.requests.length, 1);
    });

    it('502 on a POST is not retried either', async () => {
      sim.addFault({ fault: { kind: 'status', status: 502, html: true } });
      await rejectsWith(api.createJob(PROJECT, 'hi'), 'serverError');
      assert.equal(sim.requests.length, 1);
    });

    it('502 on a GET is reported at once: retrying is the caller’s choice', async () => {
      sim.addFault({ fault: { kind: 'status', status: 502, html: true } });
      const error = await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'serverError');
      assert.equal(error.status, 502);
      assert.equal(sim.requests.length, 1);
    });

    it('a dropped connection is a network error; the POST is sent once', async () => {
      sim.addFault({ fault: { kind: 'drop' } });
      await rejectsWith(api.createJob(PROJECT, 'hi'), 'network');
      assert.equal(sim.requests.length, 1);
    });

    it('a slow server is a timeout when the deadline passes, and not before', async () => {
      const timers = new FakeClock();
      api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timeoutMs: () => 1_234, timers });
      sim.addFault({ fault: { kind: 'latency', ms: 60_000 }, times: 1 });
      let settled = false;
      const call = rejectsWith(api.getJob(PROJECT, sim.addJob(PROJECT).id), 'timeout').finally(() => (settled = true));
      await waitFor('the request to arrive', () => sim.requests.length === 1);
      assert.deepEqual(timers.delays, [1_234], 'one deadline per attempt, of the configured length');
      assert.equal(settled, false, 'still waiting before the deadline');
      timers.fireAll();
      const error = await call;
      assert.equal(error.reached, 'maybe');
    });

    for (const fault of [{ kind: 'stallAfterHeaders' }, { kind: 'trickle', intervalMs: 50 }, { kind: 'noAnswer' }] as const) {
      it(`the deadline ends a server that does ${fault.kind} (the body read too)`, async () => {
        const timers = new FakeClock();
        api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timers });
        sim.addFault({ fault, times: 1 });
        const job = sim.addJob(PROJECT);
        const call = rejectsWith(api.getJob(PROJECT, job.id), 'timeout');
        // Headers (and for a trickle, some bytes) are on their way before the deadline fires.
        await waitFor('the request to arrive', () => sim.requests.length === 1 && (fault.kind === 'noAnswer' || sim.requests[0]?.status === 200));
        timers.fireAll();
        await call;
        assert.equal(timers.pending, 0, 'the deadline is cleared once the attempt ends');
      });
    }

    // ky hands fetch a Request of its own, and that Request is what carries our signal to fetch.
    // Once ky has returned the response nothing holds it, and after a garbage collection the
    // deadline's abort no longer reaches the body (nodejs/node#55428): a stalled body was read for ever.
    it('a body that stalls ends by the deadline even when a garbage collection runs while it is read', async () => {
      const timers = new FakeClock();
      api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timers });
      sim.addFault({ fault: { kind: 'stallAfterHeaders' }, times: 1 });
      const headers = nextResponseHeaders();
      let ended = false;
      const call = rejectsWith(api.getJob(PROJECT, sim.addJob(PROJECT).id), 'timeout').finally(() => (ended = true));
      await headers;
      await settled();
      collectGarbage();
      timers.fireAll();
      await waitFor('the call to end at its deadline', () => ended, 5_000);
      await call;
    });

    it('an error whose body stalls ends by the deadline too, after a garbage collection', async () => {
      const stalling = createServer((_, res) => {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Content-Length': 64 });
        res.write('{"error":"Service');
      });
      await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
      try {
        const timers = new FakeClock();
        api = createApiClient({ baseUrl: () => `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`, getApiKey: async () => KEY, timers });
        const headers = nextResponseHeaders();
        let ended = false;
        const call = rejectsWith(api.getJob(PROJECT, 'job_1'), 'serverError').finally(() => (ended = true));
        await headers;
        await settled();
        collectGarbage();
        timers.fireAll();
        await waitFor('the call to end at its deadline', () => ended, 5_000);
        assert.equal((await call).status, 503);
      } finally {
        stalling.closeAllConnections();
        await new Promise((resolve) => stalling.close(resolve));
      }
    });

    it('a stalled POST is an outcome the caller cannot know', async () => {
      const timers = new FakeClock();
      api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timers });
      const job = sim.addJob(PROJECT, { status: 'completed' });
      sim.addFault({ fault: { kind: 'stallAfterHeaders' }, times: 1, method: 'POST' });
      const call = rejectsWith(api.sendMessage(PROJECT, job.id, 'again'), 'timeout');
      await waitFor('the answer to start', () => sim.requests[0]?.status === 200);
      timers.fireAll();
      assert.equal(sendOutcome(await call), 'unknown');
    });

    it('an answer cut off after the server acted is a network error of unknown outcome', async () => {
      const job = sim.addJob(PROJECT, { status: 'completed' });
      sim.addFault({ fault: { kind: 'answerThenReset' }, times: 1, method: 'POST' });
      const error = await rejectsWith(api.sendMessage(PROJECT, job.id, 'again'), 'network');
      assert.equal(sendOutcome(error), 'unknown');
      assert.equal(sim.peekJob(PROJECT, job.id)?.status, 'active', 'the server took the message');
      assert.equal(sim.requests.length, 1);
    });

    it('a refused connection was not sent; a 4xx was refused; a 5xx is unknown', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      baseUrl = `http://127.0.0.1:${port}`;
      assert.equal(sendOutcome(await rejectsWith(api.createJob(PROJECT, 'hi'), 'network')), 'notSent');
      baseUrl = sim.url;
      key = undefined;
      assert.equal(sendOutcome(await rejectsWith(api.createJob(PROJECT, 'hi'), 'noApiKey')), 'notSent');
      key = KEY;
      sim.addFault({ fault: { kind: 'status', status: 400 }, times: 1 });
      assert.equal(sendOutcome(await rejectsWith(api.createJob(PROJECT, 'hi'), 'invalidRequest')), 'refused');
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 5 }, times: 1 });
      assert.equal(sendOutcome(await rejectsWith(api.createJob(PROJECT, 'hi'), 'rateLimited')), 'refused');
      sim.addFault({ fault: { kind: 'status', status: 504, html: true }, times: 1 });
      assert.equal(sendOutcome(await rejectsWith(api.createJob(PROJECT, 'hi'), 'serverError')), 'unknown');
    });

    it('every request names the extension and VS Code in its User-Agent', async () => {
      const seen: (string | undefined)[] = [];
      const echo = createServer((req, res) => {
        seen.push(req.headers['user-agent']);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'job_1', status: 'active' }));
      });
      await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
      try {
        const ua = 'mintlify-agent-analytics/1.2.3 (VS Code 1.100.0)';
        const client = createApiClient({
          baseUrl: () => `http://127.0.0.1:${(echo.address() as AddressInfo).port}`,
          getApiKey: async () => KEY,
          userAgent: ua,
        });
        await client.getJob(PROJECT, 'job_1');
        await client.createJob(PROJECT, 'hi');
        assert.deepEqual(seen, [ua, ua]);
      } finally {
        echo.close();
      }
    });

    it('a cancelled request is reported as cancelled', async () => {
      sim.addFault({ fault: { kind: 'latency', ms: 2_000 }, times: 1 });
      const controller = new AbortController();
      const call = api.getVisitors(PROJECT, {}, { signal: controller.signal, grant: unlimited });
      controller.abort();
      await rejectsWith(call, 'cancelled');
    });

    it('malformed JSON is an invalid response', async () => {
      sim.addFault({ fault: { kind: 'malformedJson' }, times: 1 });
      const error = await rejectsWith(api.getJob(PROJECT, sim.addJob(PROJECT).id), 'invalidResponse');
      assert.match(error.message, /not valid JSON/);
    });

    it('a job body that breaks the schema names the field', async () => {
      sim.addFault({ fault: { kind: 'schemaBreak' }, times: 1 });
      const error = await rejectsWith(api.getJob(PROJECT, sim.addJob(PROJECT).id), 'invalidResponse');
      assert.match(error.message, /\bid\b/);
    });

    it('a visitors body that breaks the schema names the field', async () => {
      sim.addFault({ fault: { kind: 'schemaBreak' }, times: 1 });
      const error = await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'invalidResponse');
      assert.match(error.message, /visitors|hasMore/);
    });
  });

  describe('redirects', () => {
    it('never follows one: the key cannot be carried to another host', async () => {
      const seenElsewhere: (string | undefined)[] = [];
      const elsewhere = createServer((req, res) => {
        seenElsewhere.push(req.headers.authorization);
        res.end('{}');
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
      const redirecting = createServer((req, res) => res.writeHead(302, { Location: `${target}${req.url}` }).end());
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
      try {
        const client = createApiClient({ baseUrl: () => `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`, getApiKey: async () => KEY });
        const error = await rejectsWith(client.getJob(PROJECT, 'job_1'), 'redirectRefused');
        assert.equal(error.status, 302);
        assert.match(error.message, /redirected/);
        assert.match(error.message, /key was not sent/);
        assert.deepEqual(seenElsewhere, []);
      } finally {
        redirecting.close();
        elsewhere.close();
      }
    });
  });

  describe('the request log', () => {
    it('reports every call, sent or stopped before sending, and never the key', async () => {
      const entries: unknown[] = [];
      const logged = createApiClient({ baseUrl: () => baseUrl, getApiKey: async () => key, onRequest: (e) => entries.push(e) });
      await logged.getVisitors(PROJECT, { limit: 1 }, { grant: unlimited });
      await rejectsWith(logged.getJob(PROJECT, 'missing'), 'notFound');
      key = undefined;
      await rejectsWith(logged.getJob(PROJECT, 'job_1'), 'noApiKey');
      assert.deepEqual(
        entries.map((e) => {
          const { method, path, status, sent } = e as { method: string; path: string; status?: number; sent: boolean };
          return { method, path, status, sent };
        }),
        [
          { method: 'GET', path: `/v1/analytics/${PROJECT}/visitors?limit=1`, status: 200, sent: true },
          { method: 'GET', path: `/v2/agent/${PROJECT}/job/missing`, status: 404, sent: true },
          { method: 'GET', path: `/v2/agent/${PROJECT}/job/job_1`, status: undefined, sent: false },
        ],
      );
      assert.ok(!JSON.stringify(entries, (_k, v: unknown) => (v instanceof Error ? v.message : v)).includes(KEY));
      assert.equal(sim.requests.length, 2);
    });
  });

  describe('visitors', () => {
    it('pages with limit and offset until hasMore is false, matching the data set', async () => {
      const range = { dateFrom: '2026-10-01', dateTo: '2026-10-08' };
      const truth = sim.visitorsFor(PROJECT, range);
      const rows = [];
      let offset = 0;
      for (;;) {
        const page = await api.getVisitors(PROJECT, { ...range, limit: 250, offset }, { grant: unlimited });
        assert.deepEqual(page.totals, truth.totals);
        rows.push(...page.visitors);
        if (!page.hasMore) break;
        offset += 250;
      }
      assert.deepEqual(rows, truth.visitors);
      assert.equal(sim.requests.length, Math.ceil(truth.visitors.length / 250));
      assert.deepEqual(sim.requests[1]?.query, { ...range, limit: '250', offset: '250' });
    });

    it('sends no query parameter it was not given', async () => {
      await api.getVisitors(PROJECT, {}, { grant: unlimited });
      assert.deepEqual(sim.requests[0]?.query, {});
    });

    it('a request cancelled while its reservation is written is not sent and frees its slot (fast clicks through the ranges)', async () => {
      let written!: () => void;
      const ends: boolean[] = [];
      const grant = {
        reserve: () => new Promise<{ end(sent: boolean): void }>((resolve) => (written = () => resolve({ end: (sent: boolean) => ends.push(sent) }))),
      };
      const click = new AbortController();
      const fetching = api.getVisitors(PROJECT, { dateFrom: '2026-10-01', dateTo: '2026-10-08' }, { grant, signal: click.signal });
      await waitFor('the reservation asked for', () => written);
      click.abort(); // the writer picked another range
      written();
      const error = await rejectsWith(fetching, 'cancelled');
      assert.equal(error.reached, 'no');
      assert.deepEqual(ends, [false], 'the reservation is released: never sent');
      assert.equal(sim.requests.length, 0, 'nothing reached the server');
    });

    it('a Retry-After past an hour (milliseconds sent as seconds) is taken as an hour', async () => {
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 3_600_000 }, times: 1, pathIncludes: '/visitors' });
      const error = await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'rateLimited');
      assert.equal(error.retryAfterMs, 3_600_000);
    });
  });
});
