// What the language model tools answer: plain English text a model reads (like the agent prompt of
// src/signals/evidencePrompt.ts, not localised: the model's input stays one stable form), compact
// and capped, because a model's context is not free. Every text from readers or the API (site
// paths, comments, questions, search terms, branch names) is inside an evidence block, quoted and
// cut as "Ask the Agent to Address This" quotes it (the same functions), after the same note that
// it is data, never instructions. Pure: no vscode; test/unit/lmTools.test.ts pins the texts.
import type { VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import type { AgentJob } from '../api/schemas';
import { aiPercent, formatCount } from '../readers/readersText';
import { buildEvidencePrompt, EVIDENCE_BEGIN, EVIDENCE_END, EVIDENCE_NOTE, pageEvidence, quote, quoteText } from '../signals/evidencePrompt';
import { buildInbox, pageHealth } from '../signals/signalsModel';
import type { SignalsSnapshot } from '../signals/snapshot';
import { oneLine } from '../util/visibleText';

/** The most characters any tool result has; a longer one is cut here, and says so. */
export const MAX_RESULT_CHARS = 6_000;
/** Rows per list of the gap inbox, and the default of the visitors' top paths. */
export const TOP_ROWS = 10;
/** Question groups of the gap inbox (each quotes its newest question). */
export const TOP_QUESTION_GROUPS = 5;
/** The most top paths the visitors tool lists, whatever the model asks for. */
export const MAX_TOP_PATHS = 25;
/** Jobs the agent-jobs tool lists, newest first: 15 rows of long branches and prompts still fit the cap (figure 11). */
export const MAX_JOBS = 15;
/** A site path, search term or branch in a list row: one row must not crowd out the rest. */
export const ROW_QUOTE = 120;
/** A job's prompt, as its label: the first paragraph, at most this long. */
const LABEL_CHARS = 80;

const fmt = formatCount;
/** An API text in a list row, quoted and cut as the evidence prompt cuts reader text. */
const rowQuote = (text: string) => quoteText({ text }, ROW_QUOTE);
const kept = (fetchedAt: string) => `kept from ${fetchedAt}; no request was sent`;

/** `text`, at most `max` characters; a cut result says how much was left out and still closes its evidence block. */
export function capResult(text: string, max = MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const open = cut.lastIndexOf(EVIDENCE_BEGIN) > cut.lastIndexOf(EVIDENCE_END);
  return `${cut}\n(result cut at ${fmt(max)} characters: ${fmt(text.length - max)} more not included)${open ? `\n${EVIDENCE_END}` : ''}`;
}

/** The open (or named) page's evidence: views, votes, pending comments, unanswered questions, weak searches. */
export function readerEvidenceText(snapshot: SignalsSnapshot, path: string, files: string[]): string {
  const health = pageHealth(snapshot, path);
  const views =
    health.views ? `Views: ${fmt(health.views.total)} view events, ${fmt(health.views.human)} human and ${fmt(health.views.ai)} by AI agents (${aiPercent(health.views.ai, health.views.total)}% AI).`
    : health.viewsBelow !== undefined ? `Views: fewer than ${fmt(health.viewsBelow)} view events (the page is not among the most viewed pages kept).`
    : 'Views: none in the range.';
  const votes = health.feedbackUnknown ? ' Votes: not known (the page is beyond the 100 pages with the most feedback).' : '';
  const header = [
    `Reader evidence for one docs page, ${kept(snapshot.fetchedAt)}.`,
    `${views}${votes}`,
    `Counts: ${health.pendingComments.count} pending comments, ${health.unanswered.count} unanswered assistant questions, ${health.lowCtrSearches.length} searches that lead to the page but are rarely clicked.`,
  ].join('\n');
  return buildEvidencePrompt(header, pageEvidence(snapshot, path, files)).prompt;
}

/** The gap inbox, ranked as the Reader Signals view ranks it. */
export function gapInboxText(snapshot: SignalsSnapshot, rankByAiShare: boolean): string {
  const inbox = buildInbox(snapshot, { rankByAiShare });
  const rank = rankByAiShare ? 'by the share of AI agents among readers, then not-helpful votes + pending comments, then readers' : 'by not-helpful votes + pending comments, then readers';
  const lines = [
    `The gap inbox of the Reader Signals view, ${kept(snapshot.fetchedAt)}. Pages are ranked ${rank}; searches by how often readers searched; question groups by size.`,
    'Use get_mintlifyReaderEvidence on a page for its comments and questions.',
    '',
    EVIDENCE_NOTE,
    '',
    EVIDENCE_BEGIN,
    `Date range: ${snapshot.range.dateFrom} to ${snapshot.range.dateTo} (exclusive)`,
  ];
  section(lines, 'Pages with not-helpful votes or pending comments', inbox.pages, TOP_ROWS, (p) =>
    `${rowQuote(p.path)}: ${p.thumbsDown} not helpful, ${p.thumbsUp} helpful, ${p.pendingComments} pending comments, ${fmt(p.readers)} view events (${Math.round(p.aiShare * 100)}% AI)`,
  );
  section(lines, 'Searches where no result was clicked', inbox.searches, TOP_ROWS, (s) => `${rowQuote(s.searchQuery)}: ${fmt(s.hits)} searches`);
  section(lines, 'Unanswered assistant questions, by page or category', inbox.questions, TOP_QUESTION_GROUPS, (g) => {
    const where = g.kind === 'page' ? `page ${rowQuote(g.key ?? '')}` : g.kind === 'category' ? `category ${rowQuote(g.key ?? '')}` : 'no page or category';
    return `${where}: ${g.questions.length} questions; newest: ${quoteText(g.questions[0].query)}`;
  });
  lines.push(EVIDENCE_END);
  return lines.join('\n');
}

/** Visitors of a range (`rangeName`: its preset, e.g. `last30`): the totals and the top paths, with the human/AI split. */
export function visitorsText(snapshot: VisitorsSnapshot, rangeName: string, top: number, sent: boolean): string {
  const { totals, key } = snapshot;
  const range = key.dateFrom ? `${key.dateFrom} to ${key.dateTo ?? 'today'}, end exclusive` : 'all time';
  const when = new Date(snapshot.fetchedAt).toISOString();
  const shown = Math.max(1, Math.min(top, MAX_TOP_PATHS));
  const lines = [
    `Visitors, ${rangeName} (${range}), ${sent ? `fetched ${when} with ${snapshot.pages} requests` : kept(when)}.`,
    `Totals: ${fmt(totals.total)} visitors, ${fmt(totals.human)} human and ${fmt(totals.ai)} AI agents (${aiPercent(totals.ai, totals.total)}% AI).`,
    snapshot.capped ? `Only the ${fmt(snapshot.rows.length)} most read paths were fetched (the readers' page cap, or what the hour's analytics requests allowed).` : `${fmt(snapshot.rows.length)} paths had visitors.`,
    '',
    EVIDENCE_NOTE,
    '',
    EVIDENCE_BEGIN,
  ];
  section(lines, 'Most read paths', snapshot.rows, shown, (row) => `${rowQuote(row.path)}: ${fmt(row.total)} (${fmt(row.human)} human, ${fmt(row.ai)} AI)`);
  lines.push(EVIDENCE_END);
  return lines.join('\n');
}

/** What the agent-jobs tool needs of a tracked job (src/jobs/jobStore.ts's TrackedJob). */
export interface JobFacts {
  id: string;
  job?: AgentJob;
  prompts: { text: string; sentAt: string }[];
  unsentPrompt?: string;
  trackedAt: string;
  checkedAt?: string;
  notFound?: boolean;
}

/** The tracked jobs of the project, newest first. */
export function agentJobsText(projectId: string, jobs: readonly JobFacts[]): string {
  const sorted = [...jobs].sort((a, b) => compare(b.job?.createdAt ?? b.trackedAt, a.job?.createdAt ?? a.trackedAt));
  const lines = [`Agent jobs tracked for project ${quote(projectId)}, newest first (the Agent Jobs view; no request was sent).`, '', EVIDENCE_NOTE, '', EVIDENCE_BEGIN];
  section(lines, 'Jobs', sorted, MAX_JOBS, jobLine);
  lines.push(EVIDENCE_END);
  return lines.join('\n');
}

/** A comment of a review of the agent's branch (src/review), as the agent-jobs tool tells it. */
export interface ReviewCommentFacts {
  path: string;
  startLine: number;
  endLine: number;
  /** The commit of the agent's branch it was written on. */
  commit: string;
  body: string;
}

/** A job's reviews: each sent to the agent (a round), and the comments still pending. */
export interface ReviewFacts {
  sent: { sentAt: string; comments: ReviewCommentFacts[] }[];
  pending: ReviewCommentFacts[];
  /** When a send of the pending review lost its answer (the agent may have it). */
  lostAt?: string;
}

/** One job in full: its state, every prompt sent to it (each cut as reader text is), and its reviews. */
export function agentJobText(tracked: JobFacts, reviews?: ReviewFacts): string {
  const lines = [`Agent job ${quote(tracked.id)} as tracked here (no request was sent).`, '', EVIDENCE_NOTE, '', EVIDENCE_BEGIN, jobLine(tracked)];
  section(lines, 'Prompts sent, oldest first', tracked.prompts, TOP_ROWS, (p) => `${p.sentAt}: ${quoteText({ text: p.text })}`);
  if (tracked.unsentPrompt) lines.push(`A prompt failed to send and waits as the job's unsent prompt: ${quoteText({ text: tracked.unsentPrompt })}`);
  if (reviews) {
    const comment = (c: ReviewCommentFacts) => `${rowQuote(c.path)} ${c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`} of commit ${c.commit.slice(0, 12)}: ${quoteText({ text: c.body }, ROW_QUOTE)}`;
    section(lines, 'Reviews of its branch sent as follow-ups, oldest first (each is one of the prompts above)', reviews.sent, TOP_ROWS, (r) => `${r.sentAt}: ${r.comments.length} comments: ${r.comments.map(comment).join('; ')}`);
    if (reviews.pending.length) section(lines, `Review comments written and not sent yet${reviews.lostAt ? ` (a send at ${reviews.lostAt} lost its answer: the agent may have them)` : ''}`, reviews.pending, TOP_ROWS, comment);
  }
  lines.push(EVIDENCE_END);
  return lines.join('\n');
}

function jobLine(tracked: JobFacts): string {
  const { job } = tracked;
  const status = tracked.notFound ? 'not found (the API answered 404)' : job ? (job.status === 'unknown' ? rowQuote(job.reportedStatus) : job.status) : 'not read yet';
  const parts = [`${quote(tracked.id)}: ${status}`];
  if (job?.ref) parts.push(`branch ${rowQuote(job.ref)}`);
  parts.push(job?.prLink ? `pull request ${rowQuote(job.prLink)}` : 'no pull request yet');
  if (job?.createdAt) parts.push(`created ${job.createdAt}`);
  if (tracked.checkedAt) parts.push(`checked ${tracked.checkedAt}`);
  const first = tracked.prompts[0]?.text.trim().split(/\n\s*\n/)[0];
  if (first) parts.push(`prompt ${quote(oneLine(first, LABEL_CHARS))}`);
  return parts.join(', ');
}

/** A titled list of at most `max` rows, numbered, with a visible "(n more not included)". */
function section<T>(lines: string[], title: string, items: readonly T[], max: number, line: (item: T) => string): void {
  lines.push(`${title} (${fmt(items.length)}${items.length > max ? `, the first ${max}` : ''}):`);
  if (!items.length) lines.push('- none');
  items.slice(0, max).forEach((item, i) => lines.push(`${i + 1}. ${line(item)}`));
  if (items.length > max) lines.push(`(${fmt(items.length - max)} more not included)`);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
