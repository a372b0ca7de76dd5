// An operation the platform withdrew (an endpoint added and removed within a month happens): a 410,
// or a 404 that is not the platform's own error answer, is told apart from a missing job; the
// endpoint is then not asked again at that API address, and the menus stop offering its actions.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApiClient, type ApiClient, type EndpointName, sendOutcome } from '../../../src/api';
import { startSimulator, type Simulator } from '../../simulator/server';
import { unlimited } from '../../support/grants';
import { rejectsWith } from '../../support/rejectsWith';

const PROJECT = 'demo-project';

describe('an operation the platform withdrew (API client)', () => {
  let sim: Simulator;
  let api: ApiClient;
  let baseUrl: string;
  let told: EndpointName[];

  before(async () => (sim = await startSimulator({ today: '2026-11-20', jobDurationMs: 60_000 })));
  after(() => sim.close());
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
    told = [];
    baseUrl = sim.url;
    api = createApiClient({
      baseUrl: () => baseUrl,
      getApiKey: async () => 'mint_unit_withdrawn',
      timeoutMs: () => 2_000,
      onWithdrawn: (name) => told.push(name),
    });
  });

  it('a missing job is a 404 with the platform’s own error answer: not found, and the next read is sent', async () => {
    await rejectsWith(api.getJob(PROJECT, 'job_missing'), 'notFound');
    await rejectsWith(api.getJob(PROJECT, 'job_missing'), 'notFound');
    assert.equal(sim.requests.length, 2);
    assert.deepEqual(told, []);
  });

  it('a 410 is withdrawn: said once, and that endpoint is not asked again; the others still are', async () => {
    const job = sim.addJob(PROJECT, { status: 'completed', prLink: null });
    sim.addFault({ fault: { kind: 'status', status: 410 }, pathIncludes: '/message' });
    const gone = await rejectsWith(api.sendMessage(PROJECT, job.id, 'Retitle the page'), 'withdrawn');
    assert.equal(gone.status, 410);
    assert.equal(sendOutcome(gone), 'refused', 'the platform did nothing with it');
    const again = await rejectsWith(api.sendMessage(PROJECT, job.id, 'Retitle the page'), 'withdrawn');
    assert.equal(again.reached, 'no');
    assert.equal(sim.requests.filter((r) => r.rawPath.endsWith('/message')).length, 1, 'asked once, never again');
    assert.deepEqual(told, ['sendMessage']);
    assert.equal((await api.getJob(PROJECT, job.id)).id, job.id, 'reading the job still goes');
  });

  it('a 404 that is not the platform’s error answer (a router’s page) is withdrawn, not a missing job', async () => {
    sim.addFault({ fault: { kind: 'status', status: 404, html: true }, pathIncludes: '/visitors', times: 1 });
    await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'withdrawn');
    await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'withdrawn');
    assert.equal(sim.requests.length, 1);
    assert.deepEqual(told, ['getVisitors']);
  });

  it('another API address starts afresh: what one withdrew, another may offer', async () => {
    sim.addFault({ fault: { kind: 'status', status: 410 }, pathIncludes: '/visitors', times: 1 });
    await rejectsWith(api.getVisitors(PROJECT, {}, { grant: unlimited }), 'withdrawn');
    const other = await startSimulator({ today: '2026-11-20' });
    try {
      baseUrl = other.url;
      const page = await api.getVisitors(PROJECT, {}, { grant: unlimited });
      assert.ok(page.visitors.length > 0);
      assert.equal(other.requests.length, 1);
    } finally {
      await other.close();
    }
  });

  it('the job actions’ menus stop offering an operation once withdrawn (package.json)', () => {
    const manifest = JSON.parse(readFileSync(join(resolve(__dirname, '..', '..', '..', '..'), 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    const needs: Record<string, EndpointName> = {
      'mintlifyAgent.startJob': 'createJob',
      'mintlifyAgent.trackJob': 'getJob',
      'mintlifyAgent.sendFollowUp': 'sendMessage',
      'mintlifyAgent.refreshJob': 'getJob',
      'mintlifyAgent.refreshJobs': 'getJob',
    };
    for (const [command, endpoint] of Object.entries(needs)) {
      const entries = Object.values(manifest.contributes.menus).flatMap((menu) => menu.filter((m) => m.command === command));
      assert.ok(entries.length > 0, command);
      // `false`: never offered there anyway.
      for (const entry of entries.filter((m) => m.when !== 'false'))
        assert.match(entry.when ?? '', new RegExp(`!mintlifyAgent\\.withdrawn\\.${endpoint}\\b`), `${command} in a menu`);
      assert.ok(
        manifest.contributes.menus.commandPalette.some((m) => m.command === command),
        `${command}: the palette says when too`,
      );
    }
  });
});
