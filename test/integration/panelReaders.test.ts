// The analytics panel beside the readers status item, in the real VS Code host against the
// simulator: "Open Visitor Analytics" from a docs page's tooltip opens the panel on that page's
// row; a range the readers' snapshot covers (the writer's Refresh: opening a page fetches the settled
// days, which the panel's presets are not) is paged and exported with no request (counted at the
// simulator) and equals the API's rows; the metric switch shows and exports view events.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AnalyticsPanel } from '../../src/analytics/analyticsPanel';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { readCsv } from '../support/csv';
import { leaveWindowClean, PROJECT, ScriptedUser, seam, setProject, signIn, waitFor, withSimulator } from './support';
import { webview } from './webview';

/** The table's requests to an endpoint (not the trend's one-row `limit=1` requests above it). */
const endpoint = (sim: Simulator, name: 'visitors' | 'views') => sim.requests.filter((r) => r.rawPath.endsWith(`/${name}`) && r.query.limit !== '1');
/** A count as the webview shows it, whatever the browser's digit grouping. */
const count = (text: string) => Number(text.replace(/\D/g, ''));
const unneutralise = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

describe('analytics panel and the readers snapshot', function () {
  this.timeout(90_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: vscode.Uri;
  let folder: string;
  let written: vscode.Uri | undefined;

  const truth = () => {
    const now = s.readers.pageReaders.current();
    assert.ok(now, 'a project and a key are set');
    return sim.visitorsFor(PROJECT, { dateFrom: now.key.dateFrom, dateTo: now.key.dateTo });
  };
  const panel = () => waitFor('the panel', () => s.analytics.panel());
  const settled = async (p: AnalyticsPanel) => waitFor('the panel to settle', () => !p.model.state.loading && p.model.state.data?.current);
  async function totals() {
    return { human: count(await webview.text('#total-human')), ai: count(await webview.text('#total-ai')), total: count(await webview.text('#total-all')) };
  }

  /**
   * Opens a docs page, waits for its readers figure, has the writer Refresh it (the range with
   * today, as the panel's presets have it), and runs its tooltip's Open Visitor Analytics link as a click would.
   */
  async function openAnalyticsFromTooltip(relative: string): Promise<void> {
    const uri = vscode.Uri.joinPath(root, ...relative.split('/'));
    await vscode.window.showTextDocument(uri, { preview: false });
    const figure = async () => {
      const item = s.readers.statusBar.shown;
      return item?.figures && item.page.uri.toString() === uri.toString() ? item : undefined;
    };
    await waitFor(`the readers figure of ${relative}`, figure);
    await vscode.commands.executeCommand('mintlifyAgent.refreshReaders');
    const open = s.readers.pageReaders.current()!.key;
    const shown = await waitFor(`the refreshed readers figure of ${relative}`, async () => (s.readers.pageReaders.store.cached(open) ? figure() : undefined));
    const markdown = typeof shown.tooltip === 'string' ? shown.tooltip : (shown.tooltip?.value ?? '');
    const link = /\(command:mintlifyAgent\.openAnalytics\?([^)\s]+)\)/.exec(markdown);
    assert.ok(link, `the tooltip links Open Visitor Analytics with arguments: ${markdown}`);
    const args = JSON.parse(decodeURIComponent(link[1])) as unknown[];
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics', ...args);
  }

  before(async () => {
    s = await seam();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim = await withSimulator({ analyticsLimitPerHour: 1_000, pathCount: 600 });
    // A 429 another suite met leaves a wait every window shares; this server starts with fresh limits.
    await s.sync.update((state) => void Object.assign(state, { waits: {}, ledger: {} }));
    await signIn(s);
    await setProject(PROJECT);
    root = vscode.workspace.workspaceFolders![0].uri;
    await s.readers.pageReaders.setPreset('last30');
    await s.readers.pageReaders.store.clear();
    folder = mkdtempSync(join(tmpdir(), 'mintlify-panel-'));
    sim.clearRequests();
  });
  after(async () => {
    s.analytics.panel()?.dispose();
    if (written) await vscode.workspace.fs.delete(written).then(undefined, () => undefined);
    rmSync(folder, { recursive: true, force: true });
    await s.readers.pageReaders.setPreset('last30');
    await leaveWindowClean(s);
    await sim.close();
  });

  it('Open Visitor Analytics from a page’s tooltip opens the panel on that page’s row, from the readers’ snapshot', async () => {
    assert.equal(s.analytics.panel(), undefined, 'the panel starts closed');
    await openAnalyticsFromTooltip('docs/quickstart.mdx');
    const all = truth();
    const openKey = s.readers.pageReaders.current()!.key;
    const readersCost = endpoint(sim, 'visitors').length;
    assert.equal(
      endpoint(sim, 'visitors').filter((r) => r.query.dateTo === openKey.dateTo).length,
      Math.ceil(all.visitors.length / 250),
      'the writer’s Refresh fetched the whole range',
    );
    const p = await panel();
    await settled(p);
    const rank = all.visitors.findIndex((r) => r.path === '/quickstart') + 1;
    await webview.expect(
      '#focus-message',
      new RegExp(`^Showing /quickstart only: rank ${rank} of ${all.visitors.length.toLocaleString('en-US')} pages in this range\\.$`),
    );
    assert.deepEqual(await webview.paths(), ['/quickstart']);
    const row = all.visitors[rank - 1];
    assert.deepEqual(await webview.texts('#rows tr:first-child td.num'), [row.human, row.ai, row.total].map((n) => n.toLocaleString('en-US')).concat(['']));
    assert.deepEqual(await totals(), all.totals);
    assert.match(await webview.text('#range-label'), /^Last 30 days/);
    assert.equal(endpoint(sim, 'visitors').length, readersCost, 'the panel asked nothing: the snapshot answered');
  });

  it('with the panel already open, another page’s link moves it to that page and its range', async () => {
    await s.readers.pageReaders.setPreset('last7');
    written = vscode.Uri.joinPath(root, 'docs', 'installation.mdx');
    await vscode.workspace.fs.writeFile(written, new TextEncoder().encode('---\ntitle: Installation\n---\n\nBody.\n'));
    await openAnalyticsFromTooltip('docs/installation.mdx');
    const all = truth();
    const p = await panel();
    await waitFor('the installation row', async () => (await webview.paths()).join() === '/installation');
    await settled(p);
    const rank = all.visitors.findIndex((r) => r.path === '/installation') + 1;
    assert.ok(rank > 0, 'the simulator has readers for /installation');
    await webview.expect('#focus-message', new RegExp(`^Showing /installation only: rank ${rank} of`));
    await webview.expect('#range-label', /^Last 7 days/);
    assert.deepEqual(await totals(), all.totals);
    assert.equal(s.analytics.panel(), p, 'the same panel, not a second one');
  });

  it('Clear shows every path; paging a range the snapshot covers costs no request and equals the API', async () => {
    const all = truth();
    const p = await panel();
    sim.clearRequests();
    await webview.click('#clear-focus');
    await waitFor('the focus to go', async () => !(await webview.read('#focus')).visible);
    await settled(p);
    const first = all.visitors
      .slice(0, 50)
      .map((r) => r.path)
      .join('\n');
    await waitFor('page 1 of every path', async () => (await webview.paths()).join('\n') === first).catch(async (error: unknown) => {
      const seen = {
        status: await webview.text('#status'),
        empty: await webview.text('#empty'),
        scope: await webview.text('#scope-note'),
        paths: (await webview.paths()).slice(0, 3),
      };
      throw new Error(
        `${String(error)}; the webview shows ${JSON.stringify(seen)}; the model ${JSON.stringify({ view: p.model.state.view, rows: p.model.state.data?.rows.length })}`,
      );
    });
    for (const page of [2, 3]) {
      await webview.click('#next');
      await webview.expect('#page-label', new RegExp(`^Page ${page}$`));
      await webview.expect('#status', new RegExp(`^Page ${page} from memory`));
      assert.deepEqual(
        await webview.paths(),
        all.visitors.slice((page - 1) * 50, page * 50).map((r) => r.path),
      );
    }
    assert.deepEqual(
      endpoint(sim, 'visitors').map((r) => r.query),
      [],
      'every page came from the readers’ snapshot',
    );
  });

  it('exports the covered range with no request, the same rows the API sends', async () => {
    const all = truth();
    const file = join(folder, 'visitors.csv');
    const user = new ScriptedUser(s.ui).saveAs(vscode.Uri.file(file));
    try {
      sim.clearRequests();
      await webview.click('#export-csv');
      await webview.expect('#export-status', /^Exported .* with 0 requests\.$/, 30_000);
    } finally {
      user.restore();
    }
    assert.equal(endpoint(sim, 'visitors').length, 0);
    const [header, ...rows] = readCsv(readFileSync(file, 'utf8'));
    assert.deepEqual(header, ['path', 'human', 'ai', 'total']);
    assert.deepEqual(
      rows.map(([path, human, ai, total]) => ({ path: unneutralise(path), human: Number(human), ai: Number(ai), total: Number(total) })),
      all.visitors,
    );
  });

  it('Refresh asks the API, and after it the older snapshot no longer stands in', async () => {
    const p = await panel();
    sim.clearRequests();
    await webview.click('#refresh');
    await waitFor('the refresh request', () => endpoint(sim, 'visitors').length === 1);
    await settled(p);
    await webview.expect('#status', /^Fetched at/);
    await webview.click('#next');
    await waitFor('page 4 from the API', () => endpoint(sim, 'visitors').length === 2);
    assert.deepEqual(
      endpoint(sim, 'visitors').map((r) => r.query.offset),
      ['100', '150'],
    );
  });

  it('the metric switch shows view events as the simulator counts them, and exports them', async () => {
    const now = s.readers.pageReaders.current();
    assert.ok(now);
    const views = sim.signalsFor(PROJECT, { dateFrom: now.key.dateFrom, dateTo: now.key.dateTo }).views;
    const p = await panel();
    sim.clearRequests();
    await webview.select('#metric', 'views');
    await waitFor('the views request', () => endpoint(sim, 'views').length === 1);
    await settled(p);
    // The loading screen already names the metric over the old rows: wait for the loaded one.
    await webview.expect('#status', /^Fetched at/);
    assert.deepEqual(endpoint(sim, 'views')[0]?.query, { dateFrom: now.key.dateFrom, dateTo: now.key.dateTo, limit: '50', offset: '0' });
    await webview.expect('#metric-name', /^View events$/);
    await webview.expect('#table-caption', /^View events per page path$/);
    assert.deepEqual(
      await webview.paths(),
      views.views.slice(0, 50).map((r) => r.path),
    );
    assert.deepEqual(await totals(), views.totals);
    assert.equal(endpoint(sim, 'visitors').length, 0);

    const file = join(folder, 'views.csv');
    const user = new ScriptedUser(s.ui).saveAs(vscode.Uri.file(file));
    // View events are never kept as a snapshot: the export may take up to 100 requests, more than this hour has left, so it asks first.
    user.answerMessage = (shown) => shown.actions.find((a) => a.startsWith('Fetch '));
    try {
      sim.clearRequests();
      await webview.click('#export-csv');
      // The line of the visitors export before stays until this one ends: wait for this file's.
      await webview.expect('#export-status', /^Exported .* to views\.csv with /, 30_000);
    } finally {
      user.restore();
    }
    assert.equal(endpoint(sim, 'views').length, Math.ceil(views.views.length / 250));
    assert.equal(endpoint(sim, 'visitors').length, 0);
    const [header, ...rows] = readCsv(readFileSync(file, 'utf8'));
    assert.deepEqual(header, ['path', 'human_views', 'ai_views', 'total_views']);
    assert.deepEqual(
      rows.map(([path, human, ai, total]) => ({ path: unneutralise(path), human: Number(human), ai: Number(ai), total: Number(total) })),
      views.views,
    );
  });

  it('the metric stays chosen when the panel’s webview is torn down and comes back', async () => {
    const p = await panel();
    assert.equal(p.model.state.view.metric, 'views');
    // Another editor in the panel's group hides it: VS Code drops the webview's document, and the
    // one built when it is shown again restores its saved state.
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    sim.clearRequests();
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    await webview.expect('#metric-name', /^View events$/);
    await webview.expect('#table-caption', /^View events per page path$/);
    assert.equal(s.analytics.panel(), p);
    assert.equal(sim.requests.length, 0, 'what was on screen is known: nothing is fetched again');
  });
});
