// Readers in the editor, in the real VS Code host against the simulator: the status item for the
// active docs page, its tooltip, the range (opening a page fetches its settled days, ending
// yesterday), the request cost (counted at the simulator), a reload from storage, and the Explorer marks.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator, VisitorRow } from '../simulator/server';
import {
  backgroundRange,
  freshAnalyticsHour,
  PROJECT,
  ScriptedUser,
  seam,
  setProject,
  signIn,
  tooltipText,
  visitorRequests,
  waitFor,
  withSimulator,
} from './support';

const PATHS = 600;
/** Simple paths the test can write as files, leaving the fixture's own pages alone. */
const writable = (path: string) => path.length < 100 && /^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(path) && path !== '/quickstart' && path !== '/guides/webhooks';
const figure = (row: VisitorRow) => `${row.total.toLocaleString('en-US')} readers · ${Math.round((row.ai / row.total) * 100)}% AI`;

describe('page readers', function () {
  this.timeout(90_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: vscode.Uri;
  const created: vscode.Uri[] = [];

  /** The current range as background work fetches it (its settled days), and the simulator's count of it. */
  const truthNow = () => {
    const now = s.readers.pageReaders.current();
    assert.ok(now, 'a project and a key are set');
    const { range, key } = backgroundRange(s);
    return { now, range, truth: sim.visitorsFor(PROJECT, { dateFrom: key.dateFrom, dateTo: key.dateTo }) };
  };

  async function open(uri: vscode.Uri): Promise<void> {
    await vscode.window.showTextDocument(uri, { preview: false });
    await waitFor(`the active editor ${uri.path}`, () => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString());
  }

  /** Opens a page and waits for its figure (not the loading text). */
  async function figureOf(uri: vscode.Uri) {
    await open(uri);
    return waitFor(`the readers figure for ${uri.path}`, async () => {
      const shown = s.readers.statusBar.shown;
      return shown?.figures && shown.page.uri.toString() === uri.toString() ? shown : undefined;
    });
  }

  async function write(relative: string, text = '---\ntitle: Test page\n---\n\nBody.\n'): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(root, ...relative.split('/'));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    created.push(uri);
    return uri;
  }

  before(async () => {
    s = await seam();
    // A docs page left open by another suite would fetch as soon as the key and project change.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim = await withSimulator({ analyticsLimitPerHour: 1_000, pathCount: PATHS });
    await signIn(s);
    await setProject(PROJECT);
    root = vscode.workspace.workspaceFolders![0].uri;
    await s.readers.pageReaders.setPreset('last30');
    await s.readers.pageReaders.store.clear();
    await freshAnalyticsHour(s);
    sim.clearRequests();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const uri of created) await vscode.workspace.fs.delete(uri, { recursive: true }).then(undefined, () => undefined);
    await vscode.workspace.getConfiguration('mintlifyAgent.readers').update('explorerTop', undefined, vscode.ConfigurationTarget.Workspace);
    await sim.close();
  });

  it('shows docs/quickstart.mdx readers as the simulator counts them, with the figures in the tooltip', async () => {
    const shown = await figureOf(vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx'));
    const { range, truth } = truthNow();
    const row = truth.visitors.find((r) => r.path === '/quickstart');
    assert.ok(row, 'the simulator has readers for /quickstart');
    assert.equal(shown.page.sitePath, '/quickstart');
    assert.equal(shown.text, figure(row));
    const tip = tooltipText(shown.tooltip);
    for (const value of [row.human, row.ai, row.total]) assert.ok(tip.includes(`| ${value.toLocaleString('en-US')} |`), `${value} in ${tip}`);
    assert.ok(tip.includes(`Last 30 days (${range.from} to ${range.to})`), `the settled days, ending yesterday: ${tip}`);
    assert.match(tip, /Fetched .+ with \d+ request/);
    for (const command of ['mintlifyAgent.openAnalytics', 'mintlifyAgent.changeReadersRange', 'mintlifyAgent.refreshReaders', 'mintlifyAgent.askAboutThis'])
      assert.ok(tip.includes(`command:${command}`), command);
    assert.equal(visitorRequests(sim), Math.ceil(truth.visitors.length / 250));
  });

  it('says "no readers in 30 days" for a page no one read', async () => {
    const shown = await figureOf(await write('docs/guides/never-read-by-anyone.mdx'));
    assert.equal(shown.page.sitePath, '/guides/never-read-by-anyone');
    assert.equal(shown.text, 'no readers in 30 days');
  });

  it('shows nothing for a file that is not a page', async () => {
    for (const uri of [vscode.Uri.joinPath(root, 'docs', 'docs.json'), await write('notes-beside-the-docs.md')]) {
      // From a page's figure, so the item going away is this file's doing.
      await figureOf(vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx'));
      await open(uri);
      await waitFor(`no readers item for ${uri.path}`, () => s.readers.statusBar.shown === undefined);
    }
  });

  it('follows a change of range', async () => {
    const uri = vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx');
    await figureOf(uri);
    const user = new ScriptedUser(s.ui).pick((items) => items.find((i) => (i as { id?: string }).id === 'last7'));
    await vscode.commands.executeCommand('mintlifyAgent.changeReadersRange');
    user.restore();
    // Change Range is the writer asking: the range with today, as the picker names it.
    const now = s.readers.pageReaders.current();
    assert.ok(now);
    const range = now.range;
    const truth = sim.visitorsFor(PROJECT, { dateFrom: now.key.dateFrom, dateTo: now.key.dateTo });
    assert.equal(now.preset, 'last7');
    const row = truth.visitors.find((r) => r.path === '/quickstart');
    assert.ok(row);
    const shown = await waitFor('the last-7-days figure', async () => {
      return s.readers.statusBar.shown?.text === figure(row) ? s.readers.statusBar.shown : undefined;
    });
    assert.ok(tooltipText(shown.tooltip).includes(`Last 7 days (${range.from} to ${range.to})`));
    await s.readers.pageReaders.setPreset('last30');
  });

  it('costs ceil(paths/250) requests for 20 pages, and nothing after a reload within the hour', async () => {
    await s.readers.pageReaders.store.clear();
    sim.clearRequests();
    const { truth } = truthNow();
    const plain = truth.visitors.filter((r) => writable(r.path)).slice(0, 21);
    assert.equal(plain.length, 21);
    for (const row of plain.slice(0, 20)) {
      const shown = await figureOf(await write(`docs${row.path}.mdx`));
      assert.equal(shown.text, figure(row), row.path);
    }
    assert.equal(visitorRequests(sim), Math.ceil(truth.visitors.length / 250));

    // As after a window reload: memory is gone, the snapshot comes back from workspace storage.
    s.readers.pageReaders.store.forgetMemory();
    sim.clearRequests();
    const last = plain[20];
    const shown = await figureOf(await write(`docs${last.path}.mdx`));
    assert.equal(shown.text, figure(last));
    assert.equal(visitorRequests(sim), 0);
  });

  it('marks the top N pages in the Explorer with their rank and figures', async () => {
    await vscode.workspace.getConfiguration('mintlifyAgent.readers').update('explorerTop', 5, vscode.ConfigurationTarget.Workspace);
    const { truth } = truthNow();
    const ranked = truth.visitors.map((row, i) => ({ row, rank: i + 1 })).filter(({ row }) => writable(row.path) || row.path === '/quickstart');
    for (const { row, rank } of ranked.slice(0, 8)) {
      const uri = vscode.Uri.joinPath(root, 'docs', ...`${row.path.slice(1)}.mdx`.split('/'));
      if (!created.some((c) => c.toString() === uri.toString()) && row.path !== '/quickstart') await write(`docs${row.path}.mdx`);
      const mark = await s.readers.decorations.provideFileDecoration(uri);
      if (rank > 5) {
        assert.equal(mark, undefined, `${row.path} (rank ${rank}) is not marked`);
        continue;
      }
      assert.ok(mark, `${row.path} (rank ${rank}) is marked`);
      assert.equal(mark.badge, String(rank));
      const pct = Math.round((row.ai / row.total) * 100);
      assert.equal(
        mark.tooltip,
        `#${rank} most read: ${row.total.toLocaleString('en-US')} readers (${row.human.toLocaleString('en-US')} human, ${row.ai.toLocaleString('en-US')} AI, ${pct}% AI)`,
      );
    }
    assert.equal(await s.readers.decorations.provideFileDecoration(vscode.Uri.joinPath(root, 'docs', 'docs.json')), undefined);
  });
});
