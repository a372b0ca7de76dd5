// The contract tier: the flows a person drives in the UI tier, run in the real VS Code host against
// the platform's published OpenAPI files served by Prism (publishedApi.ts), a mock we did not
// write. Each flow must end, and every request it sends must be one the spec accepts: Prism answers
// a request it rejects with an error and names the violation, and the test lists them.
//
// The spec's examples are not data: every job is `"id": "string"` and always active, every list
// says there is more (`nextCursor` never null, `hasMore` true, the same row at every offset). So
// these tests assert that flows end and what they send, never figures. What they send is exact: the
// examples bring the same rows at every page, so the paging rule (stop on a cursor already sent, on
// a page with no row not seen) ends each list at its second page, long before the depth caps.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { freshAnalyticsHour, KEY, leaveWindowClean, PROJECT, ScriptedUser, seam, waitFor } from '../integration/support';
import { startPublishedApi, type Exchange, type PublishedApi } from './publishedApi';

/** How long one flow may take; ends are awaited on the command or a condition, never slept on. */
const FLOW_MS = 60_000;

describe('the flows against the published OpenAPI (Prism)', function () {
  this.timeout(3 * FLOW_MS);
  let s: TestSeam;
  let api: PublishedApi;
  const log: string[] = [];

  before(async () => {
    s = await seam();
    api = await startPublishedApi((line) => log.push(line));
    await vscode.workspace.getConfiguration('mintlifyAgent').update('apiBaseUrl', api.url, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await leaveWindowClean(s);
    await api?.close();
  });

  /** Runs one flow, then asserts that the spec accepted every request it sent; returns them. */
  async function flow(name: string, run: (user: ScriptedUser) => Promise<void>): Promise<Exchange[]> {
    const since = Date.now();
    const user = new ScriptedUser(s.ui);
    try {
      await run(user);
    } finally {
      user.restore();
    }
    const sent = api.exchanges.filter((e) => e.at >= since);
    const rejected = api.rejected(since);
    process.stdout.write(`      ${name}: ${sent.length} request(s): ${JSON.stringify(tally(sent))}\n`);
    assert.deepEqual(
      rejected.map((e) => `${e.method} ${e.url} → ${e.status} ${e.violations.join('; ')}`),
      [],
      `requests the published spec rejected (Prism's errors: ${
        log
          .filter((line) => line.includes('[VALIDATOR]') && line.includes('✖'))
          .slice(-5)
          .join(' | ') || 'none'
      })`,
    );
    return sent;
  }

  /** How many requests went to each of the spec's operations; `only` keeps the operations starting with it. */
  function tally(sent: readonly Exchange[], only = ''): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const e of sent) if (e.operation.startsWith(only)) counts[e.operation] = (counts[e.operation] ?? 0) + 1;
    return counts;
  }
  const analytics = (path: string) => `GET /v1/analytics/{projectId}/${path}`;

  it('sets the API key and the project ID as a person does', async () => {
    let told: string[] = [];
    await flow('key', async (user) => {
      user.type(KEY).type(PROJECT);
      await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
      await vscode.commands.executeCommand('mintlifyAgent.setProjectId');
      told = user.messages.map((m) => m.message);
    });
    assert.ok(
      told.some((m) => m.includes('API key saved')),
      `the key is saved (told: ${told.join(' | ')})`,
    );
    assert.equal(vscode.workspace.getConfiguration('mintlifyAgent').get('projectId'), PROJECT, 'the project is set');
  });

  it('tracks a job by ID, sends a follow-up to it and starts a new one', async () => {
    const tracked = await flow('track', async (user) => {
      user.type('job_from_the_dashboard');
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      await waitFor('the job tracked and read', () => s.jobs.all().some((t) => t.job), FLOW_MS);
    });
    assert.ok(tally(tracked)['GET /v2/agent/{projectId}/job/{id}'] >= 1, 'the job was read');

    const jobId = s.jobs.all()[0].id;
    const followUp = await flow('follow-up', async () => {
      await vscode.commands.executeCommand('mintlifyAgent.sendFollowUp', jobId, 'Also cover proxies');
    });
    assert.deepEqual(tally(followUp, 'POST'), { 'POST /v2/agent/{projectId}/job/{id}/message': 1 }, 'one follow-up POST');

    const started = await flow('start', async () => {
      await vscode.commands.executeCommand('mintlifyAgent.startJob', 'Add a troubleshooting section');
    });
    assert.deepEqual(tally(started, 'POST'), { 'POST /v2/agent/{projectId}/job': 1 }, 'one create POST');
  });

  it('opens Visitor Analytics and exports the range, which ends at the paging rule', async () => {
    await freshAnalyticsHour(s);
    const opened = await flow('analytics', async () => {
      await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
      await waitFor("the panel's first page", () => api.exchanges.some((e) => e.url.includes('/visitors')), FLOW_MS);
    });
    assert.deepEqual(tally(opened, analytics('')), { [analytics('visitors')]: 1 }, 'the panel read its first page of visitors');

    const target = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'contract-export.csv');
    let status: { state: string; requests: number } | undefined;
    const exported = await flow('export', async (user) => {
      // Nothing kept of the range: up to 100 requests, more than this hour has left, so the gate asks first; the writer fetches what fits.
      user.answerMessage = (shown) => shown.actions.find((a) => a.startsWith('Fetch '));
      user.saveAs(target);
      status = await vscode.commands.executeCommand<{ state: string; requests: number }>('mintlifyAgent.exportVisitors');
    });
    await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
    assert.equal(status?.state, 'done', 'the export ended with a file');
    // The example's rows at every offset: the second page brings nothing new, so the export stops
    // there (its cap, 100 pages, is never reached).
    assert.deepEqual(
      tally(exported, analytics('')),
      { [analytics('visitors')]: 2 },
      `the export stopped at the second page; sent: ${exported.map((e) => e.url).join(', ')}`,
    );
  });

  it('draws the trend of the last 7 days: a limit=1 request a day, each one the spec accepts', async () => {
    await freshAnalyticsHour(s);
    const panel = await waitFor('the panel', () => s.analytics.panel());
    // The messages the webview posts when the range is picked and Draw Trend clicked (validated as the webview's).
    const drawn = await flow('trend', async () => {
      await panel.model.handle({ type: 'setRange', range: { kind: 'preset', preset: 'last7' } });
      await panel.model.handle({ type: 'drawTrend' });
      await waitFor('the trend drawn', () => panel.model.state.trend?.status === 'ready', FLOW_MS);
    });
    const trend = drawn.filter((e) => new URL(e.url, 'http://x').searchParams.get('limit') === '1');
    assert.equal(trend.length, 7, 'one request a day');
    assert.deepEqual(tally(drawn, analytics('')), { [analytics('visitors')]: 1 + 7 }, "the table's first page and the seven days");
    assert.equal(panel.model.state.trend?.points.length, 7);
  });

  it('shows the readers of the open docs page', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await freshAnalyticsHour(s);
    const page = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'docs', 'quickstart.mdx');
    const read = await flow('readers', async () => {
      await vscode.window.showTextDocument(page, { preview: false });
      await waitFor(
        'the readers figure settled',
        async () => {
          return s.readers.statusBar.shown?.page.uri.toString() === page.toString() && s.readers.statusBar.shown.figures !== undefined;
        },
        FLOW_MS,
      );
    });
    assert.deepEqual(tally(read, analytics('')), { [analytics('visitors')]: 2 }, 'the readers stopped at the second page of visitors');
  });

  it('fetches reader signals, which end at their caps', async () => {
    await freshAnalyticsHour(s);
    const fetched = await flow('reader signals', async (user) => {
      user.answerMessage = (m) => m.actions.find((a) => a.startsWith('Fetch'));
      await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    });
    // feedback/by-page has no paging in the spec; every other list stops at its second page (the
    // cursor or the rows repeat), far below Fetch Reader Signals' 40.
    assert.deepEqual(
      tally(fetched, analytics('')),
      { [analytics('feedback/by-page')]: 1, [analytics('feedback')]: 2, [analytics('assistant')]: 2, [analytics('searches')]: 2, [analytics('views')]: 2 },
      'each list stopped at the paging rule',
    );
    assert.ok(s.signals.store.current(), 'a snapshot is kept');
  });

  it('checks whether a finished job helped (Did It Help?), which ends', async () => {
    await freshAnalyticsHour(s);
    const day = 24 * 60 * 60_000;
    const iso = (t: number) => new Date(t).toISOString();
    const jobId = s.jobs.all()[0].id;
    s.signals.links.remember(PROJECT, {
      jobId,
      signalIds: ['page:/quickstart'],
      path: '/quickstart',
      searches: [],
      askedAt: iso(Date.now() - 21 * day),
      finishedAt: iso(Date.now() - 20 * day),
    });
    const checked = await flow('Did It Help?', async (user) => {
      user.answerMessage = (m) => m.actions.find((a) => a.startsWith('Fetch'));
      await vscode.commands.executeCommand('mintlifyAgent.checkSignalImpact', { kind: 'page', path: '/quickstart' });
    });
    // Before and after the job, feedback and assistant turns, each stopping at its second page (cap 70).
    assert.deepEqual(tally(checked, analytics('')), { [analytics('feedback')]: 4, [analytics('assistant')]: 4 }, 'each list stopped at the paging rule');
  });

  it("deploys a job's branch as a preview and reads its status, each request one the spec accepts", async () => {
    const jobId = s.jobs.all().find((t) => t.job?.ref)?.id;
    assert.ok(jobId, 'a tracked job with a branch (the example job names one)');
    const status = 'GET /v1/project/update-status/{statusId}';
    const deployed = await flow('preview', async (user) => {
      user.answerMessage = (m) => (m.actions.includes('Deploy Preview') ? 'Deploy Preview' : undefined);
      await vscode.commands.executeCommand('mintlifyAgent.previewBranch', jobId);
      await waitFor("the preview's status read", () => api.exchanges.some((e) => e.operation === status), FLOW_MS);
    });
    assert.deepEqual(tally(deployed, 'POST'), { 'POST /v1/project/preview/{projectId}': 1 }, 'one deployment');
    assert.ok((tally(deployed)[status] ?? 0) >= 1, 'its status was read');
  });

  it("checks a search readers gave up on against the site's own search, with the assistant key, as the discovery spec takes it", async () => {
    const search = 'POST /discovery/v1/search/{domain}';
    const checked = await flow('site search', async (user) => {
      user.type('mint_dsc_contract_key').type('https://app.mintlify.com/acme-org/acme-docs');
      await vscode.commands.executeCommand('mintlifyAgent.setAssistantKey');
      user.type('single sign-on');
      user.pick(() => undefined);
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch');
    });
    // The jobs' and the preview's pollers go on meanwhile; of the search and the analytics hour, only the one search.
    assert.deepEqual(tally(checked, 'POST /discovery'), { [search]: 1 }, 'one search');
    assert.deepEqual(tally(checked, analytics('')), {}, 'nothing of the analytics hour');
    assert.deepEqual(
      checked.filter((e) => e.operation === search).map((e) => e.url),
      ['/discovery/v1/search/acme-docs'],
    );
    // Undocumented: whether a preview deployment's identifier (`<branch>.mintlify.app`) names a search
    // index. The spec takes any identifier in the path, so this request is valid too; what the platform
    // answers for it is not said, so the extension searches only the site's own domain (README).
    const preview = await flow('a preview domain', async (user) => {
      user.type('https://acme-docs-feature-sso.mintlify.app');
      await vscode.commands.executeCommand('mintlifyAgent.setSiteDomain');
      user.type('single sign-on');
      user.pick(() => undefined);
      await vscode.commands.executeCommand('mintlifyAgent.checkSearch');
    });
    assert.deepEqual(
      preview.filter((e) => e.operation === search).map((e) => e.url),
      ['/discovery/v1/search/acme-docs-feature-sso'],
    );
    await vscode.commands.executeCommand('mintlifyAgent.clearAssistantKey');
    await vscode.workspace.getConfiguration('mintlifyAgent').update('search.siteDomain', undefined, vscode.ConfigurationTarget.Global);
  });

  it('sent nothing the spec rejects during the whole run, background requests between flows included', () => {
    process.stdout.write(`      the whole run: ${api.exchanges.length} request(s): ${JSON.stringify(tally(api.exchanges))}\n`);
    assert.ok(api.exchanges.length > 0, 'the flows reached Prism');
    assert.deepEqual(
      api.rejected().map((e) => `${e.method} ${e.url} → ${e.status} ${e.violations.join('; ')}`),
      [],
      'requests the published spec rejected',
    );
  });
});
