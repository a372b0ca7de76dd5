// Visitor analytics in the real VS Code host against the simulator: what the panel shows (the
// state it posts to its webview), which requests reached the API, and the exported file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AnalyticsPanel } from '../../src/analytics/analyticsPanel';
import type { TestSeam } from '../../src/extension';
import type { ViewState } from '../../src/shared/protocol';
import type { Simulator } from '../simulator/server';
import { readCsv } from '../support/csv';
import { KEY, PROJECT, ScriptedUser, seam, setProject, waitFor, withSimulator } from './support';

/** The user's calendar day, as the panel computes it, shifted by `days`. */
function day(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function visitorRequests(sim: Simulator) {
  return sim.requests.filter((r) => r.rawPath.endsWith('/visitors'));
}

/** How a spreadsheet-safe CSV cell reads back as the original path. */
function unneutralise(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

describe('visitor analytics', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let panel: AnalyticsPanel;
  const folders: string[] = [];
  const exportFolder = () => {
    const folder = mkdtempSync(join(tmpdir(), 'mintlify-export-'));
    folders.push(folder);
    return folder;
  };

  async function act(message: unknown): Promise<ViewState> {
    panel.receive(message);
    await panel.whenIdle();
    return panel.lastState!;
  }

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 1_000 });
    user = new ScriptedUser(s.ui);
    user.type(KEY);
    await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
    user.restore();
    await setProject(PROJECT);
    sim.clearRequests();
  });
  after(async () => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    s.analytics.panel()?.dispose();
    await sim.close();
  });
  beforeEach(async () => {
    user = new ScriptedUser(s.ui);
    sim.clearFaults();
    // Each test meets a server with fresh limits: the 429 wait every window shares goes too.
    await s.sync.update((state) => void Object.assign(state, { waits: {}, ledger: {} }));
  });
  afterEach(() => user.restore());

  it('opens on the last 30 days (today included) with totals and the first page', async () => {
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    panel = await waitFor('the panel', () => s.analytics.panel());
    const state = await waitFor('the first page', () => (panel.lastState?.data ? panel.lastState : undefined));
    await panel.whenIdle();
    const [request] = visitorRequests(sim);
    assert.deepEqual(request?.query, { dateFrom: day(-29), dateTo: day(1), limit: '50', offset: '0' }, 'dateTo is exclusive: tomorrow');
    const truth = sim.visitorsFor(PROJECT, { dateFrom: day(-29), dateTo: day(1) });
    assert.deepEqual(state.data?.totals, truth.totals);
    assert.ok(truth.totals.total < truth.totals.human + truth.totals.ai, 'the data set deduplicates');
    assert.deepEqual(state.data?.rows, truth.visitors.slice(0, 50));
    assert.equal(state.data?.hasMore, true);
    assert.equal(visitorRequests(sim).length, 1);
    assert.ok(state.projectId === PROJECT);
  });

  it('pages forward with one request a page and back with none', async () => {
    const truth = sim.visitorsFor(PROJECT, { dateFrom: day(-29), dateTo: day(1) });
    sim.clearRequests();
    for (const page of [2, 3, 4]) {
      const state = await act({ type: 'setPage', page });
      assert.deepEqual(state.data?.rows, truth.visitors.slice((page - 1) * 50, page * 50));
    }
    assert.deepEqual(visitorRequests(sim).map((r) => r.query.offset), ['50', '100', '150']);
    for (const page of [3, 2, 1]) {
      const state = await act({ type: 'setPage', page });
      assert.equal(state.data?.fromCache, true);
      assert.deepEqual(state.data?.rows, truth.visitors.slice((page - 1) * 50, page * 50));
    }
    assert.equal(visitorRequests(sim).length, 3, 'going back costs no request');
  });

  it('turns each preset into the right dateFrom and exclusive dateTo', async () => {
    const firstOfMonth = day(1 - new Date().getDate());
    const expected: Record<string, Record<string, string>> = {
      last7: { dateFrom: day(-6), dateTo: day(1) },
      last90: { dateFrom: day(-89), dateTo: day(1) },
      thisMonth: { dateFrom: firstOfMonth, dateTo: day(1) },
      allTime: {},
    };
    for (const [preset, dates] of Object.entries(expected)) {
      sim.clearRequests();
      const state = await act({ type: 'setRange', range: { kind: 'preset', preset } });
      assert.deepEqual(visitorRequests(sim).map((r) => r.query), [{ ...dates, limit: '50', offset: '0' }], preset);
      assert.deepEqual(state.data?.totals, sim.visitorsFor(PROJECT, dates).totals, preset);
    }
  });

  it('a custom range with an inclusive end; an end before the start or a bad date sends nothing', async () => {
    sim.clearRequests();
    await act({ type: 'setRange', range: { kind: 'custom', from: day(-10), to: day(-3) } });
    assert.deepEqual(visitorRequests(sim)[0]?.query, { dateFrom: day(-10), dateTo: day(-2), limit: '50', offset: '0' });
    sim.clearRequests();
    let state = await act({ type: 'setRange', range: { kind: 'custom', from: day(-3), to: day(-10) } });
    assert.match(String(state.rangeError), /before|after/i);
    state = await act({ type: 'setRange', range: { kind: 'custom', from: '2025-02-30', to: day() } });
    assert.ok(state.rangeError);
    assert.equal(visitorRequests(sim).length, 0);
  });

  it('ignores forged messages: unknown type, wrong field types, a huge page', async () => {
    await act({ type: 'setRange', range: { kind: 'preset', preset: 'last30' } });
    const before = JSON.stringify(panel.lastState);
    sim.clearRequests();
    for (const forged of [
      { type: 'deleteEverything' },
      { type: 'setPage', page: '2' },
      { type: 'setPage', page: 1e12 },
      { type: 'setPageSize', pageSize: 100_000 },
      { type: 'setRange', range: { kind: 'preset', preset: 'forever' } },
      { type: 'openPath', path: 42 },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
      'not even an object',
    ]) {
      await act(forged);
    }
    assert.equal(visitorRequests(sim).length, 0);
    assert.equal(JSON.stringify(panel.lastState), before);
  });

  it('changes the page size, and Refresh bypasses the memory', async () => {
    sim.clearRequests();
    let state = await act({ type: 'setPageSize', pageSize: 250 });
    assert.equal(state.data?.rows.length, 250);
    state = await act({ type: 'refresh' });
    assert.equal(state.data?.fromCache, false);
    assert.deepEqual(visitorRequests(sim).map((r) => r.query.limit), ['250', '250']);
    await act({ type: 'setPageSize', pageSize: 50 });
  });

  it('an error keeps the last good rows on screen and offers Retry; Retry recovers', async () => {
    const shown = panel.lastState!.data!;
    sim.addFault({ fault: { kind: 'status', status: 502, html: true }, times: 1, pathIncludes: '/visitors' });
    let state = await act({ type: 'refresh' });
    assert.match(String(state.error?.message), /502/);
    assert.ok(state.error?.actions.includes('retry'));
    assert.deepEqual(state.data?.rows, shown.rows, 'the last good rows stay');
    state = await act({ type: 'retry' });
    assert.equal(state.error, undefined);
    assert.equal(state.data?.current, true);
    assert.equal(state.data?.fromCache, false);
  });

  it('a schema-breaking body and a dropped connection are clear errors, not crashes', async () => {
    sim.addFault({ fault: { kind: 'schemaBreak' }, times: 1, pathIncludes: '/visitors' });
    let state = await act({ type: 'refresh' });
    assert.match(String(state.error?.message), /unexpected answer/);
    sim.addFault({ fault: { kind: 'drop' }, times: 1, pathIncludes: '/visitors' });
    state = await act({ type: 'refresh' });
    assert.match(String(state.error?.message), /Could not reach/);
    state = await act({ type: 'retry' });
    assert.equal(state.error, undefined);
  });

  it('a 401 offers Set API Key', async () => {
    sim.addFault({ fault: { kind: 'status', status: 401 }, times: 1, pathIncludes: '/visitors' });
    const state = await act({ type: 'refresh' });
    assert.match(String(state.error?.message), /401/);
    assert.ok(state.error?.actions.includes('setApiKey'));
    assert.ok(state.data, 'the last good rows stay');
  });

  it('an empty range says so', async () => {
    const state = await act({ type: 'setRange', range: { kind: 'custom', from: '2001-01-01', to: '2001-01-31' } });
    assert.deepEqual(state.data?.rows, []);
    assert.deepEqual(state.data?.totals, { human: 0, ai: 0, total: 0 });
    assert.equal(state.data?.hasMore, false);
    assert.equal(state.error, undefined);
  });

  it('"more" with an empty page leads nowhere: Next is off, no loop', async () => {
    await act({ type: 'setRange', range: { kind: 'preset', preset: 'last7' } });
    sim.clearRequests();
    sim.addFault({ fault: { kind: 'emptyPageHasMore' }, times: 1, pathIncludes: '/visitors' });
    const state = await act({ type: 'refresh' });
    assert.deepEqual(state.data?.rows, []);
    assert.equal(state.data?.hasMore, false);
    assert.equal(visitorRequests(sim).length, 1);
  });

  it('a page size outside 1..250 in the settings falls back to 50 and says so once', async () => {
    const config = vscode.workspace.getConfiguration('mintlifyAgent');
    try {
      await config.update('analytics.pageSize', 0, vscode.ConfigurationTarget.Global);
      const state = await waitFor('the notice', () => (panel.lastState?.notice ? panel.lastState : undefined));
      assert.match(String(state.notice), /"mintlifyAgent\.analytics\.pageSize" is 0.*50 rows/);
      await waitFor('the warning', () => user.messages.find((m) => m.level === 'warning' && /pageSize/.test(m.message)));
      await config.update('analytics.pageSize', 9999, vscode.ConfigurationTarget.Global);
      await waitFor('the second notice', () => /9999/.test(String(panel.lastState?.notice)));
      assert.equal(user.messages.filter((m) => /pageSize/.test(m.message)).length, 2, 'one warning per bad value');
    } finally {
      await config.update('analytics.pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the notice to go', () => panel.lastState?.notice === undefined);
  });

  it('an export cancelled half-way writes no file', async () => {
    await act({ type: 'setRange', range: { kind: 'preset', preset: 'allTime' } });
    const folder = exportFolder();
    user.saveAs(vscode.Uri.file(join(folder, 'visitors.csv')));
    user.cancelAfterReports = 3;
    const status = await vscode.commands.executeCommand<{ state: string; requests: number }>('mintlifyAgent.exportVisitors');
    assert.equal(status.state, 'cancelled');
    assert.ok(status.requests >= 1 && status.requests < Math.ceil(sim.visitorsFor(PROJECT, {}).visitors.length / 250));
    assert.deepEqual(readdirSync(folder), [], 'no file, no temporary file');
  });

  it('exports every row of the range to CSV with exactly ceil(N / 250) requests', async () => {
    await act({ type: 'setRange', range: { kind: 'preset', preset: 'allTime' } });
    const truth = sim.visitorsFor(PROJECT, {});
    const folder = exportFolder();
    const file = join(folder, 'visitors.csv');
    sim.clearRequests();
    user.saveAs(vscode.Uri.file(file));
    const status = await vscode.commands.executeCommand<{ state: string; requests: number; rows: number }>('mintlifyAgent.exportVisitors');
    assert.equal(status.state, 'done');
    const pages = visitorRequests(sim);
    assert.equal(pages.length, Math.ceil(truth.visitors.length / 250));
    assert.equal(status.requests, pages.length);
    assert.ok(pages.every((r, i) => r.query.limit === '250' && r.query.offset === String(i * 250)));
    const [header, ...rows] = readCsv(readFileSync(file, 'utf8'));
    assert.deepEqual(header, ['path', 'human', 'ai', 'total']);
    assert.deepEqual(
      rows.map(([path, human, ai, total]) => ({ path: unneutralise(path), human: Number(human), ai: Number(ai), total: Number(total) })),
      truth.visitors,
    );
    assert.equal(status.rows, truth.visitors.length);
    assert.deepEqual(readdirSync(folder), ['visitors.csv'], 'no temporary file left');
  });

  it('a 429 halfway through an export writes no file and says when to try again', async () => {
    const limited = await withSimulator({ analyticsLimitPerHour: 3 });
    try {
      const folder = exportFolder();
      const file = join(folder, 'visitors.json');
      user.saveAs(vscode.Uri.file(file));
      const status = await vscode.commands.executeCommand<{ state: string; requests: number; message: string }>('mintlifyAgent.exportVisitors');
      assert.equal(status.state, 'failed');
      assert.match(status.message, /rate limit|Try again/i);
      assert.equal(existsSync(file), false, 'no half file');
      assert.deepEqual(readdirSync(folder), [], 'no temporary file left');
      assert.equal(limited.requests.length, 4, 'three pages, then the 429, then it stopped');
    } finally {
      await limited.close();
      await vscode.workspace.getConfiguration('mintlifyAgent').update('apiBaseUrl', sim.url, vscode.ConfigurationTarget.Global);
    }
  });

  it('opens the workspace page that matches a path', async () => {
    await act({ type: 'openPath', path: '/quickstart' });
    await waitFor('the doc to open', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('/docs/quickstart.mdx'));
  });

  it('a 429 says when to try again and keeps the rows', async () => {
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 120 }, times: 1, pathIncludes: '/visitors' });
    const state = await act({ type: 'refresh' });
    assert.match(String(state.error?.message), /in 2 min/);
    assert.ok(state.data);
  });
});
