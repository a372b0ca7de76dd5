// A folder the user has not trusted whose settings raise what the extension spends on the
// organisation's hour: readers.maxPages 100 and signals.backgroundShare 60 (test/run.ts writes them
// with the project). Both are restricted settings, so the user's values (here the defaults, 40 and
// 20) are what is spent, counted at the simulator on a site big enough to spend more. And the
// analytics table shows a path's right-to-left override escaped. Runs in its own host (test/run.ts).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_MAX_PAGES } from '../../src/api/paging';
import { showInvisible } from '../../src/util/visibleText';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { freshAnalyticsHour, ScriptedUser, seam, signIn, visitorRequests, waitFor, withSimulator } from '../integration/support';
import { webview } from '../integration/webview';
import { RAISED_SETTINGS, RESTRICTED_PROJECT } from './project';

/** Reads as "/guides/exe.txt" on screen when shown raw. */
const RTL_PATH = '/guides/\u202etxt.exe';
/** The default share of a background refresh of the signals (signals.backgroundShare). */
const DEFAULT_SHARE = 20;

describe('an untrusted folder whose settings raise spending', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let folder: vscode.Uri;
  const analytics = () => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/')).length;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder is not trusted');
    folder = vscode.workspace.workspaceFolders![0].uri;
    const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.vscode', 'settings.json')))) as Record<string, unknown>;
    for (const [key, value] of Object.entries(RAISED_SETTINGS)) assert.equal(written[key], value, `the folder's settings raise ${key}`);
    s = await seam();
    // About 12,500 paths read in the last 30 days, 51 pages of 250 (the folder's cap of 100 would read
    // them all, under the hour's background ceiling of 60), and signals that take 32 requests.
    sim = await withSimulator({ analyticsLimitPerHour: 10_000, pathCount: 14_000, topPaths: [RTL_PATH], signals: { feedbackItems: 12_000, assistantTurns: 20_000, searchTerms: 5_000 } });
    await signIn(s);
    // The folder's project is used once the user confirms it (test/restricted/untrustedFolder.test.ts).
    if (s.store.projectId !== RESTRICTED_PROJECT) {
      const user = new ScriptedUser(s.ui);
      const use = `Use “${RESTRICTED_PROJECT}”`;
      user.answerMessage = (shown) => (shown.actions.includes(use) ? use : undefined);
      try {
        await vscode.commands.executeCommand('mintlifyAgent.setProjectId');
      } finally {
        user.restore();
      }
    }
    await waitFor('the folder\'s project in use', () => s.store.projectId === RESTRICTED_PROJECT);
  });
  after(async () => {
    s.analytics.panel()?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('mintlifyAgent.clearApiKey');
    await sim.close();
  });

  it(`a readers fetch takes at most the default ${DEFAULT_MAX_PAGES} pages, not the folder's ${RAISED_SETTINGS['mintlifyAgent.readers.maxPages']}`, async () => {
    await freshAnalyticsHour(s);
    await s.readers.readers.store.clear();
    sim.clearRequests();
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'docs', 'quickstart.mdx'), { preview: false });
    await waitFor('the page\'s readers figure', () => s.readers.statusBar.shown?.figures);
    const range = sim.requests.find((r) => r.rawPath.endsWith('/visitors'))?.query ?? {};
    const pages = Math.ceil(sim.visitorsFor(RESTRICTED_PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo }).visitors.length / 250);
    assert.ok(pages > DEFAULT_MAX_PAGES, `the range has ${pages} pages of paths`);
    assert.equal(visitorRequests(sim), DEFAULT_MAX_PAGES, `the fetch stopped at the default cap, of ${pages} pages`);
  });

  it(`a background refresh of the signals spends at most the default share of ${DEFAULT_SHARE}, not the folder's ${RAISED_SETTINGS['mintlifyAgent.signals.backgroundShare']}`, async () => {
    await s.signals.store.forget();
    await freshAnalyticsHour(s);
    sim.clearRequests();
    const outcome = await s.signals.store.refresh('background').catch((error: unknown) => error);
    const background = analytics();
    assert.ok(background > 0 && background <= DEFAULT_SHARE, `${background} analytics requests in the background`);
    assert.ok(!(outcome && typeof outcome === 'object' && 'kind' in outcome && outcome.kind === 'fetched'), 'the snapshot needs more than the share: the refresh stopped');

    // The whole snapshot, as the writer's Fetch Reader Signals takes it: more than the share allowed.
    await freshAnalyticsHour(s);
    sim.clearRequests();
    assert.equal((await s.signals.store.refresh({ grant: s.gate.granted(100) })).kind, 'fetched');
    assert.ok(analytics() > DEFAULT_SHARE, `the whole snapshot takes ${analytics()} requests`);
  });

  it('the analytics table shows a path\'s right-to-left override escaped, as the tree does', async () => {
    await freshAnalyticsHour(s);
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    await webview.expect('#status', /^(Fetched at|Page \d+ from memory)/);
    const paths = await webview.paths();
    assert.ok(paths.includes(showInvisible(RTL_PATH)), `the path shown as ${showInvisible(RTL_PATH)}: ${paths.slice(0, 3).join(', ')}`);
    assert.ok(!paths.some((path) => /[\u202a-\u202e\u2066-\u2069]/.test(path)), 'no raw direction control on screen');
    assert.equal(await webview.count(`#rows button.path[title="${showInvisible(RTL_PATH).replace(/\\/g, '\\\\')}"]`), 1, 'its tooltip shows it escaped too');
  });
});
