// A year-long site trend stays kept in the real VS Code host, however many page trends follow
// (src/sync/trendBounds.ts): drawn once, then ten Show Trends of ten pages, then drawn again, it
// asks nothing for its settled weeks. Against the simulator; requests counted there.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AnalyticsPanel } from '../../src/analytics/analyticsPanel';
import { isSettled } from '../../src/analytics/trend/trendBuckets';
import { addDays } from '../../src/util/days';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { freshAnalyticsHour, KEY, PROJECT, ScriptedUser, seam, setProject, waitFor, withSimulator } from './support';
import { webview } from './webview';

/** The user's calendar day, as the panel computes it, shifted by `days`. */
function day(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The site trend's requests that reached the API: visitors with limit=1. */
const siteTrendRequests = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.endsWith('/visitors') && r.query.limit === '1');

describe('a year-long site trend and ten Show Trends after it', function () {
  this.timeout(300_000);
  let s: TestSeam;
  let sim: Simulator;
  let panel: AnalyticsPanel;

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 10_000 });
    const user = new ScriptedUser(s.ui);
    user.type(KEY);
    await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
    user.restore();
    await setProject(PROJECT);
    await freshAnalyticsHour(s);
    sim.clearRequests();
  });
  after(async () => {
    s.analytics.panel()?.dispose();
    await sim.close();
  });

  async function drawYear(): Promise<void> {
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    panel = await waitFor('the panel', () => s.analytics.panel());
    await panel.model.handle({ type: 'clearFocus' }); // the site's trend, not a page's
    // The webview redraws its controls from each state the panel posts: pick the range once that is done.
    await waitFor('the panel to show every path, loaded', async () => !panel.model.state.loading && !(await webview.read('#focus')).visible);
    // A state posted meanwhile (the trend of the range shown) redraws the select: pick it until the custom fields show.
    await waitFor('the custom range’s fields', async () => (await webview.select('#preset', 'custom'), (await webview.read('#from')).visible));
    await webview.fill('#from', day(-363));
    await webview.fill('#to', day(0));
    await webview.click('#apply');
    // The year's own trend: the panel's range is the year (not the preset it opened on), and its trend asked for or drawn.
    const onYear = () => panel.model.state.view.range.kind === 'custom' && panel.model.state.view.range.from === day(-363);
    await waitFor('the year’s trend asked for or drawn', () => onYear() && ['confirm', 'ready'].includes(panel.model.state.trend?.status ?? ''));
    if (panel.model.state.trend?.status === 'confirm') await webview.click('#trend-draw');
    await waitFor('the year’s trend drawn', () => panel.model.state.trend?.status === 'ready' && panel.model.state.trend.points[0]?.from === day(-363));
  }

  it('draws the site trend again without a request for any of its settled weeks', async () => {
    await drawYear();
    const weeks = panel.model.state.trend?.points ?? [];
    assert.ok(weeks.length >= 52, `a year of weeks (${weeks.length})`);
    const firstDraw = siteTrendRequests(sim).length;
    assert.equal(firstDraw, weeks.length, 'one request a week the first time');

    // Ten pages' trends over the last 30 days, each Drawn when asked (30, not 7: the suites before read
    // the last week's rows in this window, and a day found in those is not fetched, so not kept).
    const pages = sim
      .visitorsFor(PROJECT, { dateFrom: day(-29), dateTo: day(1) })
      .visitors.slice(0, 10)
      .map((v) => v.path);
    assert.equal(pages.length, 10);
    const user = new ScriptedUser(s.ui);
    user.answerMessage = (m) => m.actions.find((a) => a === 'Draw Trend');
    try {
      for (const path of pages) {
        await freshAnalyticsHour(s);
        await vscode.commands.executeCommand('mintlifyAgent.openAnalytics', { path, preset: 'last30', trend: true });
        await waitFor(
          `${path}’s trend drawn`,
          () => panel.model.state.trend?.status === 'ready' && panel.model.state.focus?.path === path && panel.model.state.trend.points.length === 30,
          60_000,
        );
      }
    } finally {
      user.restore();
    }
    // The first page's settled days are kept in the shared folder; the next pages' rows were found in the days the first read.
    const pageKeys = Object.keys(s.sync.trends.keptTrends(PROJECT)).filter((k) => k.startsWith('page:'));
    assert.ok(
      pageKeys.length >= 5,
      `the pages’ settled days are kept (${pageKeys.length}; the last trend: ${JSON.stringify({ cost: panel.model.state.trend?.cost, message: panel.model.state.trend?.message, missing: panel.model.state.trend?.points.filter((p) => p.missing).length, keys: Object.keys(s.sync.trends.keptTrends(PROJECT)).slice(0, 3) })})`,
    );

    // The site trend again, in a panel opened afresh.
    await freshAnalyticsHour(s);
    s.analytics.panel()?.dispose();
    const before = sim.requests.length;
    await drawYear();
    const asked = sim.requests
      .slice(before)
      .filter((r) => r.rawPath.endsWith('/visitors') && r.query.limit === '1')
      .map((r) => r.query.dateFrom);
    const settledAsked = (panel.model.state.trend?.points ?? []).filter((p) => asked.includes(p.from) && isSettled({ dateTo: addDays(p.to, 1) }, Date.now()));
    assert.deepEqual(
      settledAsked.map((p) => p.from),
      [],
      'no settled week asked again',
    );
  });
});
