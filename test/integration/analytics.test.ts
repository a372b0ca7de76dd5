// Visitor analytics in the real VS Code host against the simulator, used as a person uses it: the
// tests click, type and read in the panel's real webview (its own script posts the messages), and
// check which requests reached the API and what the exported file holds. The panel's view state
// (panelModel.ts) tells them when a load has ended; what they assert is what the webview shows.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AnalyticsPanel } from '../../src/analytics/analyticsPanel';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { readCsv } from '../support/csv';
import { KEY, PROJECT, ScriptedUser, seam, setProject, setUserSetting, waitFor, withSimulator } from './support';
import { webview } from './webview';

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

/** A count as the webview shows it, whatever the browser's digit grouping. */
function count(text: string): number {
  return Number(text.replace(/\D/g, ''));
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

  /** Waits until `requests` more visitors requests reached the API and the panel's load has ended. */
  async function loaded(before: number, requests = 1): Promise<void> {
    await waitFor(`${requests} visitors request(s)`, () => visitorRequests(sim).length >= before + requests);
    await waitFor('the load to end', () => !panel.model.state.loading);
  }

  /** Clicks (or otherwise acts) in the webview, then waits for the one request that causes. */
  async function andLoad(act: () => Promise<void>, requests = 1): Promise<void> {
    const before = visitorRequests(sim).length;
    await act();
    await loaded(before, requests);
  }

  /** Picks a preset whose pages may be in memory already (no request), and waits until it shows. */
  async function choose(preset: string, label: RegExp): Promise<void> {
    await webview.select('#preset', preset);
    await webview.expect('#range-label', label);
    await waitFor('the load to end', () => !panel.model.state.loading);
    await webview.expect('#status', /^(Fetched at|Page \d+ from memory)/);
  }

  async function totals(): Promise<{ human: number; ai: number; total: number }> {
    return { human: count(await webview.text('#total-human')), ai: count(await webview.text('#total-ai')), total: count(await webview.text('#total-all')) };
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
    await loaded(0);
    const [request] = visitorRequests(sim);
    assert.deepEqual(request?.query, { dateFrom: day(-29), dateTo: day(1), limit: '50', offset: '0' }, 'dateTo is exclusive: tomorrow');
    const truth = sim.visitorsFor(PROJECT, { dateFrom: day(-29), dateTo: day(1) });
    await webview.expect('#status', /^Fetched at/);
    assert.deepEqual(await totals(), truth.totals);
    assert.ok(truth.totals.total < truth.totals.human + truth.totals.ai, 'the data set deduplicates');
    assert.deepEqual(
      await webview.paths(),
      truth.visitors.slice(0, 50).map((v) => v.path),
    );
    assert.equal((await webview.read('#next')).disabled, false, 'Next is offered: there is more');
    assert.equal(visitorRequests(sim).length, 1);
    assert.equal(await webview.text('#range-label'), `Last 30 days (${day(-29)} to ${day()})`);
  });

  it('pages forward with one request a page and back with none', async () => {
    const truth = sim.visitorsFor(PROJECT, { dateFrom: day(-29), dateTo: day(1) });
    const slice = (page: number) => truth.visitors.slice((page - 1) * 50, page * 50).map((v) => v.path);
    sim.clearRequests();
    for (const page of [2, 3, 4]) {
      await andLoad(() => webview.click('#next'));
      // The label changes with the loading state, the status once the rows are in.
      await webview.expect('#page-label', new RegExp(`^Page ${page}$`));
      await webview.expect('#status', /^Fetched at/);
      assert.deepEqual(await webview.paths(), slice(page));
    }
    assert.deepEqual(
      visitorRequests(sim).map((r) => r.query.offset),
      ['50', '100', '150'],
    );
    for (const page of [3, 2, 1]) {
      await webview.click('#prev');
      await webview.expect('#status', new RegExp(`^Page ${page} from memory`));
      assert.deepEqual(await webview.paths(), slice(page));
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
      await andLoad(() => webview.select('#preset', preset));
      assert.deepEqual(
        visitorRequests(sim).map((r) => r.query),
        [{ ...dates, limit: '50', offset: '0' }],
        preset,
      );
      const truth = sim.visitorsFor(PROJECT, dates).totals;
      await waitFor(`the totals of ${preset}`, async () => JSON.stringify(await totals()) === JSON.stringify(truth));
    }
  });

  it('a custom range with an inclusive end; an end before the start sends nothing and says why', async () => {
    sim.clearRequests();
    await webview.select('#preset', 'custom');
    await webview.fill('#from', day(-10));
    await webview.fill('#to', day(-3));
    await andLoad(() => webview.click('#apply'));
    assert.deepEqual(visitorRequests(sim)[0]?.query, { dateFrom: day(-10), dateTo: day(-2), limit: '50', offset: '0' });
    await webview.expect('#range-label', new RegExp(`^${day(-10)} to ${day(-3)}$`));
    sim.clearRequests();
    await webview.fill('#from', day(-3));
    await webview.fill('#to', day(-10));
    await webview.click('#apply');
    await webview.expect('#alert-message', /before the start/);
    assert.equal((await webview.read('#refresh')).disabled, true, 'nothing to refresh until it is fixed');
    assert.equal(visitorRequests(sim).length, 0);
  });

  it('changes the page size, and Refresh bypasses the memory', async () => {
    await choose('last30', /^Last 30 days/);
    sim.clearRequests();
    await andLoad(() => webview.select('#page-size', '250'));
    await webview.expect('#scope-note', /the 250 rows of this page/);
    assert.equal(await webview.count('#rows tr'), 250);
    await andLoad(() => webview.click('#refresh'));
    await webview.expect('#status', /^Fetched at/);
    assert.deepEqual(
      visitorRequests(sim).map((r) => r.query.limit),
      ['250', '250'],
    );
    await webview.select('#page-size', '50'); // page 1 of 50 rows is in memory: no request
    await webview.expect('#scope-note', /the 50 rows of this page/);
  });

  it('an error keeps the last good rows on screen and offers Retry; Retry recovers', async () => {
    const shown = await webview.paths();
    assert.equal(shown.length, 50);
    sim.addFault({ fault: { kind: 'status', status: 502, html: true }, times: 1, pathIncludes: '/visitors' });
    await andLoad(() => webview.click('#refresh'));
    await webview.expect('#alert-message', /502/);
    assert.deepEqual(await webview.texts('#alert-actions button'), ['Retry']);
    assert.deepEqual(await webview.paths(), shown, 'the last good rows stay');
    await andLoad(() => webview.click('#alert-actions button[data-action="retry"]'));
    await waitFor('the error to go', async () => !(await webview.read('#alert')).visible);
    await webview.expect('#status', /^Fetched at/);
  });

  it('a schema-breaking body and a dropped connection are clear errors, not crashes', async () => {
    sim.addFault({ fault: { kind: 'schemaBreak' }, times: 1, pathIncludes: '/visitors' });
    await andLoad(() => webview.click('#refresh'));
    await webview.expect('#alert-message', /unexpected answer/);
    sim.addFault({ fault: { kind: 'drop' }, times: 1, pathIncludes: '/visitors' });
    await andLoad(() => webview.click('#alert-actions button[data-action="retry"]'));
    await webview.expect('#alert-message', /Could not reach/);
    await andLoad(() => webview.click('#alert-actions button[data-action="retry"]'));
    await waitFor('the error to go', async () => !(await webview.read('#alert')).visible);
  });

  it('a page that stalls after its headers ends in a clear error at the deadline, and Retry loads it', async () => {
    await setUserSetting('requestTimeoutSeconds', 1);
    try {
      sim.addFault({ fault: { kind: 'stallAfterHeaders' }, times: 1, pathIncludes: '/visitors' });
      const before = visitorRequests(sim).length;
      await andLoad(() => webview.click('#refresh'));
      await webview.expect('#alert-message', /Loading visitors failed: The Mintlify API did not answer in time/);
      assert.deepEqual(await webview.texts('#alert-actions button'), ['Retry']);
      await andLoad(() => webview.click('#alert-actions button[data-action="retry"]'));
      await waitFor('the error to go', async () => !(await webview.read('#alert')).visible);
      assert.equal(visitorRequests(sim).length, before + 2, 'the stalled load, then one fresh request for Retry (nothing reused)');
      assert.equal(await webview.count('#rows tr'), 50, 'Retry loaded the page');
    } finally {
      await setUserSetting('requestTimeoutSeconds', undefined);
    }
  });

  it('a 401 offers Set API Key', async () => {
    sim.addFault({ fault: { kind: 'status', status: 401 }, times: 1, pathIncludes: '/visitors' });
    await andLoad(() => webview.click('#refresh'));
    await webview.expect('#alert-message', /401/);
    assert.deepEqual(await webview.texts('#alert-actions button'), ['Set API Key']);
    assert.equal(await webview.count('#rows tr'), 50, 'the last good rows stay');
  });

  it('an empty range says so', async () => {
    await webview.select('#preset', 'custom');
    await webview.fill('#from', '2001-01-01');
    await webview.fill('#to', '2001-01-31');
    await andLoad(() => webview.click('#apply'));
    await webview.expect('#empty', /^No visitors in this range\.$/);
    assert.deepEqual(await totals(), { human: 0, ai: 0, total: 0 });
    assert.equal((await webview.read('#next')).disabled, true);
    assert.equal((await webview.read('#alert')).visible, false);
  });

  it('"more" with an empty page leads nowhere: Next is off, no loop', async () => {
    await choose('last7', /^Last 7 days/);
    sim.clearRequests();
    sim.addFault({ fault: { kind: 'emptyPageHasMore' }, times: 1, pathIncludes: '/visitors' });
    await andLoad(() => webview.click('#refresh'));
    await webview.expect('#empty', /^No visitors in this range\.$/);
    assert.equal((await webview.read('#next')).disabled, true);
    assert.equal(visitorRequests(sim).length, 1);
  });

  it('a page size outside 1..250 in the settings falls back to 50 and says so once', async () => {
    const config = vscode.workspace.getConfiguration('mintlifyAgent');
    try {
      await config.update('analytics.pageSize', 0, vscode.ConfigurationTarget.Global);
      await webview.expect('#notice', /"mintlifyAgent\.analytics\.pageSize" is 0.*50 rows/);
      await waitFor('the warning', () => user.messages.find((m) => m.level === 'warning' && /pageSize/.test(m.message)));
      await config.update('analytics.pageSize', 9999, vscode.ConfigurationTarget.Global);
      await webview.expect('#notice', /9999/);
      assert.equal(user.messages.filter((m) => /pageSize/.test(m.message)).length, 2, 'one warning per bad value');
    } finally {
      await config.update('analytics.pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the notice to go', async () => !(await webview.read('#notice')).visible);
  });

  it('an export cancelled half-way writes no file', async () => {
    await choose('allTime', /^All time$/);
    const folder = exportFolder();
    user.saveAs(vscode.Uri.file(join(folder, 'visitors.csv')));
    user.cancelAfterReports = 3;
    const status = await vscode.commands.executeCommand<{ state: string; requests: number }>('mintlifyAgent.exportVisitors');
    assert.equal(status.state, 'cancelled');
    assert.ok(status.requests >= 1 && status.requests < Math.ceil(sim.visitorsFor(PROJECT, {}).visitors.length / 250));
    assert.deepEqual(readdirSync(folder), [], 'no file, no temporary file');
    await webview.expect('#export-status', /^Export cancelled after/);
  });

  it("exports every row of the range to CSV with exactly ceil(N / 250) requests, from the panel's button", async () => {
    assert.equal(await webview.text('#range-label'), 'All time');
    const truth = sim.visitorsFor(PROJECT, {});
    const folder = exportFolder();
    const file = join(folder, 'visitors.csv');
    sim.clearRequests();
    user.saveAs(vscode.Uri.file(file));
    await webview.click('#export-csv');
    const done = await webview.expect('#export-status', /^Exported .* to visitors\.csv with /, 30_000);
    const pages = visitorRequests(sim);
    assert.equal(pages.length, Math.ceil(truth.visitors.length / 250));
    assert.match(done, new RegExp(`with ${pages.length} requests\\.$`));
    assert.ok(pages.every((r, i) => r.query.limit === '250' && r.query.offset === String(i * 250)));
    const [header, ...rows] = readCsv(readFileSync(file, 'utf8'));
    assert.deepEqual(header, ['path', 'human', 'ai', 'total']);
    assert.deepEqual(
      rows.map(([path, human, ai, total]) => ({ path: unneutralise(path), human: Number(human), ai: Number(ai), total: Number(total) })),
      truth.visitors,
    );
    assert.equal(count(done.split(' rows')[0] ?? ''), truth.visitors.length);
    assert.deepEqual(readdirSync(folder), ['visitors.csv'], 'no temporary file left');
  });

  /** Two pages answered, then a 429 naming `seconds`, then the usual answers. */
  function limitAfterTwoPages(seconds: number): void {
    sim.addFault({ fault: { kind: 'latency', ms: 0 }, times: 2, pathIncludes: '/visitors' });
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: seconds }, times: 1, pathIncludes: '/visitors' });
  }

  /** The export's notification while it waits for the hour. */
  const WAITING = /^2 pages kept; the organisation’s hour is spent, going on at \d{1,2}:\d\d/;

  it('a 429 halfway through an export keeps its pages, says when it goes on, and after the wait writes the whole file', async () => {
    // The export before kept every row of the range as the readers' snapshot, and an export of a
    // covered range sends nothing; this one must ask the API.
    await s.readers.pageReaders.store.clear();
    assert.equal(await webview.text('#range-label'), 'All time');
    const truth = sim.visitorsFor(PROJECT, {});
    const folder = exportFolder();
    const file = join(folder, 'visitors.csv');
    sim.clearRequests();
    limitAfterTwoPages(2);
    user.saveAs(vscode.Uri.file(file));
    const running = vscode.commands.executeCommand<{ state: string; requests: number; caveat?: string }>('mintlifyAgent.exportVisitors');
    // What the writer sees while it waits: the notification, and the panel's export line.
    await waitFor('the wait in the notification', () => user.progressReports.some((m) => WAITING.test(m)));
    await webview.expect('#export-status', WAITING);
    assert.deepEqual(readdirSync(folder), [], 'nothing written while it waits');
    const status = await running;
    assert.equal(status.state, 'done');
    const pages = Math.ceil(truth.visitors.length / 250);
    const received = visitorRequests(sim).map((r) => [r.query.offset, r.status]);
    assert.deepEqual(received.slice(0, 3), [
      ['0', 200],
      ['250', 200],
      ['500', 429],
    ]);
    assert.deepEqual(
      received.filter(([, code]) => code === 200).map(([offset]) => offset),
      Array.from({ length: pages }, (_, i) => String(i * 250)),
      'each page answered once: the two kept are not asked again',
    );
    assert.equal(status.requests, pages + 1);
    const [, ...rows] = readCsv(readFileSync(file, 'utf8'));
    assert.deepEqual(
      rows.map(([path]) => unneutralise(path)),
      truth.visitors.map((v) => v.path),
      'the whole range, once',
    );
    assert.deepEqual(readdirSync(folder), ['visitors.csv'], 'no temporary file left');
    // All time includes today: read before and after the wait, which the message says.
    assert.match(status.caveat ?? '', /includes today and was read before and after a wait/);
    // Read in parts, it is not the range's snapshot: the readers do not show its figures as the range's whole.
    assert.equal(
      s.readers.pageReaders.store.cached({ projectId: PROJECT, dateFrom: undefined, dateTo: undefined }),
      undefined,
      'not kept as the range’s snapshot',
    );
    await waitFor('the message', () =>
      user.messages.find((m) => /^Exported .* rows to visitors\.csv with \d+ requests\. The range includes today/.test(m.message)),
    );
  });

  it('Cancel while an export waits for the hour offers to write the pages kept as a partial file, or to discard them', async () => {
    const folder = exportFolder();
    const exportAndCancel = async (answer: string) => {
      await s.readers.pageReaders.store.clear();
      // A fresh hour: the last 429's shared wait goes, and the export fits without a question.
      await s.sync.update((state) => void Object.assign(state, { waits: {}, ledger: {} }));
      sim.clearRequests();
      limitAfterTwoPages(600);
      user.saveAs(vscode.Uri.file(join(folder, 'visitors.csv')));
      user.answerMessage = (shown) => shown.actions.find((action) => action === answer);
      const reports = user.progressReports.length;
      const running = vscode.commands.executeCommand<{ state: string; rows?: number; caveat?: string }>('mintlifyAgent.exportVisitors');
      await waitFor('the wait in the notification', () => user.progressReports.slice(reports).some((m) => WAITING.test(m)));
      user.pressCancel();
      const status = await running;
      const asked = user.messages.find((m) => m.actions.includes('Write Partial File'));
      assert.ok(asked, JSON.stringify(user.messages.map((m) => m.message)));
      assert.match(asked.message, /^Export cancelled with 2 pages kept \(500 rows\)\. Write them to visitors\.csv as a partial export/);
      assert.deepEqual(asked.actions, ['Write Partial File', 'Discard']);
      assert.equal(visitorRequests(sim).length, 3, 'nothing sent after the 429');
      user.messages.length = 0;
      return status;
    };

    const discarded = await exportAndCancel('Discard');
    assert.equal(discarded.state, 'cancelled');
    assert.deepEqual(readdirSync(folder), [], 'discarded: no file, no temporary file');

    const partial = await exportAndCancel('Write Partial File');
    assert.equal(partial.state, 'done');
    assert.equal(partial.rows, 500);
    assert.match(partial.caveat ?? '', /^Partial: only the first 2 pages of the range were fetched/);
    const [, ...rows] = readCsv(readFileSync(join(folder, 'visitors.csv'), 'utf8'));
    assert.deepEqual(
      rows.map(([path]) => unneutralise(path)),
      sim
        .visitorsFor(PROJECT, {})
        .visitors.slice(0, 500)
        .map((v) => v.path),
    );
    assert.deepEqual(readdirSync(folder), ['visitors.csv']);
    await webview.expect('#export-status', /^Exported 500 rows to visitors\.csv with 3 requests\. Partial: /);
  });

  it('opens the workspace page that matches a path', async () => {
    await webview.fill('#filter', 'quickstart');
    await webview.expect('#scope-note', /match/);
    await webview.click('#rows button.path[title="/quickstart"]');
    await waitFor('the doc to open', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('/docs/quickstart.mdx'));
  });

  it('closing the panel aborts its load; the panel opened next asks afresh instead of waiting for it', async () => {
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics'); // back to the panel from the doc
    panel = await waitFor('the panel', () => s.analytics.panel());
    await choose('last30', /^Last 30 days/);
    sim.clearRequests();
    sim.addFault({ fault: { kind: 'latency', ms: 30_000 }, times: 1, pathIncludes: '/visitors' });
    await webview.click('#refresh'); // forgets the range's pages and asks again: a slow answer
    await waitFor('the slow request', () => visitorRequests(sim).length === 1);
    panel.dispose();
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    panel = await waitFor('the new panel', () => s.analytics.panel());
    // Had the closed panel's load stayed in flight, the new panel would wait on it, sending nothing.
    await waitFor('a fresh request for the same page', () => visitorRequests(sim).length === 2, 10_000);
    assert.deepEqual(visitorRequests(sim)[1]?.query, visitorRequests(sim)[0]?.query);
    await webview.expect('#status', /^Fetched at/, 10_000);
  });

  it('a 429 says when to try again and keeps the rows', async () => {
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 120 }, times: 1, pathIncludes: '/visitors' });
    await andLoad(() => webview.click('#refresh'));
    await webview.expect('#alert-message', /in 2 min/);
    assert.ok((await webview.count('#rows tr')) > 0, 'the rows stay');
  });
});
