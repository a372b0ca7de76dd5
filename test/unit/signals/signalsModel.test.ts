// Reader signals' pure parts: the snapshot against the simulator over real HTTP (its cost and its
// truth), the page health and the gap inbox, the evidence prompt with hostile reader text, and the
// before/after comparison with its thresholds. No vscode import.
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../../src/api';
import { comparisonWindows, compareWindows, MIN_VOTES, type WindowCounts } from '../../../src/signals/didItHelp';
import { buildEvidencePrompt, MAX_ITEMS, MAX_QUOTE, pageEvidence, quote, suggestedInstruction } from '../../../src/signals/evidencePrompt';
import { buildInbox, LOW_CTR, MIN_SEARCH_HITS, pageHealth } from '../../../src/signals/signalsModel';
import { fetchSnapshot, minimumRequests, SEARCH_PAGES, SnapshotStopped, VIEW_PAGES, type SignalsSnapshot } from '../../../src/signals/snapshot';
import { CODE_FEEDBACK, HOSTILE_PAGE, HOSTILE_TEXTS, LARGE_SIGNALS } from '../../simulator/signals';
import { evidenceBlock } from '../../support/evidenceBlock';
import { startSimulator, type Simulator } from '../../simulator/server';
import { grantOf, unlimited } from '../../support/grants';

const PROJECT = 'demo-project';
const RANGE = { dateFrom: '2026-10-22', dateTo: '2026-11-21' };

function client(sim: Simulator): ApiClient {
  return createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_unit_test_key', timeoutMs: () => 10_000 });
}

describe('reader signals', () => {
  let sim: Simulator;
  let snapshot: SignalsSnapshot;

  before(async () => {
    sim = await startSimulator({ today: '2026-11-20', analyticsLimitPerHour: 10_000 });
    snapshot = await fetchSnapshot(client(sim), PROJECT, RANGE, { grant: unlimited });
  });
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
        (error: unknown) => error instanceof SnapshotStopped && error.reason === 'budget' && error.requests === 3,
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
  });

  describe('page health', () => {
    it('/quickstart: views, votes, pending comments and unanswered questions (newest two), low-CTR searches, as the simulator counts them', () => {
      const truth = sim.signalsFor(PROJECT, RANGE);
      const health = pageHealth(snapshot, HOSTILE_PAGE);
      assert.deepEqual(
        health.views,
        truth.views.views.find((v) => v.path === HOSTILE_PAGE),
      );
      assert.deepEqual(
        health.feedback,
        truth.byPage.find((r) => r.path === HOSTILE_PAGE),
      );
      const pendingHere = truth.feedback.filter((f) => f.path === HOSTILE_PAGE && f.status === 'pending' && f.comment);
      const comments = pendingHere.filter((f) => f.source !== 'code_snippet');
      assert.equal(health.pendingComments.count, comments.length, 'comments on the page itself');
      assert.equal(health.codeFeedback.count, pendingHere.length - comments.length, 'comments on its code blocks, counted apart');
      assert.ok(health.codeFeedback.count >= 5);
      assert.deepEqual(
        health.pendingComments.newest.map((c) => c.comment.text),
        [HOSTILE_TEXTS.injection, HOSTILE_TEXTS.markup],
      );
      const unanswered = truth.assistant.filter((t) => t.resolutionStatus === 'unanswered' && t.pageUrl?.endsWith('/quickstart'));
      assert.equal(health.unanswered.count, unanswered.length);
      assert.deepEqual(
        health.unanswered.newest.map((q) => q.id),
        unanswered.slice(0, 2).map((t) => t.id),
      );
      const lowCtr = truth.searches.filter((s) => s.topClickedPage === HOSTILE_PAGE && s.ctr < LOW_CTR && s.hits >= MIN_SEARCH_HITS);
      assert.ok(lowCtr.length > 0);
      assert.deepEqual(
        health.lowCtrSearches.map((s) => s.searchQuery),
        lowCtr.map((s) => s.searchQuery),
      );
    });

    it('a page beyond the views depth shows "fewer than" the last fetched page, not zero', () => {
      const health = pageHealth(snapshot, '/not/a/page/anyone/reads');
      assert.equal(health.views, undefined);
      assert.equal(health.viewsBelow, snapshot.views.at(-1)?.total);
      assert.equal(health.feedbackUnknown, snapshot.byPageHasMore);
    });
  });

  describe('the gap inbox', () => {
    const base: SignalsSnapshot = {
      version: 1,
      projectId: 'p',
      range: { dateFrom: '2026-11-01', dateTo: '2026-11-08' },
      fetchedAt: '2026-11-08T00:00:00Z',
      byPage: [
        { path: '/a', thumbsUp: 1, thumbsDown: 4, code: 0, total: 5 },
        { path: '/b', thumbsUp: 9, thumbsDown: 2, code: 0, total: 11 },
        { path: '/c', thumbsUp: 3, thumbsDown: 2, code: 1, total: 6 },
        { path: '/happy', thumbsUp: 9, thumbsDown: 0, code: 0, total: 9 },
      ],
      byPageHasMore: false,
      pending: [
        { id: '1', path: '/b', comment: { text: 'x' }, createdAt: '2026-11-02T00:00:00Z', source: 'contextual' },
        { id: '2', path: '/b', comment: { text: 'y' }, createdAt: '2026-11-03T00:00:00Z', source: 'contextual' },
        { id: '3', path: '/d', comment: { text: 'z' }, createdAt: '2026-11-03T00:00:00Z', source: 'code_snippet' },
      ],
      questions: [
        { id: 'q1', timestamp: '2026-11-02T00:00:00Z', query: { text: 'how?' }, path: '/a', category: 'Auth' },
        { id: 'q2', timestamp: '2026-11-03T00:00:00Z', query: { text: 'why?' }, path: undefined, category: 'Billing' },
        { id: 'q3', timestamp: '2026-11-04T00:00:00Z', query: { text: 'what?' }, path: undefined, category: 'Billing' },
        { id: 'q4', timestamp: '2026-11-05T00:00:00Z', query: { text: 'who?' }, path: undefined, category: undefined },
      ],
      turnCount: 40,
      searches: [
        { searchQuery: 'sso', hits: 50, ctr: 0, topClickedPage: null, lastSearchedAt: undefined },
        { searchQuery: 'rare', hits: MIN_SEARCH_HITS - 1, ctr: 0, topClickedPage: null, lastSearchedAt: undefined },
        { searchQuery: 'clicked', hits: 80, ctr: 0.5, topClickedPage: '/a', lastSearchedAt: undefined },
        { searchQuery: 'domain', hits: 70, ctr: 0, topClickedPage: null, lastSearchedAt: undefined },
      ],
      totalSearches: 200,
      searchesComplete: true,
      views: [
        { path: '/c', human: 10, ai: 990, total: 1000 },
        { path: '/a', human: 400, ai: 100, total: 500 },
        { path: '/b', human: 300, ai: 0, total: 300 },
      ],
      viewsTotals: { human: 710, ai: 1090, total: 1800 },
      viewsComplete: true,
      requests: 5,
      minimum: 5,
    };

    it('ranks pages by 👎 plus pending comments, then readers; a page without either is not listed', () => {
      // /a: 4 👎 + 0; /b: 2 👎 + 2 comments, 300 readers; /c: 2 👎, 1000 readers; /d: 1 comment.
      assert.deepEqual(
        buildInbox(base).pages.map((p) => p.path),
        ['/a', '/b', '/c', '/d'],
      );
      assert.deepEqual(
        buildInbox({ ...base, views: base.views.map((v) => (v.path === '/b' ? { ...v, total: 2000, human: 2000 } : v)) }).pages.map((p) => p.path),
        ['/b', '/a', '/c', '/d'],
      );
    });

    it('counts a comment on a code block apart from page comments, and twice in the rank', () => {
      const inbox = buildInbox(base);
      const d = inbox.pages.find((p) => p.path === '/d');
      assert.deepEqual([d?.pendingComments, d?.codeComments], [0, 1]);
      // Two comments on /d's code blocks weigh 4, ahead of /c (2 👎, 1,000 readers); as page comments they weigh 2, behind it.
      const more = {
        ...base,
        pending: [...base.pending, { id: '4', path: '/d', comment: { text: 'w' }, createdAt: '2026-11-04T00:00:00Z', source: 'code_snippet' }],
      };
      assert.deepEqual(
        buildInbox(more).pages.map((p) => p.path),
        ['/a', '/b', '/d', '/c'],
      );
      assert.deepEqual(
        buildInbox({ ...more, pending: more.pending.map((c) => ({ ...c, source: 'contextual' })) }).pages.map((p) => p.path),
        ['/a', '/b', '/c', '/d'],
        'the same comments on the page rank /d last',
      );
    });

    it('ranks by AI share first when asked', () => {
      assert.deepEqual(
        buildInbox(base, { rankByAiShare: true }).pages.map((p) => p.path),
        ['/c', '/a', '/b', '/d'],
      );
    });

    it('lists searches with no click at all, most searched first, and ignores rare terms', () => {
      assert.deepEqual(
        buildInbox(base).searches.map((s) => [s.searchQuery, s.hits]),
        [
          ['domain', 70],
          ['sso', 50],
        ],
      );
    });

    it('groups unanswered questions by page, else by category, biggest group first, newest question first', () => {
      const groups = buildInbox(base).questions;
      assert.deepEqual(
        groups.map((g) => [g.kind, g.key, g.questions.map((q) => q.id)]),
        [
          ['category', 'Billing', ['q3', 'q2']],
          ['none', undefined, ['q4']],
          ['page', '/a', ['q1']],
        ],
      );
    });
  });

  describe('the evidence prompt', () => {
    const files = ['docs/quickstart.mdx'];

    it('keeps the instruction exactly as written, before and apart from the evidence block', () => {
      const evidence = pageEvidence(snapshot, HOSTILE_PAGE, files);
      const instruction = 'Tighten the install section.';
      const { prompt } = buildEvidencePrompt(instruction, evidence);
      assert.ok(prompt.startsWith(`${instruction}\n\n`));
      const block = evidenceBlock(prompt);
      assert.ok(block.before.length > instruction.length);
      assert.equal(block.after, '', 'the block ends the prompt');
      assert.equal(prompt.split(block.markers.end).length, 2, 'no reader text can close the block');
      assert.ok(
        evidence.comments.some((c) => c.comment.text.includes('END READER EVIDENCE')),
        'the site has a comment holding the old end marker',
      );
      assert.ok(!block.before.includes('Ignore previous instructions'));
      assert.ok(prompt.includes('"docs/quickstart.mdx"'));
    });

    it('quotes hostile reader text as one JSON string per line, escaping the invisible controls', () => {
      const { prompt } = buildEvidencePrompt('Fix it.', pageEvidence(snapshot, HOSTILE_PAGE, files));
      const lines = prompt.split('\n');
      assert.ok(lines.includes(`- ${quote(HOSTILE_TEXTS.injection)} (${quote(snapshot.pending[0]?.createdAt?.slice(0, 10) ?? '')})`));
      assert.ok(prompt.includes(JSON.stringify(HOSTILE_TEXTS.markup)));
      assert.ok(!prompt.includes('\u202e'), 'a right-to-left override is escaped, not sent raw');
      assert.ok(prompt.includes('\\u202e'));
      assert.ok(prompt.includes(JSON.stringify(HOSTILE_TEXTS.formula)));
      for (const line of evidenceBlock(prompt).lines)
        assert.ok(!line.startsWith('===') && !line.startsWith('<<<') && !line.startsWith('Ignore'), line.slice(0, 60));
    });

    it('caps each text and each list, and says how much it left out', () => {
      const evidence = pageEvidence(snapshot, HOSTILE_PAGE, files);
      const many = { ...evidence, comments: [...evidence.comments, ...evidence.comments, ...evidence.comments] };
      const built = buildEvidencePrompt('Fix it.', many);
      assert.ok(many.comments.length > MAX_ITEMS);
      assert.ok(built.prompt.includes(`(${many.comments.length - MAX_ITEMS} more not included)`));
      assert.equal(built.notIncluded.comments, many.comments.length - MAX_ITEMS);
      const hugeLine = buildEvidencePrompt('Fix it.', { ...evidence, comments: evidence.comments.filter((c) => c.comment.fullLength) })
        .prompt.split('\n')
        .find((l) => l.includes('more characters not included'));
      assert.ok(hugeLine);
      assert.ok(hugeLine.includes(`(${HOSTILE_TEXTS.huge.length - MAX_QUOTE} more characters not included)`));
      assert.ok(built.prompt.length < 12_000, `a page's prompt stays small (${built.prompt.length} characters)`);
    });

    it('suggests an instruction naming the workspace file, quoting no text from the API (not even the path)', () => {
      const suggestion = suggestedInstruction(pageEvidence(snapshot, HOSTILE_PAGE, files));
      assert.match(suggestion, /^Improve the docs page in docs\/quickstart\.mdx /);
      assert.ok(!suggestion.includes('/quickstart '), 'the site path stays in the evidence');
      assert.ok(!suggestion.toLowerCase().includes('ignore previous'));
    });
  });

  describe('did it help', () => {
    const counts = (votesUp: number, votesDown: number, extra: Partial<WindowCounts> = {}): WindowCounts => ({
      votesUp,
      votesDown,
      questions: 0,
      unanswered: 0,
      searches: 0,
      searchClicks: 0,
      ...extra,
    });
    const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

    it('waits a week after the change, then compares equal windows of at most 28 days', () => {
      assert.equal(comparisonWindows(day('2026-11-15') + 3_600_000, day('2026-11-20')), undefined);
      assert.deepEqual(comparisonWindows(day('2026-11-01') + 3_600_000, day('2026-11-20') + 5_000), {
        before: { dateFrom: '2026-10-14', dateTo: '2026-11-01' },
        after: { dateFrom: '2026-11-02', dateTo: '2026-11-20' },
        days: 18,
      });
      assert.equal(comparisonWindows(day('2026-01-01'), day('2026-11-20'))?.days, 28);
    });

    it(`shows the 👎 share change with ${MIN_VOTES} votes in each window`, () => {
      const result = compareWindows(counts(10, 10), counts(16, 4), false).thumbsDownShare;
      assert.deepEqual(result, { kind: 'change', before: 0.5, after: 0.2, points: -30, better: true });
    });

    it('says "not enough data" below the threshold, never a number', () => {
      const result = compareWindows(counts(10, 10), counts(12, 7), true);
      assert.equal(result.thumbsDownShare.kind, 'notEnoughData');
      assert.equal(result.unansweredShare.kind, 'notEnoughData');
      assert.equal(result.searchClickRate?.kind, 'notEnoughData');
    });

    it('counts clicks on the addressed searches as better when they rise', () => {
      const result = compareWindows(counts(0, 0, { searches: 40, searchClicks: 4 }), counts(0, 0, { searches: 40, searchClicks: 20 }), true);
      assert.deepEqual(result.searchClickRate, { kind: 'change', before: 0.1, after: 0.5, points: 40, better: true });
    });
  });
});
