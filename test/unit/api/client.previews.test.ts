// The External API's preview deployment and its status, through the one client against the
// simulator over real HTTP: the request's shape, the status moving on, and each refusal's kind.
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient, FAMILIES } from '../../../src/api';
import { familyOf } from '../../../src/hour/ledger';
import { startSimulator, type Simulator } from '../../simulator/server';
import { rejectsWith } from '../../support/rejectsWith';

const PROJECT = 'demo-project';
const KEY = 'mint_unit_test_key';

describe('preview deployments against the simulator', () => {
  let sim: Simulator;
  let api: ApiClient;
  let now = Date.parse('2026-11-20T10:00:00Z');

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', now: () => now, previews: { queuedMs: 1_000, buildMs: 3_000 } });
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
    sim.resetRateLimits();
    sim.previews.plan = true;
    api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY, timeoutMs: () => 2_000 });
  });

  it('deploys a branch with one POST of { branch } and follows its status to success', async () => {
    sim.previews.setCommit('mintlify/agent-abc', 'a'.repeat(40));
    const deployment = await api.createPreview(PROJECT, 'mintlify/agent-abc');
    assert.match(deployment.statusId, /^st_/);
    assert.ok(deployment.previewUrl?.startsWith(sim.previews.siteUrl), deployment.previewUrl ?? '');
    const [post] = sim.requests;
    assert.equal(post?.method, 'POST');
    assert.equal(post?.rawPath, `/v1/project/preview/${PROJECT}`);
    assert.deepEqual(post?.body, { branch: 'mintlify/agent-abc' });
    assert.equal(post?.status, 202);

    const seen: string[] = [];
    for (const step of [0, 1_500, 3_000]) {
      now += step;
      seen.push((await api.getUpdateStatus(deployment.statusId)).status);
    }
    assert.deepEqual(seen, ['queued', 'in_progress', 'success']);
    const done = await api.getUpdateStatus(deployment.statusId);
    assert.equal(done.commit?.sha, 'a'.repeat(40));
    assert.equal(done.commit?.ref, 'mintlify/agent-abc');
    assert.ok(done.screenshotLight && done.screenshotDark);
    assert.equal(sim.requests.at(-1)?.rawPath, `/v1/project/update-status/${deployment.statusId}`);
  });

  it('a failed build answers failure with its summary and logs', async () => {
    sim.previews.setOutcome('broken', { status: 'failure', summary: 'It broke', logs: ['line one', 'error: line two'] });
    const { statusId } = await api.createPreview(PROJECT, 'broken');
    now += 10_000;
    const status = await api.getUpdateStatus(statusId);
    assert.equal(status.status, 'failure');
    assert.equal(status.summary, 'It broke');
    assert.deepEqual(status.logs, ['line one', 'error: line two']);
  });

  it('a plan without previews is a 403, a sixth deployment in a minute a 429 with the wait, a branch the platform cannot see a 400', async () => {
    sim.previews.plan = false;
    const forbidden = await rejectsWith(api.createPreview(PROJECT, 'x'), 'forbidden');
    assert.match(forbidden.serverMessage ?? '', /not available on your current plan/);
    sim.previews.plan = true;
    for (let i = 0; i < FAMILIES.preview.limit; i++) await api.createPreview(PROJECT, `b${i}`);
    const limited = await rejectsWith(api.createPreview(PROJECT, 'b5'), 'rateLimited');
    assert.ok((limited.retryAfterMs ?? 0) > 0 && (limited.retryAfterMs ?? 0) <= 60_000, String(limited.retryAfterMs));
    sim.resetRateLimits();
    sim.previews.hideBranch('elsewhere');
    const unseen = await rejectsWith(api.createPreview(PROJECT, 'elsewhere'), 'invalidRequest');
    assert.match(unseen.serverMessage ?? '', /not found in the repository connected/);
  });

  it('an empty branch is refused before anything is sent; an unknown status is a 404', async () => {
    await rejectsWith(api.createPreview(PROJECT, '  '), 'invalidInput');
    assert.equal(sim.requests.length, 0);
    await rejectsWith(api.getUpdateStatus('st_nothing'), 'notFound');
  });

  it('the preview paths are their own family, with its own limit and a deadline shorter than the default', () => {
    assert.equal(familyOf(`/v1/project/preview/${PROJECT}`), 'preview');
    assert.equal(familyOf('/v1/project/update-status/st_1'), 'preview');
    assert.equal(FAMILIES.preview.limit, 5);
    assert.equal(FAMILIES.preview.perMs, 60_000);
    assert.ok((FAMILIES.preview.deadlineMs ?? Infinity) < 30_000);
  });

  it('the preview site serves each page on loopback, and a screenshot', async () => {
    const { previewUrl } = await api.createPreview(PROJECT, 'site');
    const page = await fetch(`${previewUrl}/quickstart`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<h1>Quickstart<\/h1>/);
    assert.equal((await fetch(`${previewUrl}/_screenshots/dark.png`)).headers.get('content-type'), 'image/png');
    assert.ok(sim.previews.siteRequests.every((r) => r.authorization === undefined));
  });
});
