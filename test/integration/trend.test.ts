// The trend above the Visitor Analytics table, in the real VS Code host against the simulator: the
// figures read from the chart's text alternative in the real webview equal the simulator's totals
// for each bucket's own range; drawing costs one `limit=1` request a bucket, asked only after the
// cost is shown when it is more than four; settled buckets are kept in the shared store, so another
// window's kept buckets cost nothing here and a Refresh asks again only for today.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AnalyticsPanel } from '../../src/analytics/analyticsPanel';
import { isSettled } from '../../src/analytics/trend/trendBuckets';
import { trendScope } from '../../src/sync/trendBounds';
import { addDays } from '../../src/util/days';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { forgetTrends, freshAnalyticsHour, KEY, PROJECT, ScriptedUser, seam, setProject, waitFor, withSimulator } from './support';
import { webview } from './webview';

/** The user's calendar day, as the panel computes it, shifted by `days`. */
function day(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const count = (text: string) => Number(text.replace(/\D/g, ''));

/** The trend's requests that reached the API: visitors with limit=1. */
const trendRequests = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.endsWith('/visitors') && r.query.limit === '1');

/** A page's trend's requests: pages of 250 paths of one day. */
const oneDay = (r: Simulator['requests'][number]) =>
  r.rawPath.endsWith('/visitors') && r.query.limit === '250' && r.query.dateTo === addDays(r.query.dateFrom ?? '', 1);

describe('the trend above the visitors table', function () {
  this.timeout(90_000);
  let s: TestSeam;
  let sim: Simulator;
  let panel: AnalyticsPanel;

  /** The text alternative's rows as the webview shows them: days, human, AI, total. */
  async function tableRows(): Promise<{ days: string; human: number; ai: number; total: number }[]> {
    const cells = await webview.texts('#trend-table tbody tr > *');
    const rows = [];
    for (let i = 0; i + 3 < cells.length; i += 4)
      rows.push({ days: cells[i].trim(), human: count(cells[i + 1]), ai: count(cells[i + 2]), total: count(cells[i + 3]) });
    return rows;
  }

  /** The last 7 days of `path`'s trend, as the webview's table shows them, are the simulator's row for the page each day. */
  async function expectPageRows(path: string): Promise<void> {
    await webview.expect('#trend-cost', /point/);
    const rows = await tableRows();
    assert.equal(rows.length, 7);
    for (let i = 0; i < 7; i++) {
      const row = sim.visitorsFor(PROJECT, { dateFrom: day(i - 6), dateTo: day(i - 5) }).visitors.find((v) => v.path === path);
      assert.deepEqual(
        { human: rows[i].human, ai: rows[i].ai, total: rows[i].total },
        { human: row?.human ?? 0, ai: row?.ai ?? 0, total: row?.total ?? 0 },
        `${path} on ${day(i - 6)}`,
      );
    }
  }

  async function ready(): Promise<void> {
    await waitFor('the trend drawn', () => panel.model.state.trend?.status === 'ready' && !panel.model.state.loading);
    await webview.expect('#trend-cost', /point/);
  }

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 1_000 });
    const user = new ScriptedUser(s.ui);
    user.type(KEY);
    await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
    user.restore();
    await setProject(PROJECT);
    await freshAnalyticsHour(s);
    await forgetTrends(s); // another simulator's figures, kept by an earlier suite, are not this one's
    sim.clearRequests();
  });
  after(async () => {
    s.analytics.panel()?.dispose();
    await sim.close();
  });

  it('shows the cost of the last 7 days first, then draws each day with the simulator’s own totals for it', async () => {
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    panel = await waitFor('the panel', () => s.analytics.panel());
    await webview.select('#preset', 'last7');
    await webview.expect('#trend-status', /^Drawing the trend takes about 7 analytics requests, of the \d+ left this hour on this machine’s count/);
    assert.equal(trendRequests(sim).length, 0, 'nothing is asked for the trend before Draw');

    await webview.click('#trend-draw');
    await ready();
    assert.equal(trendRequests(sim).length, 7);
    const rows = await tableRows();
    assert.equal(rows.length, 7);
    for (let i = 0; i < 7; i++) {
      const truth = sim.visitorsFor(PROJECT, { dateFrom: day(i - 6), dateTo: day(i - 5) }).totals;
      assert.equal(rows[i].days.slice(0, 10), day(i - 6));
      assert.deepEqual({ human: rows[i].human, ai: rows[i].ai, total: rows[i].total }, truth, `the figures of ${day(i - 6)}`);
    }
    assert.match(rows[6].days, /includes today/);
    assert.equal(await webview.text('#trend-cost'), '7 requests for 7 points.');
  });

  it('keeps the settled days in the shared store, and a Refresh asks again only for the others (today)', async () => {
    const kept = s.sync.trends.keptTrends(PROJECT);
    // Yesterday is settled an hour after its end at UTC (late events): in that hour it is asked again like today.
    const days = [-6, -5, -4, -3, -2, -1, 0].map((i) => ({ day: day(i), settled: isSettled({ dateTo: day(i + 1) }, Date.now()) }));
    assert.ok(days.slice(0, 5).every((d) => d.settled) && !days[6].settled);
    for (const d of days) assert.equal(kept[`visitors ${d.day} ${addDays(d.day, 1)}`] !== undefined, d.settled, `${d.day} is ${d.settled ? '' : 'not '}kept`);
    const before = trendRequests(sim).length;
    await webview.click('#refresh');
    await waitFor('a new trend request', () => trendRequests(sim).length > before);
    await ready();
    const open = days.filter((d) => !d.settled).map((d) => d.day);
    assert.deepEqual(
      trendRequests(sim)
        .slice(before)
        .map((r) => r.query.dateFrom)
        .sort(),
      open,
    );
    assert.equal(
      await webview.text('#trend-cost'),
      open.length === 1 ? '1 request for 7 points; 6 kept from before.' : `${open.length} requests for 7 points; ${7 - open.length} kept from before.`,
    );
  });

  it('draws from the buckets another window kept without a request, and fetches only what is missing', async () => {
    // Another window of the profile kept the days of a range ending last week, as its own file in the shared folder.
    const from = day(-20);
    const trends: Record<string, [number, number, number]> = {};
    const truthOf = (i: number) => sim.visitorsFor(PROJECT, { dateFrom: day(-20 + i), dateTo: day(-19 + i) }).totals;
    for (let i = 0; i < 5; i++) {
      const t = truthOf(i);
      trends[`visitors ${day(-20 + i)} ${day(-19 + i)}`] = [t.human, t.ai, t.total];
    }
    const other = {
      format: 1,
      presence: { window: 'otherwindow1', project: PROJECT, focused: false, beat: 1, beatAt: Date.now(), since: Date.now() },
      state: { jobs: {}, drafts: {}, links: {}, trends: { [trendScope(PROJECT, sim.url)]: trends }, ledger: {}, waits: {} },
    };
    const keptBefore = Object.keys(s.sync.trends.keptTrends(PROJECT)).length;
    writeFileSync(join(s.sync.dir.fsPath, 'w-otherwindow1.json'), JSON.stringify(other));
    await waitFor('the other window’s buckets', () => Object.keys(s.sync.trends.keptTrends(PROJECT)).length >= keptBefore + 5);

    const before = trendRequests(sim).length;
    await webview.select('#preset', 'custom');
    await webview.fill('#from', from);
    await webview.fill('#to', day(-14));
    await webview.click('#apply');
    // Seven days, five kept by the other window: two requests, under the four that need a Draw.
    await waitFor('the trend of the custom range', () => panel.model.state.trend?.status === 'ready' && panel.model.state.trend.points[0]?.from === from);
    await ready();
    assert.deepEqual(
      trendRequests(sim)
        .slice(before)
        .map((r) => r.query.dateFrom)
        .sort(),
      [day(-15), day(-14)],
    );
    assert.equal(await webview.text('#trend-cost'), '2 requests for 7 points; 5 kept from before.');
    const rows = await tableRows();
    for (let i = 0; i < 7; i++) assert.deepEqual({ human: rows[i].human, ai: rows[i].ai, total: rows[i].total }, truthOf(i), `the figures of ${day(-20 + i)}`);
  });

  it('Export Trend saves the points on screen, one row a bucket, as CSV or JSON, without a request', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mintlify-trend-'));
    try {
      const before = sim.requests.length;
      const user = new ScriptedUser(s.ui);
      try {
        user.saveAs(vscode.Uri.file(join(folder, 'trend.csv')));
        user.saveAs(vscode.Uri.file(join(folder, 'trend.json')));
        await webview.click('#trend-export');
        await waitFor('the CSV', () => existsSync(join(folder, 'trend.csv')));
        await webview.click('#trend-export');
        await waitFor('the JSON', () => existsSync(join(folder, 'trend.json')));
      } finally {
        user.restore();
      }
      const lines = readFileSync(join(folder, 'trend.csv'), 'utf8').split('\r\n');
      assert.equal(lines[0], 'from,to,partial,open,human,ai,total');
      assert.equal(lines.length, 1 + 7 + 1, 'a header, a line a day, and the last line break');
      const first = sim.visitorsFor(PROJECT, { dateFrom: day(-20), dateTo: day(-19) }).totals;
      assert.equal(lines[1], `${day(-20)},${day(-20)},false,false,${first.human},${first.ai},${first.total}`);
      const json = JSON.parse(readFileSync(join(folder, 'trend.json'), 'utf8')) as {
        unit: string;
        metric: string;
        points: { from: string; total: number }[];
        previous: unknown;
      };
      assert.deepEqual([json.unit, json.metric, json.points.length, json.points[0].total, json.previous], ['day', 'visitors', 7, first.total, null]);
      assert.equal(sim.requests.length, before, 'saving what is on screen asks nothing');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('Export Trend to a folder that cannot be written says so, with Show Log, and leaves nothing there', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mintlify-trend-'));
    const user = new ScriptedUser(s.ui);
    try {
      user.saveAs(vscode.Uri.file(join(folder, 'gone', 'trend.csv')));
      await webview.click('#trend-export');
      const failure = await waitFor('the failure', () => user.messages.find((m) => m.level === 'error'));
      assert.match(failure.message, /^Could not save the trend to trend\.csv: /);
      assert.deepEqual(failure.actions, ['Show Log']);
      assert.deepEqual(readdirSync(folder), [], 'no file, no temporary file');
    } finally {
      user.restore();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('draws today’s point from another window’s fetch of the last 15 minutes, without a request', async () => {
    // Another window fetched today's bucket just now (its figures a little ahead of this window's, as minutes later).
    const key = `visitors ${day(0)} ${day(1)}`;
    const t = sim.visitorsFor(PROJECT, { dateFrom: day(0), dateTo: day(1) }).totals;
    const theirs = { human: t.human + 3, ai: t.ai + 1, total: t.total + 4 };
    const at = Date.now();
    const openTrends = { [trendScope(PROJECT, sim.url)]: { [key]: [theirs.human, theirs.ai, theirs.total, at] } };
    const other = {
      format: 1,
      presence: { window: 'otherwindow2', project: PROJECT, focused: false, beat: 1, beatAt: at, since: at },
      state: { jobs: {}, drafts: {}, links: {}, trends: {}, openTrends, ledger: {}, waits: {} },
    };
    writeFileSync(join(s.sync.dir.fsPath, 'w-otherwindow2.json'), JSON.stringify(other));
    await waitFor('the other window’s today', () => s.sync.trends.openTrends(PROJECT)[key]?.[3] === at);

    const before = trendRequests(sim).length;
    await webview.select('#preset', 'last7');
    await waitFor('the last 7 days’ trend', () => panel.model.state.trend?.status === 'ready' && panel.model.state.trend.points[6]?.from === day(0));
    await ready();
    assert.deepEqual(
      trendRequests(sim)
        .slice(before)
        .map((r) => r.query.dateFrom),
      [],
      'nothing asked: the settled days are kept, today is the other window’s',
    );
    const rows = await tableRows();
    assert.deepEqual({ human: rows[6].human, ai: rows[6].ai, total: rows[6].total }, theirs);
  });

  it('Show Trend draws one page’s trend: its cost asked first, its row read from every path of each day, then kept', async () => {
    await freshAnalyticsHour(s);
    const week = { dateFrom: day(-6), dateTo: day(1) };
    const path = sim.visitorsFor(PROJECT, week).visitors[3].path;
    const user = new ScriptedUser(s.ui);
    let asked = '';
    user.answerMessage = (m) => {
      asked = m.message;
      return m.actions.find((a) => a === 'Draw Trend');
    };
    try {
      await showAndKeep();
    } finally {
      user.restore();
    }

    async function showAndKeep(): Promise<void> {
      const before = sim.requests.length;
      // The page's row for the range needs every path of the 7 days, not kept here: that question is left unanswered (the row says so).
      await vscode.commands.executeCommand('mintlifyAgent.openAnalytics', { path, preset: 'last7', trend: true });
      assert.match(
        asked,
        new RegExp(
          `^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}’s trend, which reads every path of each day \\(pages of 250 paths\\), takes at least \\d+ analytics requests`,
        ),
      );
      await waitFor('the page’s trend drawn', () => panel.model.state.trend?.status === 'ready' && panel.model.state.focus?.path === path);
      await expectPageRows(path);
      // Every path of each day, in pages of 250: no request beyond what the days' paths need.
      const dayPages = [0, 1, 2, 3, 4, 5, 6].map((i) =>
        Math.max(1, Math.ceil(sim.visitorsFor(PROJECT, { dateFrom: day(i - 6), dateTo: day(i - 5) }).visitors.length / 250)),
      );
      const trendPages = sim.requests.slice(before).filter(oneDay);
      assert.equal(
        trendPages.length,
        dayPages.reduce((a, b) => a + b, 0),
      );
      const kept = s.sync.trends.keptTrends(PROJECT);
      assert.ok(kept[`page:${encodeURIComponent(path)} ${day(-6)} ${day(-5)}`], 'a settled day of the page is kept');

      // Again within the quarter hour: the settled days are kept, today is still fresh, so nothing is read and nothing asked.
      const again = sim.requests.length;
      asked = '';
      await vscode.commands.executeCommand('mintlifyAgent.openAnalytics', { path, preset: 'last7', trend: true });
      await waitFor('the page’s trend drawn again', () => panel.model.state.trend?.status === 'ready');
      assert.deepEqual(sim.requests.slice(again).filter(oneDay), []);
      assert.doesNotMatch(asked, /trend/, 'no question about the trend');
      // The first draw's status is still 'ready': the second draw is done once its own cost line is shown.
      let shown = '';
      const cost = await waitFor(
        () => `the second draw’s cost line (shown: "${shown}")`,
        async () => {
          shown = await webview.text('#trend-cost');
          return shown.startsWith('No request') ? shown : undefined;
        },
      );
      assert.match(cost, /^No request: all 7 points were kept from before\.$/);
      assert.deepEqual(sim.requests.slice(again).filter(oneDay), []);
    }
  });

  it('a second page’s trend over the same days reads only the days still open: the settled days’ rows were kept by the first', async () => {
    await freshAnalyticsHour(s);
    const other = sim.visitorsFor(PROJECT, { dateFrom: day(-6), dateTo: day(1) }).visitors[5].path;
    const user = new ScriptedUser(s.ui);
    user.answerMessage = (m) => m.actions.find((a) => a === 'Draw Trend');
    const before = sim.requests.length;
    try {
      await vscode.commands.executeCommand('mintlifyAgent.openAnalytics', { path: other, preset: 'last7', trend: true });
      await waitFor('the second page’s trend drawn', () => panel.model.state.trend?.status === 'ready' && panel.model.state.focus?.path === other);
    } finally {
      user.restore();
    }
    await expectPageRows(other);
    // The days that have not settled (today, and yesterday until the platform's day has ended) are read again; no other.
    const open = [0, 1, 2, 3, 4, 5, 6].filter((i) => !isSettled({ dateTo: day(i - 5) }, Date.now())).map((i) => day(i - 6));
    const read = [
      ...new Set(
        sim.requests
          .slice(before)
          .filter(oneDay)
          .map((r) => r.query.dateFrom),
      ),
    ].sort();
    assert.ok(open.length < 7, 'some days have settled');
    assert.deepEqual(read, open);
  });

  it('draws by identity: a range changed while its trend is on its way draws the new one, and a day both need is asked once', async () => {
    await forgetTrends(s);
    // The site's trend: the panel shows every path again (the tests before left it on one page).
    await panel.model.handle({ type: 'clearFocus' });
    // The webview redraws its controls from each state the panel posts: pick the range once that is done.
    await waitFor('the panel to show every path, loaded', async () => !panel.model.state.loading && !(await webview.read('#focus')).visible);
    const [a, b] = [
      [day(-40), day(-38)],
      [day(-39), day(-37)],
    ];
    const before = trendRequests(sim).length;
    // Slow answers: the first range's days are still on their way when the second is asked.
    sim.addFault({ fault: { kind: 'latency', ms: 1_500 }, pathIncludes: '/visitors' });
    try {
      // A state posted meanwhile (the trend of the range shown) redraws the select: pick it until the custom fields show.
      await waitFor('the custom range’s fields', async () => (await webview.select('#preset', 'custom'), (await webview.read('#from')).visible));
      await webview.fill('#from', a[0]);
      await webview.fill('#to', a[1]);
      await webview.click('#apply');
      // The simulator counts a request as it arrives, before its slow answer.
      await waitFor('the first range’s days on their way', () => (trendRequests(sim).length - before >= 3 ? true : undefined), 30_000);
      await webview.fill('#from', b[0]);
      await webview.fill('#to', b[1]);
      await webview.click('#apply');
      // Before, one draw field: the first draw's end left the second range's trend loading for good.
      await waitFor(
        'the second range’s trend drawn',
        () => panel.model.state.trend?.status === 'ready' && panel.model.state.trend.points[0]?.from === b[0],
        30_000,
      );
      await waitFor('the first range’s days answered too', () => (trendRequests(sim).length - before >= 4 ? true : undefined), 30_000);
    } finally {
      sim.clearFaults();
    }
    const asked = trendRequests(sim)
      .slice(before)
      .map((r) => r.query.dateFrom ?? '');
    assert.deepEqual([...asked].sort(), [day(-40), day(-39), day(-38), day(-37)], 'each day once: the two days both ranges hold were shared');
    const rows = await tableRows();
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        { human: rows[i].human, ai: rows[i].ai, total: rows[i].total },
        sim.visitorsFor(PROJECT, { dateFrom: day(-39 + i), dateTo: day(-38 + i) }).totals,
      );
  });
});
