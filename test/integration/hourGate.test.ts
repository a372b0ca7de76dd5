// The one gate for the organisation's analytics hour, as a writer meets it in the real VS Code host
// on a large site (5,000 paths: 20 pages of 250 a range): with 6 requests left, Compare, the panel
// opened on one page and Export each ask first, in the one wording with "6 are left", and send at
// most 6; Show Full Thread with 0 left sends nothing and says when one frees up; the trend offers
// the newest points that fit and draws them; a background fetch and a language model tool's fetch
// started while a writer's fetch runs are held to the ceiling. Every request is counted at the simulator.
import { settledWhen } from '../../src/analytics/visitorsSnapshot';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { createApiClient, type ApiClient } from '../../src/api';
import { fetchAllVisitors } from '../../src/analytics/visitorsQuery';
import { HourGate, type HourGrant } from '../../src/hour/hourGate';
import { BACKGROUND_CEILING } from '../../src/hour/ledger';
import { WindowSync } from '../../src/sync/windowSync';
import { Settings } from '../../src/config';
import { resolvePreset } from '../../src/analytics/dateRange';
import { TOOLS } from '../../src/tools/toolNames';
import { localToday } from '../../src/util/days';
import type { Simulator } from '../simulator/server';
import {
  backgroundRange,
  forgetTrends,
  freshAnalyticsHour,
  KEY,
  leaveWindowClean,
  PROJECT,
  ScriptedUser,
  seam,
  setProject,
  setUserSetting,
  signIn,
  tooltipText,
  visitorRequests,
  waitFor,
  withSimulator,
  spendHour,
} from './support';

const LEFT = 6;
const analytics = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/'));
const COUNT = 'left this hour on this machine’s count (teammates on other machines also spend it)';

describe('the hour’s gate (every analytics request a writer causes)', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: vscode.Uri;

  /** Other windows' requests this hour, as the shared ledger records them, until `left` are left. */
  async function leave(left: number): Promise<void> {
    await freshAnalyticsHour(s);
    await spendHour(s, 100 - left);
    await waitFor(`${left} left in the hour`, () => s.gate.left() === left);
    sim.clearRequests();
  }

  before(async () => {
    s = await seam();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim = await withSimulator({ analyticsLimitPerHour: 10_000, pathCount: 5_000 });
    await signIn(s);
    await setProject(PROJECT);
    // The hour another suite spent (or a 429's wait it met) is not this suite's: the first page must fit.
    await freshAnalyticsHour(s);
    root = vscode.workspace.workspaceFolders![0].uri;
    await s.readers.pageReaders.setPreset('last30');
  });
  beforeEach(async () => {
    s.analytics.panel()?.dispose();
    await s.readers.pageReaders.store.clear();
    sim.clearFaults();
  });
  after(async () => {
    s.analytics.panel()?.dispose();
    await freshAnalyticsHour(s);
    await leaveWindowClean(s);
    await sim.close();
  });

  it('Compare asks with what is left, and fetches only that much of the previous period, saying what it left out', async () => {
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    const panel = await waitFor('the panel', () => s.analytics.panel());
    await waitFor('the first page', () => !panel.model.state.loading && panel.model.state.data?.current);
    await leave(LEFT);
    const user = new ScriptedUser(s.ui);
    try {
      user.answerMessage = (shown) => shown.actions.find((a) => a === `Fetch ${LEFT}`);
      await panel.model.handle({ type: 'setCompare', on: true });
      const ask = user.messages.find((m) => m.actions.includes(`Fetch ${LEFT}`));
      assert.ok(ask, `asked first: ${JSON.stringify(user.messages)}`);
      assert.match(
        ask.message,
        new RegExp(
          `^Fetching every path of .* to compare takes one analytics request per 250 paths \\(the site’s size is not known yet\\), stopping at ${LEFT}, of the ${LEFT} ${COUNT.replace(/[()]/g, '\\$&')}\\.`,
        ),
      );
      const compare = await waitFor('the comparison', () => (panel.model.state.compare?.status === 'ready' ? panel.model.state.compare : undefined));
      assert.equal(visitorRequests(sim), LEFT, 'at most what was left');
      assert.match(compare.message ?? '', new RegExp(`^Only the ${LEFT * 250} most read paths of the previous period were fetched \\(${LEFT} requests\\)`));
      assert.equal(s.gate.left(), 0, 'the hour spent, never overspent');
    } finally {
      user.restore();
      await panel.model.handle({ type: 'setCompare', on: false });
    }
  });

  it('the panel opened on one page asks with what is left and sends at most that', async () => {
    await leave(LEFT);
    const user = new ScriptedUser(s.ui);
    try {
      user.answerMessage = (shown) => shown.actions.find((a) => a === `Fetch ${LEFT}`);
      await vscode.commands.executeCommand('mintlifyAgent.openAnalytics', { path: '/quickstart', preset: 'last90' });
      const panel = await waitFor('the panel', () => s.analytics.panel());
      await waitFor('the page’s row', () =>
        panel.model.state.focus?.status !== 'pending' && !panel.model.state.loading ? panel.model.state.focus : undefined,
      );
      const ask = user.messages.find((m) => m.actions.includes(`Fetch ${LEFT}`));
      assert.ok(ask, `asked first: ${JSON.stringify(user.messages)}`);
      assert.match(
        ask.message,
        new RegExp(
          `^Finding one page among every path of the range takes one analytics request per 250 paths \\(the site’s size is not known yet\\), stopping at ${LEFT}, of the ${LEFT} left this hour`,
        ),
      );
      assert.ok(visitorRequests(sim) > 0 && visitorRequests(sim) <= LEFT, `${visitorRequests(sim)} requests: some, and at most the ${LEFT} left`);
    } finally {
      user.restore();
    }
  });

  it('Export asks before its save dialog with what is left, and writes what fit, saying it was cut short', async () => {
    await leave(LEFT);
    const folder = mkdtempSync(join(tmpdir(), 'mintlify-gate-'));
    const user = new ScriptedUser(s.ui);
    try {
      user.answerMessage = (shown) => shown.actions.find((a) => a === `Fetch ${LEFT}`);
      user.pick((items) => items.find((item) => item.label === 'Last 90 days'));
      user.saveAs(vscode.Uri.file(join(folder, 'visitors.csv')));
      const status = await vscode.commands.executeCommand<{ state: string; requests?: number } | undefined>('mintlifyAgent.exportVisitors');
      const ask = user.messages.find((m) => m.actions.includes(`Fetch ${LEFT}`));
      assert.ok(ask, `asked first: ${JSON.stringify(user.messages)}`);
      assert.match(
        ask.message,
        new RegExp(
          `^Exporting visitors \\(Last 90 days \\(.*\\)\\) takes one analytics request per 250 paths \\(the site’s size is not known yet\\), stopping at ${LEFT}, of the ${LEFT} left this hour`,
        ),
      );
      assert.equal(status?.state, 'done');
      assert.equal(visitorRequests(sim), LEFT);
      assert.ok(
        user.messages.some(
          (m) => /The export: stopped after 6 pages: that is what the organisation’s analytics hour allowed it\./.test(m.message) && m.level === 'warning',
        ),
        JSON.stringify(user.messages.map((m) => m.message)),
      );
    } finally {
      user.restore();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a writer who declines sends nothing', async () => {
    await leave(LEFT);
    const user = new ScriptedUser(s.ui);
    try {
      user.pick((items) => items.find((item) => item.label === 'Last 90 days'));
      await vscode.commands.executeCommand('mintlifyAgent.exportVisitors');
      assert.ok(user.messages.some((m) => m.actions.includes(`Fetch ${LEFT}`)));
      assert.equal(analytics(sim).length, 0);
    } finally {
      user.restore();
    }
  });

  it('Show Full Thread with 0 left sends nothing and says when one frees up; with some left it reads the one thread', async () => {
    await freshAnalyticsHour(s);
    await s.signals.store.forget();
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
      const groups = s.signals.tree.getChildren(s.signals.tree.getChildren()[2]);
      const question = groups.flatMap((g) => s.signals.tree.getChildren(g))[0];
      assert.ok(question?.type === 'question');
      await leave(0);
      await vscode.commands.executeCommand('mintlifyAgent.showAssistantThread', question);
      assert.equal(analytics(sim).length, 0);
      assert.match(
        user.lastMessage()?.message ?? '',
        new RegExp(`^Reading the whole thread needs 1 analytics request, and none are ${COUNT.replace(/[()]/g, '\\$&')}; one is free in (59 min|1 h)\\.`),
      );
      await leave(1);
      await vscode.commands.executeCommand('mintlifyAgent.showAssistantThread', question);
      assert.equal(analytics(sim).length, 1);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      user.restore();
      await s.signals.store.forget();
    }
  });

  it('the trend offers the newest points that fit, and draws exactly those', async () => {
    await forgetTrends(s);
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    const panel = await waitFor('the panel', () => s.analytics.panel());
    await waitFor('the first page', () => !panel.model.state.loading && panel.model.state.data?.current);
    await leave(LEFT);
    await panel.model.handle({ type: 'setRange', range: { kind: 'preset', preset: 'last30' } });
    const question = await waitFor('the trend’s question', () => (panel.model.state.trend?.status === 'confirm' ? panel.model.state.trend : undefined));
    assert.match(
      question.message ?? '',
      new RegExp(`^Drawing the trend needs about 30 analytics requests; ${LEFT} are left this hour .* Draw Trend draws the newest points that fit`),
    );
    sim.clearRequests();
    await panel.model.handle({ type: 'drawTrend' });
    const drawn = await waitFor('the trend', () => (panel.model.state.trend?.status === 'ready' ? panel.model.state.trend : undefined));
    assert.equal(visitorRequests(sim), LEFT);
    const fetched = drawn.points.filter((p) => !p.missing);
    assert.equal(fetched.length, LEFT);
    assert.deepEqual(fetched, drawn.points.slice(-LEFT), 'the newest');
    assert.match(drawn.message ?? '', /^24 points are not fetched yet/);
    await forgetTrends(s); // a trend drawn in part is not what the next suites expect to find kept
  });

  it('two windows of this profile spending at once with 6 left send at most 6 between them', async () => {
    await leave(LEFT);
    // A second window's end of the profile's shared folder (its own WindowSync, gate and client) in this host.
    const salt = s.sync.state.salt;
    assert.ok(salt, 'the install’s salt is agreed');
    const install = { get: () => salt, update: () => Promise.resolve(), keys: () => [] } as unknown as vscode.Memento;
    const other = new WindowSync(s.sync.dir, { info: () => undefined, warn: () => undefined }, install);
    try {
      await other.ready;
      await other.ledger.setKey(KEY);
      await waitFor('the second window to see the hour', () => (other.ledger.account.analyticsTimes()?.length === 100 - LEFT ? true : undefined));
      const otherGate = new HourGate(other.ledger.account, s.ui, vscode.l10n);
      const otherApi = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY });
      const range = { dateFrom: resolvePreset('last90', localToday(), vscode.l10n).dateFrom, dateTo: undefined };
      const spend = (api: ApiClient, grant: HourGrant) =>
        fetchAllVisitors((p, q, o) => api.getVisitors(p, q, o), PROJECT, range, { grant, maxPages: 20 }).finally(() => grant.end());
      // This window spends through its own gate (its window's end of the ledger); the client itself holds no count.
      const api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => KEY });
      const [mine, theirs] = await Promise.all([spend(api, s.gate.granted(LEFT)), spend(otherApi, otherGate.granted(LEFT))]);
      assert.ok(visitorRequests(sim) > 0, 'they sent what fit');
      assert.ok(visitorRequests(sim) <= LEFT, `${visitorRequests(sim)} requests reached the simulator with ${LEFT} left`);
      assert.equal(mine.pages + theirs.pages, visitorRequests(sim));
    } finally {
      // Closed, and its file gone with it: what it reserved is not merged back into the next test's hour.
      other.dispose();
      await other.store.write().catch(() => undefined);
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(s.sync.dir, `w-${other.windowId}.json`)).then(undefined, () => undefined);
    }
  });

  it('a background fetch and a tool’s fetch started while a writer’s fetch runs are held to the ceiling; the writer’s is not', async () => {
    await leave(100 - (BACKGROUND_CEILING - 4)); // four below the ceiling
    await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
    const panel = await waitFor('the panel', () => s.analytics.panel());
    await waitFor(
      'the first page and its trend',
      () => !panel.model.state.loading && panel.model.state.data?.current && panel.model.state.trend?.status !== 'loading',
    );
    sim.clearRequests();
    // From here every visitors answer takes 10 s: the writer's first requests are held on their way while the page and the tool ask.
    sim.addFault({ fault: { kind: 'latency', ms: 10_000 }, pathIncludes: '/visitors' });
    const byRange = (dateFrom: string | undefined) => sim.requests.filter((r) => r.rawPath.endsWith('/visitors') && r.query.dateFrom === dateFrom).length;
    const user = new ScriptedUser(s.ui);
    try {
      user.answerMessage = (shown) => shown.actions.find((a) => a === 'Compare' || a.startsWith('Fetch'));
      const comparing = panel.model.handle({ type: 'setCompare', on: true });
      await waitFor('the writer’s fetch on its way', () => (visitorRequests(sim) > 0 ? true : undefined));
      const room = s.gate.modelRoom() ?? 0;
      assert.ok(room >= 1, `the writer’s requests on their way leave room below the ceiling (${room})`);
      // A docs page shown now (background work for the readers' range) and the editor's AI asking for
      // another range: neither is made "asked" by the writer's fetch under way.
      await vscode.window.showTextDocument(vscode.Uri.joinPath(root, 'docs', 'quickstart.mdx'), { preview: false });
      await s.tools[TOOLS.visitors].prepareInvocation?.({ range: 'last90' });
      const answer = await s.tools[TOOLS.visitors].invoke({ range: 'last90' }, new vscode.CancellationTokenSource().token);
      const toolSaid = typeof answer === 'string' ? answer : answer.text;
      sim.clearFaults();
      await comparing;
      await waitFor('the page’s readers to settle', () => {
        const shown = s.readers.statusBar.shown;
        return shown && !shown.text.includes('Loading') ? shown : undefined;
      });
      // Background work fetches the range's settled days (whole days ending yesterday).
      const { key } = backgroundRange(s);
      const readers = byRange(key.dateFrom);
      const last90 = byRange(resolvePreset('last90', localToday(), vscode.l10n).dateFrom);
      const compared = visitorRequests(sim) - readers - last90;
      assert.ok(compared > 4, `the writer’s Compare is not held to the ceiling (${compared} requests)`);
      assert.ok(readers + last90 > 0, 'the room below the ceiling was used: the page’s fetch and the tool’s sent something');
      assert.ok(readers + last90 <= room, `the page’s fetch sent ${readers} and the tool’s ${last90}: together at most the ${room} below the ceiling`);
      // The tool answered what it sent: the pages it fetched (a range that includes today, cut short), or that nothing was sent.
      if (last90 > 0) {
        assert.match(toolSaid, new RegExp(`fetched \\S+ with ${last90} requests\\.`), toolSaid);
        assert.match(toolSaid, new RegExp(`Only the ${last90 * 250} most read paths were fetched`), toolSaid);
      } else assert.match(toolSaid, /Nothing was sent/, toolSaid);
      // Held is not the same as lost: what the page's fetch sent is kept and shown, and when it sent nothing the item says why.
      const kept = s.readers.pageReaders.store.cached(key);
      assert.equal(kept?.pages ?? 0, readers, `every page the background fetch sent is kept (${readers} sent)`);
      const item = s.readers.statusBar.shown!;
      if (readers > 0) {
        // Its days over here and at the platform: it goes on from its pages later. In the hour after
        // midnight UTC yesterday is not over at the platform yet: a cut fetch is shown, not gathered (settledRanges.ts).
        if (settledWhen(key, kept!.fetchedAt)) assert.equal(kept?.gathering, true, 'a settled range goes on from its pages later');
        else assert.ok(kept?.capped && !kept.gathering, 'a range not over at the platform yet is shown cut short, not gathered');
        assert.ok(item.figures?.kind === 'read' || new RegExp(`${readers} pages fetched so far`).test(item.text), item.text);
      } else assert.ok(!item.figures && /Click to load/.test(tooltipText(item.tooltip)), `sent nothing and offers the load: ${item.text}`);
    } finally {
      user.restore();
      sim.clearFaults();
      await panel.model.handle({ type: 'setCompare', on: false });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('a trusted workspace’s analytics.teamSize is never read: only the user’s (or machine’s) value sets this machine’s share', async () => {
    const file = vscode.Uri.joinPath(root, '.vscode', 'settings.json');
    const before = await vscode.workspace.fs.readFile(file).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => undefined,
    );
    const settings = new Settings({ get: () => undefined, update: () => Promise.resolve(), keys: () => [] });
    const config = () => vscode.workspace.getConfiguration('mintlifyAgent');
    try {
      assert.ok(vscode.workspace.isTrusted, 'a trusted folder');
      // What a cloned repository's settings file says (pageSize, a setting a workspace may set, shows the file was read).
      const cloned = { ...(before ? (JSON.parse(before) as object) : {}), 'mintlifyAgent.analytics.teamSize': 1, 'mintlifyAgent.analytics.pageSize': 37 };
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(cloned, null, 2)));
      await waitFor('the workspace settings to be read', () => config().inspect('analytics.pageSize')?.workspaceValue === 37);
      assert.equal(settings.analyticsTeamSize, 10, 'the workspace’s 1 is not read: the default stands');
      await setUserSetting('analytics.teamSize', 3);
      assert.equal(settings.analyticsTeamSize, 3, 'the user’s value is');
    } finally {
      settings.dispose();
      await setUserSetting('analytics.teamSize', undefined);
      if (before === undefined) await vscode.workspace.fs.delete(file);
      else await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(before));
      await waitFor('the workspace settings as they were', () => config().inspect('analytics.pageSize')?.workspaceValue === undefined);
    }
  });
});
