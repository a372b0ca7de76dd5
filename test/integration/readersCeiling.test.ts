// Readers' fetches and the shared ledger's background ceiling: opening a page is background work,
// so with the hour's analytics requests (every window's) at the ceiling it is not granted, sends
// nothing and the status item says why; Refresh, the click to load, is the user asking and is not
// held to the background ceiling.
import { settledWhen } from '../../src/analytics/visitorsSnapshot';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { BACKGROUND_CEILING } from '../../src/hour/ledger';
import type { Simulator } from '../simulator/server';
import {
  backgroundRange,
  freshAnalyticsHour,
  KEY,
  PROJECT,
  seam,
  setProject,
  signIn,
  tooltipText,
  visitorRequests,
  waitFor,
  withSimulator,
  spendHour,
} from './support';

describe('readers under the ledger ceiling', function () {
  this.timeout(90_000);
  let s: TestSeam;
  let sim: Simulator;
  let page: vscode.Uri;

  /** Analytics requests other windows sent this hour, as the shared ledger records them. */
  async function othersSent(count: number): Promise<void> {
    const { before } = await waitFor("the key's ledger bucket", () => {
      const count = s.sync.ledger.analyticsRequestsThisHour();
      return count === undefined ? undefined : { before: count };
    });
    await spendHour(s, count);
    await waitFor('the ledger to hold them', () => (s.sync.ledger.analyticsRequestsThisHour() ?? 0) >= before + count);
  }

  before(async () => {
    s = await seam();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sim = await withSimulator({ analyticsLimitPerHour: 1_000, pathCount: 200 }); // one request a snapshot
    await signIn(s);
    await setProject(PROJECT);
    page = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'docs', 'quickstart.mdx');
    await s.readers.pageReaders.store.clear();
    await freshAnalyticsHour(s);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await freshAnalyticsHour(s);
    await sim.close();
  });

  it('opening a page with the hour at the ceiling sends nothing and says why; Refresh sends', async () => {
    await othersSent(BACKGROUND_CEILING);
    sim.clearRequests();
    await vscode.window.showTextDocument(page, { preview: false });
    const held = await waitFor('the item saying background work was not granted', async () => {
      const shown = s.readers.statusBar.shown;
      return shown?.page.sitePath === '/quickstart' && shown.text.includes('the hour has no room for background work') ? shown : undefined;
    });
    const tip = tooltipText(held.tooltip);
    assert.ok(tip.includes('the organisation’s hour has no room for background work now'), tip);
    assert.ok(tip.includes(`${BACKGROUND_CEILING} of the organisation’s 100 analytics requests this hour are used`), tip);
    assert.ok(tip.includes('command:mintlifyAgent.refreshReaders'), 'the tooltip offers the load');
    assert.equal(visitorRequests(sim), 0, 'opening the page sent nothing');

    await vscode.commands.executeCommand('mintlifyAgent.refreshReaders');
    const shown = await waitFor('the figure after Refresh', async () => {
      return s.readers.statusBar.shown?.figures ? s.readers.statusBar.shown : undefined;
    });
    assert.ok(!shown.text.includes('no room'), shown.text);
    assert.equal(visitorRequests(sim), 1, 'Refresh is asked for: not held to the background ceiling');
  });

  it('one below the ceiling, opening a page fetches (a one-request site fits)', async () => {
    await freshAnalyticsHour(s);
    await s.readers.pageReaders.store.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await othersSent(BACKGROUND_CEILING - 1);
    sim.clearRequests();
    await vscode.window.showTextDocument(page, { preview: false });
    await waitFor('the figure', async () => {
      return s.readers.statusBar.shown?.figures;
    });
    assert.equal(visitorRequests(sim), 1);
  });

  it('a background fetch on a large site with 40 used keeps every page it sent, says how far it got, and sends nothing more for nothing', async () => {
    await sim.close();
    sim = await withSimulator({ analyticsLimitPerHour: 1_000, pathCount: 10_000 }); // 40 pages of 250 a range
    try {
      await freshAnalyticsHour(s);
      await s.readers.pageReaders.store.clear();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await othersSent(40);
      sim.clearRequests();
      await vscode.window.showTextDocument(page, { preview: false });
      const { key } = backgroundRange(s);
      await waitFor('the background fetch to end', () => s.readers.pageReaders.store.cached(key));
      const shown = await waitFor('the readers item after the background fetch', async () => {
        const item = s.readers.statusBar.shown;
        return item?.page.sitePath === '/quickstart' && (item.figures?.kind === 'read' || item.text.includes('pages fetched')) ? item : undefined;
      });
      const sent = visitorRequests(sim);
      const kept = s.readers.pageReaders.store.cached(key);
      assert.ok(
        sent > 0,
        `it started: the machine’s background share had room (${shown.text}; ${s.gate.used()} used, ${s.sync.ledger.account.backgroundTimes()?.length} background, share ${s.gate.backgroundShare()})`,
      );
      assert.equal(kept?.pages, sent, `every page it sent is kept (${sent} sent)`);
      // In the hour after midnight UTC yesterday is not over at the platform yet: a cut fetch is shown, not gathered (settledRanges.ts).
      if (settledWhen(key, kept.fetchedAt)) assert.ok(kept?.gathering, `the range is still being gathered (${sent} sent of ${key.dateFrom} to ${key.dateTo})`);
      else assert.ok(kept?.capped && !kept.gathering, 'a range not over at the platform yet is shown cut short, not gathered');
      assert.ok(shown.figures?.kind === 'read' || /readers of Last 30 days \(\S+ to \S+\): \d+ pages fetched so far/.test(shown.text), shown.text);
      assert.ok(sent <= 6, `held to this machine’s background share of 6 (${sent} sent)`);
      // Shown again: the share is spent, and what is kept stands; nothing is sent to be thrown away.
      await s.readers.statusBar.update();
      assert.equal(visitorRequests(sim), sent);
      assert.equal(s.readers.pageReaders.store.cached(key)?.pages, sent);
    } finally {
      await s.readers.pageReaders.store.clear();
    }
  });

  it("at the ceiling, a whole range the panel asks for is fetched, even right after a page's background load", async () => {
    await sim.close();
    sim = await withSimulator({ analyticsLimitPerHour: 1_000, pathCount: 600 }); // pages of 250: three requests a range
    await freshAnalyticsHour(s);
    await s.readers.pageReaders.store.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(page, { preview: false });
    await waitFor('the figure (a background load)', async () => {
      return s.readers.statusBar.shown?.figures;
    });
    await othersSent(BACKGROUND_CEILING);
    sim.clearRequests();
    // What the panel's Compare or its page row does: the current range, fetched again.
    const snapshot = await s.readers.snapshots.get(s.readers.pageReaders.current()!.key, { refresh: true, grant: s.gate.granted(40) });
    assert.ok(snapshot.pages >= 2, `a range of several pages (${snapshot.pages})`);
    assert.equal(visitorRequests(sim), snapshot.pages, 'what the user asks for is not held to the background ceiling');
  });

  it("a new key's hour is its own from the instant the key changes: never the old key's count, and a request sent then counts in it", async () => {
    // The bucket is named by a salted hash of the key, computed as the key changes (no await before
    // it): a request in that instant belongs to the new key, and background work never reads the old key's count.
    const before = s.sync.ledger.analyticsRequestsThisHour();
    assert.ok(before !== undefined && before > 0, 'the old key has spent some of its hour in this suite');
    const naming = s.sync.ledger.setKey('mint_a_key_this_hour_has_not_seen');
    try {
      assert.equal(s.sync.ledger.analyticsRequestsThisHour(), 0, "the new key's hour, not the old one's");
      void s.sync.ledger.account.reserve(Number.POSITIVE_INFINITY); // a request reserved as the key changes
      await naming;
      assert.equal(s.sync.ledger.analyticsRequestsThisHour(), 1, "the new key's hour holds the request sent as it was named");
    } finally {
      await s.sync.ledger.setKey(KEY);
    }
  });
});
