// The reader-signals snapshot (src/signals/snapshot.ts) against the simulator over real HTTP: its
// cost and its truth. No vscode import.
import assert from 'node:assert/strict';
import { normalizeSitePath } from '../../../src/docs/sitePaths';
import { fetchSnapshot, minimumRequests, SEARCH_PAGES, SnapshotStopped, VIEW_PAGES, type SignalsSnapshot } from '../../../src/signals/snapshot';
import { CODE_FEEDBACK, HOSTILE_TEXTS, LARGE_SIGNALS } from '../../simulator/signals';
import { startSimulator, type Simulator } from '../../simulator/server';
import { grantOf, unlimited } from '../../support/grants';
import { client, PROJECT, RANGE, serveSignals } from './signalsFixture';

describe('reader signals', () => {
  let sim: Simulator;
  let snapshot: SignalsSnapshot;

  before(async () => ({ sim, snapshot } = await serveSignals()));
  after(() => sim.close());

  describe('the snapshot', () => {
    it('costs the fewest requests the page sizes allow, one per page of each endpoint', async () => {
      sim.clearRequests();
      const again = await fetchSnapshot(client(sim), PROJECT, RANGE, { grant: unlimited });
      const truth = sim.signalsFor(PROJECT, RANGE);
      const pending = truth.feedback.filter((f) => f.status === 'pending').length;
      const expected = minimumRequests({
        pending,
        turns: truth.assistant.length,
        searches: Math.min(truth.searches.length, SEARCH_PAGES * 100),
        views: Math.min(truth.views.views.length, VIEW_PAGES * 250),
      });
      assert.equal(sim.requests.length, expected);
      assert.equal(again.requests, expected);
      assert.equal(again.minimum, expected);
      assert.deepEqual(
        sim.requests.map((r) => r.status),
        sim.requests.map(() => 200),
      );
    });

    it('holds the truth: pending comments, unanswered questions with their page, searches and views to the documented depth', () => {
      const truth = sim.signalsFor(PROJECT, RANGE);
      assert.deepEqual(snapshot.byPage, truth.byPage.slice(0, 100));
      assert.equal(snapshot.byPageHasMore, truth.byPage.length > 100);
      assert.deepEqual(
        snapshot.pending.map((c) => c.id),
        truth.feedback.filter((f) => f.status === 'pending' && f.comment?.trim()).map((f) => f.id),
      );
      assert.deepEqual(
        snapshot.questions.map((q) => q.id),
        truth.assistant.filter((t) => t.resolutionStatus === 'unanswered').map((t) => t.id),
      );
      assert.equal(snapshot.turnCount, truth.assistant.length);
      assert.deepEqual(
        snapshot.searches.map((s) => s.searchQuery),
        truth.searches.slice(0, SEARCH_PAGES * 100).map((s) => s.searchQuery),
      );
      assert.equal(snapshot.searchesComplete, truth.searches.length <= SEARCH_PAGES * 100);
      assert.deepEqual(snapshot.views, truth.views.views.slice(0, VIEW_PAGES * 250));
      assert.equal(snapshot.viewsComplete, false, 'the default site has more pages than the views depth');
    });

    it('keeps the code block, language and file name of code-snippet feedback, and only of it', () => {
      const truth = sim.signalsFor(PROJECT, RANGE);
      const install = snapshot.pending.filter((c) => c.snippet?.code.text === CODE_FEEDBACK.install.code);
      assert.deepEqual(
        install.map((c) => c.comment.text),
        [...CODE_FEEDBACK.install.comments],
      );
      assert.deepEqual(install[0]?.snippet, { code: { text: CODE_FEEDBACK.install.code }, lang: 'bash' }, 'a null file name is left out');
      assert.equal(install[0]?.status, 'pending');
      const deploy = snapshot.pending.find((c) => c.snippet?.code.text === CODE_FEEDBACK.deploy.code);
      assert.deepEqual(deploy?.snippet, { code: { text: CODE_FEEDBACK.deploy.code }, lang: 'bash', filename: 'deploy.sh' });
      const codeIds = truth.feedback.filter((f) => f.status === 'pending' && f.comment?.trim() && f.source === 'code_snippet').map((f) => f.id);
      assert.deepEqual(
        snapshot.pending.filter((c) => c.snippet).map((c) => c.id),
        codeIds,
        'every code-snippet item, and no other, has its snippet',
      );
    });

    it('keeps at most 2,000 characters of the 50 KB comment and remembers its full length', () => {
      const huge = snapshot.pending.find((c) => c.comment.fullLength === HOSTILE_TEXTS.huge.length);
      assert.ok(huge);
      assert.equal(huge.comment.text, HOSTILE_TEXTS.huge.slice(0, 2_000));
    });

    it('stops where its grant of the hour gives out, keeps nothing (a background refresh), and says how many it sent', async () => {
      sim.clearRequests();
      await assert.rejects(
        fetchSnapshot(client(sim), PROJECT, RANGE, { grant: grantOf(3) }),
        (error: unknown) => error instanceof SnapshotStopped && error.reason === 'notGranted' && error.requests === 3,
      );
      assert.equal(sim.requests.length, 3);
    });

    it('on the large site, pages to the depth limits and no further', async () => {
      const large = await startSimulator({ today: '2026-11-20', pathCount: 10_000, signals: LARGE_SIGNALS, analyticsLimitPerHour: 10_000 });
      try {
        const big = await fetchSnapshot(client(large), PROJECT, RANGE, { grant: unlimited });
        const truth = large.signalsFor(PROJECT, RANGE);
        assert.equal(big.searches.length, SEARCH_PAGES * 100);
        assert.equal(big.views.length, VIEW_PAGES * 250);
        assert.equal(big.requests, big.minimum);
        assert.equal(large.requests.length, big.requests);
        assert.ok(truth.searches.length > SEARCH_PAGES * 100 && truth.views.views.length > VIEW_PAGES * 250);
      } finally {
        await large.close();
      }
    });

    it("reads the assistant's page URLs without the base path of a site served under one", async () => {
      const under = await startSimulator({ today: '2026-11-20', analyticsLimitPerHour: 10_000, docsSite: 'https://acme.dev/docs' });
      try {
        const truth = under.signalsFor(PROJECT, RANGE).assistant.filter((t) => t.resolutionStatus === 'unanswered');
        const pages = new Set(truth.map((t) => t.pageUrl && normalizeSitePath(t.pageUrl.replace('https://acme.dev/docs', 'https://acme.dev'))));
        const read = await fetchSnapshot(client(under), PROJECT, RANGE, { grant: unlimited, basePath: '/docs' });
        assert.ok(read.questions.length > 0 && truth.some((t) => t.pageUrl?.startsWith('https://acme.dev/docs/')));
        for (const question of read.questions) assert.ok(question.path === undefined || pages.has(question.path), `${question.path} is a page of the site`);
        assert.ok(read.questions.every((q) => !q.path?.startsWith('/docs/')));
      } finally {
        await under.close();
      }
    });
  });
});
