// Reader signals' model (src/signals/signalsModel.ts): the page health and the gap inbox, on the
// snapshot the simulator serves over real HTTP. No vscode import.
import assert from 'node:assert/strict';
import { buildInbox, LOW_CTR, MIN_SEARCH_HITS, pageHealth } from '../../../src/signals/signalsModel';
import type { SignalsSnapshot } from '../../../src/signals/snapshot';
import { HOSTILE_PAGE, HOSTILE_TEXTS } from '../../simulator/signals';
import type { Simulator } from '../../simulator/server';
import { PROJECT, RANGE, serveSignals } from './signalsFixture';

describe('reader signals', () => {
  let sim: Simulator;
  let snapshot: SignalsSnapshot;

  before(async () => ({ sim, snapshot } = await serveSignals()));
  after(() => sim.close());

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
});
