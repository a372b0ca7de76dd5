// Paging that always ends and an hour no fetch can overspend, as a writer sees them in the real
// VS Code host: Fetch Reader Signals against a server whose paging never ends stops at the caps and
// says it was cut short; a fetch that may need more than the hour has left asks first, and fetches
// only what the writer allowed. Requests are counted at the simulator.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ENDPOINTS } from '../../src/api/endpoints';
import type { TestSeam } from '../support/extensionUnderTest';
import { MOST_REQUESTS, VIEW_PAGES } from '../../src/signals/snapshot';
import type { Simulator } from '../simulator/server';
import { freshAnalyticsHour, PROJECT, ScriptedUser, seam, setProject, signIn, waitFor, withSimulator, spendHour as spendAtOnce } from './support';

const analytics = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.startsWith('/v1/analytics/'));

describe('paging that ends, and the grant that cuts it short (Fetch Reader Signals)', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 10_000 });
    await signIn(s);
    await setProject(PROJECT);
  });
  beforeEach(async () => {
    await freshAnalyticsHour(s);
    await s.signals.store.forget();
    sim.clearFaults();
    sim.clearRequests();
  });
  /** Analytics requests other windows sent this hour, as the shared ledger records them. */
  const spendHour = (count: number) => {
    void spendAtOnce(s, count);
  };
  after(async () => {
    await freshAnalyticsHour(s); // what this suite spent is not the next suite's hour
    sim.clearFaults();
    await sim.close();
  });

  it('against a server whose cursor never ends: stops at the caps and the view says what was cut short', async () => {
    sim.addFault({ fault: { kind: 'pagingNeverEnds', how: 'endless' } });
    await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    const expected = 1 + ENDPOINTS.getFeedback.maxPages + ENDPOINTS.getAssistant.maxPages + ENDPOINTS.getSearches.maxPages + VIEW_PAGES;
    assert.equal(analytics(sim).length, expected, 'each list at its depth cap, no more');
    assert.equal(s.signals.store.current()?.requests, expected);
    const message = await waitFor('the view to say it was cut short', () =>
      s.signals.view.message?.includes('Pending feedback') ? s.signals.view.message : undefined,
    );
    assert.match(message, /Pending feedback: the first 20 pages only, the most one fetch reads\./);
    assert.match(message, /Assistant questions: the first 10 pages only/);
  });

  it('against a server that answers the same cursor: two requests per list, and says so', async () => {
    sim.addFault({ fault: { kind: 'pagingNeverEnds', how: 'sameCursor' } });
    await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    assert.equal(analytics(sim).length, 1 + 2 + 2 + 2 + VIEW_PAGES);
    const message = await waitFor('the view to say it was cut short', () =>
      s.signals.view.message?.includes('Pending feedback') ? s.signals.view.message : undefined,
    );
    assert.match(message, /Pending feedback: stopped after 2 pages: the API sent a page cursor it had sent before/);
  });

  it('asks before a fetch that may need more than the hour has left, and fetches only what the writer allowed', async () => {
    const left = 8;
    spendHour(100 - left);
    await waitFor('the hour to hold them', () => s.gate.left() === left);
    sim.addFault({ fault: { kind: 'pagingNeverEnds', how: 'endless' } });
    const user = new ScriptedUser(s.ui);
    try {
      user.answerMessage = (shown) => shown.actions.find((a) => a === `Fetch ${left}`);
      await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
      const ask = user.messages.find((m) => m.actions.includes(`Fetch ${left}`));
      assert.ok(ask, 'asked before any request');
      assert.match(
        ask.message,
        new RegExp(
          `^Fetching reader signals needs up to ${MOST_REQUESTS} analytics requests; ${left} are left this hour on this machine’s count \\(teammates on other machines also spend it\\)`,
        ),
      );
      // The true wait: all 40 are free when 32 of the 92 sent just now have left the hour, about an hour from now (never "1 s").
      assert.match(ask.message, new RegExp(`and all ${MOST_REQUESTS} are free in (59 min|1 h)\\.`));
      assert.equal(analytics(sim).length, left, 'never more than the hour had left');
      assert.deepEqual(s.signals.store.current()?.cutShort?.questions, { reason: 'notGranted', pages: 0 });
    } finally {
      user.restore();
    }
  });

  it('sends nothing when the writer declines', async () => {
    spendHour(95);
    await waitFor('the hour to hold them', () => s.gate.left() === 5);
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
      assert.ok(user.messages.some((m) => m.actions.includes('Fetch 5')));
      assert.equal(analytics(sim).length, 0);
      assert.equal(s.signals.store.current(), undefined);
    } finally {
      user.restore();
    }
  });
});
