// A folder the user has not trusted whose settings raise what the extension spends on the
// organisation's hour: readers.maxPages 100, signals.backgroundShare 60 and analytics.teamSize 1
// (test/run.ts writes them with the project). All are restricted settings, so the user's values (here
// the defaults: 40 pages, a share of 20, a team of 10, so 6 background requests an hour for this
// machine) are what is spent, counted at the simulator on a site big enough to spend more. And the
// analytics table shows a path's right-to-left override escaped. Runs in its own host (test/run.ts).
import { settledWhen } from '../../src/analytics/visitorsSnapshot';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_MAX_PAGES } from '../../src/api/paging';
import { startingShareOf } from '../../src/hour/hourGate';
import { showInvisible } from '../../src/util/visibleText';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { freshAnalyticsHour, ScriptedUser, seam, signIn, visitorRequests, waitFor, withSimulator } from '../integration/support';
import { webview } from '../integration/webview';
import { RAISED_SETTINGS, RESTRICTED_PROJECT } from './project';

/** Reads as "/guides/exe.txt" on screen when shown raw. */
const RTL_PATH = '/guides/\u202etxt.exe';
/** This machine's background requests in its first half hour with no 429 seen, with the default team of 10 (the folder's team of 1 would make it 60). */
const MACHINE_SHARE = startingShareOf(10);

describe('an untrusted folder whose settings raise spending', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let folder: vscode.Uri;
  const analytics = () => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/')).length;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder is not trusted');
    folder = vscode.workspace.workspaceFolders![0].uri;
    const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.vscode', 'settings.json')))) as Record<
      string,
      unknown
    >;
    for (const [key, value] of Object.entries(RAISED_SETTINGS)) assert.equal(written[key], value, `the folder's settings raise ${key}`);
    s = await seam();
    // About 12,500 paths read in the last 30 days, 51 pages of 250 (the folder's cap of 100 would read
    // them all, under the hour's background ceiling of 60), and signals that take 32 requests.
    sim = await withSimulator({
      analyticsLimitPerHour: 10_000,
      pathCount: 14_000,
      topPaths: [RTL_PATH],
      signals: { feedbackItems: 12_000, assistantTurns: 20_000, searchTerms: 5_000 },
    });
    await signIn(s);
    // The folder's project is used once the user confirms it (test/restricted/untrustedFolder.test.ts).
    if (s.jobs.projectId !== RESTRICTED_PROJECT) {
      const user = new ScriptedUser(s.ui);
      const use = `Use “${RESTRICTED_PROJECT}”`;
      user.answerMessage = (shown) => (shown.actions.includes(use) ? use : undefined);
      try {
        await vscode.commands.executeCommand('mintlifyAgent.setProjectId');
      } finally {
        user.restore();
      }
    }
    await waitFor("the folder's project in use", () => s.jobs.projectId === RESTRICTED_PROJECT);
  });
  after(async () => {
    s.analytics.panel()?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('mintlifyAgent.clearApiKey');
    await sim.close();
  });

  it(`background readers take this machine's default share of ${MACHINE_SHARE}, and the writer's fetch at most the default ${DEFAULT_MAX_PAGES} pages, not the folder's ${RAISED_SETTINGS['mintlifyAgent.readers.maxPages']}`, async () => {
    await freshAnalyticsHour(s);
    await s.readers.pageReaders.store.clear();
    sim.clearRequests();
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'docs', 'quickstart.mdx'), { preview: false });
    // Nobody asked: the figure is gathered a few pages an hour, as the default team of 10 allows.
    await waitFor(
      "the page's readers figure, or the pages gathered so far",
      () => s.readers.statusBar.shown?.figures ?? (/pages fetched/.test(s.readers.statusBar.shown?.text ?? '') || undefined),
    );
    assert.equal(
      visitorRequests(sim),
      MACHINE_SHARE,
      `the background fetch took this machine's share of a team of 10, not the folder's team of ${RAISED_SETTINGS['mintlifyAgent.analytics.teamSize']}`,
    );

    // The writer fetches the rest now (the item's click): it goes on from the pages kept and stops at the default cap.
    // In the hour after midnight UTC yesterday is not over at the platform yet: the background pages
    // are shown, not gone on from, and the writer's fetch starts the range again (settledRanges.ts).
    const range = sim.requests.find((r) => r.rawPath.endsWith('/visitors'))?.query ?? {};
    const goesOn = settledWhen({ dateTo: range.dateTo }, Date.now());
    const expected = goesOn ? DEFAULT_MAX_PAGES : MACHINE_SHARE + DEFAULT_MAX_PAGES;
    const user = new ScriptedUser(s.ui);
    user.answerMessage = (shown) => shown.actions[0];
    try {
      await vscode.commands.executeCommand('mintlifyAgent.refreshReaders');
      await waitFor(
        "the page's readers figure, or the range fetched to its cap",
        () => s.readers.statusBar.shown?.figures ?? (visitorRequests(sim) >= expected || undefined),
      );
    } finally {
      user.restore();
    }
    const pages = Math.ceil(sim.visitorsFor(RESTRICTED_PROJECT, { dateFrom: range.dateFrom, dateTo: range.dateTo }).visitors.length / 250);
    assert.ok(pages > DEFAULT_MAX_PAGES, `the range has ${pages} pages of paths`);
    assert.equal(
      visitorRequests(sim),
      expected,
      `the fetch stopped at the default cap, of ${pages} pages (${goesOn ? 'gone on from the background pages' : 'started again'})`,
    );
  });

  it(`a background refresh of the signals is held to this machine's default share of ${MACHINE_SHARE}, not the folder's ${RAISED_SETTINGS['mintlifyAgent.signals.backgroundShare']}`, async () => {
    await s.signals.store.forget();
    await freshAnalyticsHour(s);
    sim.clearRequests();
    // The snapshot takes more than the share allows, so background work never starts it (it would
    // keep nothing partial); with the folder's settings honoured (a team of 1, a share of 60) it would.
    const outcome = await s.signals.store.refresh('background').catch((error: unknown) => error);
    assert.equal(analytics(), 0, `${analytics()} analytics requests in the background`);
    assert.ok(
      !(outcome && typeof outcome === 'object' && 'kind' in outcome && outcome.kind === 'fetched'),
      'the snapshot needs more than the share: the refresh did not run',
    );

    // The whole snapshot, as the writer's Fetch Reader Signals takes it: more than the share allowed.
    await freshAnalyticsHour(s);
    sim.clearRequests();
    assert.equal((await s.signals.store.refresh({ grant: s.gate.granted(100) })).kind, 'fetched');
    assert.ok(analytics() > MACHINE_SHARE, `the whole snapshot takes ${analytics()} requests`);
  });

  it("the analytics table shows a path's right-to-left override escaped, as the tree does", async () => {
    await freshAnalyticsHour(s);
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    await webview.expect('#status', /^(Fetched at|Page \d+ from memory)/);
    const paths = await webview.paths();
    assert.ok(paths.includes(showInvisible(RTL_PATH)), `the path shown as ${showInvisible(RTL_PATH)}: ${paths.slice(0, 3).join(', ')}`);
    assert.ok(!paths.some((path) => /[\u202a-\u202e\u2066-\u2069]/.test(path)), 'no raw direction control on screen');
    assert.equal(await webview.count(`#rows button.path[title="${showInvisible(RTL_PATH).replace(/\\/g, '\\\\')}"]`), 1, 'its tooltip shows it escaped too');
  });
});
