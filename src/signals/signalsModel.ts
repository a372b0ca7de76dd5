// What a snapshot means for a writer: the health of one page, and the gap inbox (pages readers
// disliked or commented on, searches nobody clicked, questions the assistant could not answer).
// Pure: no vscode; every rank and threshold here is unit-tested.
import type { FeedbackByPageRow } from '../api/signalsSchemas';
import type { SignalJob } from './signalJobs';
import type { PendingComment, SearchSignal, SignalsSnapshot, UnansweredQuestion, ViewCounts } from './snapshot';

/** A search whose top result is a page but is clicked this rarely sends readers to the wrong place. */
export const LOW_CTR = 0.2;
/** Below this many hits a click-through rate says nothing. */
export const MIN_SEARCH_HITS = 10;
/** How many of the newest comments and questions the page's tooltip quotes. */
const NEWEST_SHOWN = 2;
/**
 * A reader's comment on a code block weighs this many page comments in the inbox's rank: code
 * samples are what readers copy and run, so a broken one costs them most.
 */
const CODE_BLOCK_WEIGHT = 2;

/** Feedback on a code block (`source: code_snippet`), counted apart from the page's comments. */
const isCodeFeedback = (comment: Pick<PendingComment, 'source'>): boolean => comment.source === 'code_snippet';

export interface PageHealth {
  path: string;
  /** View events; undefined when the page is below the snapshot's views depth (see `viewsBelow`). */
  views: ViewCounts | undefined;
  /** When the page is not among the pages fetched: it has fewer view events than this. */
  viewsBelow: number | undefined;
  /** Undefined when the page had no feedback, or is beyond the 100 pages by-page returns (`feedbackUnknown`). */
  feedback: FeedbackByPageRow | undefined;
  feedbackUnknown: boolean;
  /** Pending comments on the page itself (code-block feedback is counted in `codeFeedback`). */
  pendingComments: { count: number; newest: PendingComment[] };
  /** Pending feedback on the page's code blocks (shown at the blocks, src/codeFeedback). */
  codeFeedback: { count: number };
  unanswered: { count: number; newest: UnansweredQuestion[] };
  lowCtrSearches: SearchSignal[];
}

export function pageHealth(snapshot: SignalsSnapshot, path: string): PageHealth {
  const views = snapshot.views.find((row) => row.path === path);
  const feedback = snapshot.byPage.find((row) => row.path === path);
  const onPage = snapshot.pending.filter((c) => c.path === path);
  const comments = newestFirst(
    onPage.filter((c) => !isCodeFeedback(c)),
    (c) => c.createdAt ?? '',
  );
  const questions = newestFirst(
    snapshot.questions.filter((q) => q.path === path),
    (q) => q.timestamp,
  );
  return {
    path,
    views,
    viewsBelow: views || snapshot.viewsComplete ? undefined : (snapshot.views.at(-1)?.total ?? 0),
    feedback,
    feedbackUnknown: !feedback && snapshot.byPageHasMore,
    pendingComments: { count: comments.length, newest: comments.slice(0, NEWEST_SHOWN) },
    codeFeedback: { count: onPage.length - comments.length },
    unanswered: { count: questions.length, newest: questions.slice(0, NEWEST_SHOWN) },
    lowCtrSearches: lowCtrSearchesOf(snapshot.searches, path),
  };
}

function lowCtrSearchesOf(searches: readonly SearchSignal[], path: string): SearchSignal[] {
  return searches.filter((s) => s.topClickedPage === path && s.hits >= MIN_SEARCH_HITS && s.ctr < LOW_CTR);
}

// ---- The gap inbox --------------------------------------------------------------------------------

export interface PageSignal {
  id: string;
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  /** Pending comments on the page itself. */
  pendingComments: number;
  /** Pending comments on its code blocks. */
  codeComments: number;
  /** View events in the range (0 when below the views depth). */
  readers: number;
  /** Share of view events from AI agents, 0..1. */
  aiShare: number;
}

export interface SearchGap {
  id: string;
  searchQuery: string;
  hits: number;
  lastSearchedAt: string | undefined;
}

export interface QuestionGroup {
  id: string;
  kind: 'page' | 'category' | 'none';
  /** The site path for a page group, the category name, or undefined. */
  key: string | undefined;
  questions: UnansweredQuestion[];
}

export interface Inbox {
  pages: PageSignal[];
  searches: SearchGap[];
  questions: QuestionGroup[];
}

interface InboxOptions {
  /** Pages read mostly by AI agents first. */
  rankByAiShare?: boolean;
}

export const signalId = {
  page: (path: string) => `page:${path}`,
  search: (term: string) => `search:${term}`,
  questions: (kind: QuestionGroup['kind'], key: string | undefined) => `questions:${kind}:${key ?? ''}`,
};

/**
 * Pages with 👎 or pending comments, ranked by 👎 + page comments + CODE_BLOCK_WEIGHT × code-block comments, then readers (then path, so equal
 * pages keep one order); with `rankByAiShare`, by AI share first. Searches with hits and no click
 * at all, most searched first. Unanswered questions grouped by page, else by category, biggest first.
 */
export function buildInbox(snapshot: SignalsSnapshot, options: InboxOptions = {}): Inbox {
  const views = new Map(snapshot.views.map((row) => [row.path, row]));
  const comments = countBy(
    snapshot.pending.filter((c) => !isCodeFeedback(c)),
    (c) => c.path,
  );
  const codeComments = countBy(snapshot.pending.filter(isCodeFeedback), (c) => c.path);
  const feedback = new Map(snapshot.byPage.map((row) => [row.path, row]));
  const paths = new Set([...snapshot.byPage.filter((row) => row.thumbsDown > 0).map((row) => row.path), ...comments.keys(), ...codeComments.keys()]);
  const pages = [...paths].map((path): PageSignal => {
    const row = feedback.get(path);
    const seen = views.get(path);
    return {
      id: signalId.page(path),
      path,
      thumbsUp: row?.thumbsUp ?? 0,
      thumbsDown: row?.thumbsDown ?? 0,
      code: row?.code ?? 0,
      pendingComments: comments.get(path) ?? 0,
      codeComments: codeComments.get(path) ?? 0,
      readers: seen?.total ?? 0,
      aiShare: seen && seen.total > 0 ? seen.ai / seen.total : 0,
    };
  });
  const score = (p: PageSignal) => p.thumbsDown + p.pendingComments + CODE_BLOCK_WEIGHT * p.codeComments;
  pages.sort((a, b) => (options.rankByAiShare ? b.aiShare - a.aiShare : 0) || score(b) - score(a) || b.readers - a.readers || compare(a.path, b.path));

  const searches = snapshot.searches
    .filter((s) => s.topClickedPage === null && s.ctr === 0 && s.hits >= MIN_SEARCH_HITS)
    .map((s): SearchGap => ({ id: signalId.search(s.searchQuery), searchQuery: s.searchQuery, hits: s.hits, lastSearchedAt: s.lastSearchedAt }))
    .sort((a, b) => b.hits - a.hits || compare(a.searchQuery, b.searchQuery));

  const groups = new Map<string, QuestionGroup>();
  for (const question of snapshot.questions) {
    const kind = question.path ? 'page' : question.category ? 'category' : 'none';
    const key = question.path ?? question.category;
    const id = signalId.questions(kind, key);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { id, kind, key, questions: [] }));
    group.questions.push(question);
  }
  const questions = [...groups.values()].sort((a, b) => b.questions.length - a.questions.length || compare(a.id, b.id));
  for (const group of questions) group.questions = newestFirst(group.questions, (q) => q.timestamp);
  return { pages, searches, questions };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function newestFirst<T>(items: T[], at: (item: T) => string): T[] {
  return items.sort((a, b) => compare(at(b), at(a)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// The agent jobs linked to a project's signals, read once per draw of the Reader Signals view
// instead of once per node: each signal's newest job, and the ids of every linked job (a change to
// any other job changes nothing the view shows).
export interface SignalJobIndex {
  /** The newest job addressing each signal, as `SignalJobs.jobFor` finds it. */
  readonly bySignal: ReadonlyMap<string, SignalJob>;
  /** Every linked job, for deciding whether a job's change redraws the view. */
  readonly jobIds: ReadonlySet<string>;
}

/** `links` newest first, as `SignalJobs.all` keeps them: the first link naming a signal wins. */
export function indexSignalJobs(links: readonly SignalJob[]): SignalJobIndex {
  const bySignal = new Map<string, SignalJob>();
  for (const link of links) for (const id of link.signalIds) if (!bySignal.has(id)) bySignal.set(id, link);
  return { bySignal, jobIds: new Set(links.map((link) => link.jobId)) };
}
