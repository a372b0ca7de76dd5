// The prompt for "Ask the Agent to Address This": the writer's instruction, then the readers'
// evidence in a labelled block the agent is told to treat as data. Reader text is written by anyone
// on the internet, so it is never merged into the instruction: each comment, question and search
// term is one JSON string on its own line (newlines, quotes and bidirectional controls escaped, so
// no text can hide itself), cut to MAX_QUOTE characters, and each list to MAX_ITEMS entries, with a
// visible "(n more not included)" for what was left out.
// The block and its quoting are the prompt room's (src/prompt/quotedEvidence.ts). Pure: no vscode.
import { evidenceMarkers, type EvidenceMarkers, type EvidenceText, evidenceText, MAX_ITEMS, quote, quoteText } from '../prompt/quotedEvidence';
import { pageHealth } from './signalsModel';
import type { PendingComment, SignalsSnapshot, SnapshotRange, UnansweredQuestion } from './snapshot';

interface EvidenceSearch {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null | undefined;
}

export interface Evidence {
  /** What the evidence is about, for the suggestion: a page, a search, a question group. */
  subject: { kind: 'page'; path: string } | { kind: 'search'; searchQuery: string } | { kind: 'category'; category: string | undefined };
  /** The page's files in the workspace (e.g. `docs/quickstart.mdx`). */
  files: string[];
  range: SnapshotRange;
  feedback: { thumbsUp: number; thumbsDown: number; code: number } | undefined;
  comments: PendingComment[];
  questions: UnansweredQuestion[];
  searches: EvidenceSearch[];
  /**
   * What the site's own search returns for the searches today (src/search): lines already quoted by
   * their maker, said in the block after the searches, under LIVE_SEARCH_TITLE.
   */
  live?: readonly string[];
}

/** The title of the live search's lines in the evidence block. */
export const LIVE_SEARCH_TITLE = "What the site's search returns for them today (searched as readers search)";

/** The evidence of a page: its feedback counts, all its pending comments and unanswered questions, its low-CTR searches. */
export function pageEvidence(snapshot: SignalsSnapshot, path: string, files: string[]): Evidence {
  const health = pageHealth(snapshot, path);
  return {
    subject: { kind: 'page', path },
    files,
    range: snapshot.range,
    feedback: health.feedback && { thumbsUp: health.feedback.thumbsUp, thumbsDown: health.feedback.thumbsDown, code: health.feedback.code },
    comments: snapshot.pending.filter((c) => c.path === path).sort((a, b) => compare(b.createdAt ?? '', a.createdAt ?? '')),
    questions: snapshot.questions.filter((q) => q.path === path).sort((a, b) => compare(b.timestamp, a.timestamp)),
    searches: health.lowCtrSearches,
  };
}

export function searchEvidence(snapshot: SignalsSnapshot, searchQuery: string): Evidence {
  return {
    subject: { kind: 'search', searchQuery },
    files: [],
    range: snapshot.range,
    feedback: undefined,
    comments: [],
    questions: [],
    searches: snapshot.searches.filter((s) => s.searchQuery === searchQuery),
  };
}

/** The evidence of several searches readers gave up on (the inbox's group), in the order given. */
export function searchesEvidence(snapshot: SignalsSnapshot, searchQueries: readonly string[]): Evidence {
  const rows = new Map(snapshot.searches.map((s) => [s.searchQuery, s]));
  return {
    subject: { kind: 'search', searchQuery: searchQueries[0] ?? '' },
    files: [],
    range: snapshot.range,
    feedback: undefined,
    comments: [],
    questions: [],
    searches: searchQueries.flatMap((q) => rows.get(q) ?? []),
  };
}

export function categoryEvidence(snapshot: SignalsSnapshot, category: string | undefined): Evidence {
  return {
    subject: { kind: 'category', category },
    files: [],
    range: snapshot.range,
    feedback: undefined,
    comments: [],
    questions: snapshot.questions.filter((q) => !q.path && q.category === category).sort((a, b) => compare(b.timestamp, a.timestamp)),
    searches: [],
  };
}

/**
 * A starting instruction the writer can change. It quotes no text from the API at all: a page's
 * site path and a question's category come from readers' traffic, so they stay in the evidence
 * block, quoted as data; only the workspace file (ours) is named here.
 */
export function suggestedInstruction(evidence: Evidence): string {
  const { subject } = evidence;
  const act = 'Fix what is wrong and add what is missing; change nothing else.';
  if (subject.kind === 'page') {
    const page = evidence.files[0] ? `the docs page in ${evidence.files[0]}` : 'the docs page named in the evidence below';
    return `Improve ${page} using the reader feedback, unanswered assistant questions and searches below. ${act}`;
  }
  if (subject.kind === 'search') {
    const several = evidence.searches.length > 1;
    return (
      `Readers search the docs for the ${several ? 'terms' : 'term'} below and click no result. Make the docs answer ${several ? 'them' : 'it'}: add or improve the page that should be found, with the words readers use. ` +
      act
    );
  }
  return `The docs assistant could not answer the reader questions below. Add what the docs are missing so they can be answered. ${act}`;
}

interface BuiltPrompt {
  prompt: string;
  /** The same text, with its block's markers and where it lies. */
  evidence: EvidenceText;
  /** Items left out by MAX_ITEMS, per list, for the preview's summary. */
  notIncluded: { comments: number; questions: number; searches: number };
}

/** The instruction, then the evidence block; the instruction is used as written. */
export function buildEvidencePrompt(instruction: string, evidence: Evidence, markers: EvidenceMarkers = evidenceMarkers()): BuiltPrompt {
  const lines: string[] = [];
  if (evidence.subject.kind === 'page') lines.push(`Page: ${quote(evidence.subject.path)}`);
  if (evidence.files.length) lines.push(`Files: ${evidence.files.map(quote).join(', ')}`);
  lines.push(`Date range: ${evidence.range.dateFrom} to ${evidence.range.dateTo} (exclusive)`);
  if (evidence.feedback) {
    const { thumbsUp, thumbsDown, code } = evidence.feedback;
    lines.push(`Feedback votes: ${thumbsUp} helpful, ${thumbsDown} not helpful; code snippet reports: ${code}`);
  }
  const notIncluded = { comments: 0, questions: 0, searches: 0 };
  notIncluded.comments = list(
    lines,
    'Pending reader comments, newest first',
    evidence.comments,
    (c) => `${quoteText(c.comment)}${c.createdAt ? ` (${quote(c.createdAt.slice(0, 10))})` : ''}`,
  );
  notIncluded.questions = list(
    lines,
    'Assistant questions that went unanswered, newest first',
    evidence.questions,
    (q) => `${quoteText(q.query)} (${quote(q.timestamp.slice(0, 10))}${q.category ? `, category ${quote(q.category)}` : ''})`,
  );
  notIncluded.searches = list(
    lines,
    'Searches',
    evidence.searches,
    (s) =>
      `${quote(s.searchQuery)}: ${s.hits} searches, ${Math.round(s.ctr * 100)}% clicked a result${s.topClickedPage ? `, mostly ${quote(s.topClickedPage)}` : ', no result clicked'}`,
  );
  if (evidence.live?.length) lines.push(`${LIVE_SEARCH_TITLE}:`, ...evidence.live);
  const text = evidenceText([instruction.trim()], lines, markers);
  return { prompt: text.text, evidence: text, notIncluded };
}

function list<T>(lines: string[], title: string, items: readonly T[], line: (item: T) => string): number {
  if (!items.length) return 0;
  lines.push(`${title} (${items.length}):`);
  for (const item of items.slice(0, MAX_ITEMS)) lines.push(`- ${line(item)}`);
  const rest = Math.max(0, items.length - MAX_ITEMS);
  if (rest) lines.push(`(${rest} more not included)`);
  return rest;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
