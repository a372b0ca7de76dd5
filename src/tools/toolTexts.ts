// What the language model tools answer: plain English text a model reads (like the agent prompt of
// src/signals/evidencePrompt.ts, not localised: the model's input stays one stable form), compact
// and capped, because a model's context is not free. Every text from readers or the API (site
// paths, comments, questions, search terms, branch names) is inside an evidence block, quoted and
// cut as "Ask the Agent to Address This" quotes it (the same functions), after the same note that
// it is data, never instructions, between markers with a fresh nonce. Dates from the API are
// quoted too: only our own figures and words stand bare. Pure: no vscode; test/unit/tools/toolTexts.test.ts
// pins the texts.
import type { VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import type { AgentJob } from '../api/schemas';
import { aiPercent, formatCount } from '../readers/readersText';
import { evidenceMarkers, evidenceText, quote, quoteText, type EvidenceMarkers, type EvidenceText } from '../prompt/quotedEvidence';
import { buildEvidencePrompt, pageEvidence } from '../signals/evidencePrompt';
import { buildInbox, pageHealth } from '../signals/signalsModel';
import type { SignalsSnapshot } from '../signals/snapshot';
import { oneLine } from '../util/visibleText';

/** The most characters any tool result has; a longer one is cut here, and says so. */
export const MAX_RESULT_CHARS = 6_000;
/** Rows per list of the gap inbox, and the default of the visitors' top paths. */
export const TOP_ROWS = 10;
/** Question groups of the gap inbox (each quotes its newest question). */
const TOP_QUESTION_GROUPS = 5;
/** The most top paths the visitors tool lists, whatever the model asks for. */
const MAX_TOP_PATHS = 25;
/** Jobs the agent-jobs tool lists, newest first: 15 rows of long branches and prompts still fit the cap (figure 11). */
export const MAX_JOBS = 15;
/** A site path, search term or branch in a list row: one row must not crowd out the rest. */
export const ROW_QUOTE = 120;
/** A job's prompt, as its label: the first paragraph, at most this long. */
const LABEL_CHARS = 80;

const fmt = formatCount;
/** An API text in a list row, quoted and cut as the evidence prompt cuts reader text. */
export const rowQuote = (text: string) => quoteText({ text }, ROW_QUOTE);
const kept = (fetchedAt: string) => `kept from ${fetchedAt}; no request was sent`;

/** A tool's answer: plain text (no reader or API text in it), or a text with an evidence block. */
export type ToolAnswer = string | EvidenceText;

/**
 * The answer's text, at most `max` characters. A cut one says how much was left out; a cut inside
 * the evidence block (known from where the block lies, never by looking for a marker in the text,
 * which a reader's text could imitate) keeps room for its own end marker and ends with it.
 */
export function capResult(answer: ToolAnswer, max = MAX_RESULT_CHARS): string {
  const text = typeof answer === 'string' ? answer : answer.text;
  if (text.length <= max) return text;
  const said = (kept: number) => `(result cut at ${fmt(max)} characters: ${fmt(text.length - kept)} more not included)`;
  const insideBlock = typeof answer !== 'string' && max > answer.blockStart;
  if (!insideBlock) {
    const kept = Math.max(0, max - said(max).length - 1);
    return `${text.slice(0, kept)}\n${said(kept)}`;
  }
  // Never less than the begin marker's line: an open block always has its end.
  const close = answer.markers.end;
  const kept = Math.max(answer.blockStart + answer.markers.begin.length, max - said(max).length - close.length - 2);
  return `${text.slice(0, kept)}\n${said(kept)}\n${close}`;
}

/** The open (or named) page's evidence: views, votes, pending comments, unanswered questions, weak searches. */
export function readerEvidenceText(snapshot: SignalsSnapshot, path: string, files: string[], markers: EvidenceMarkers = evidenceMarkers()): EvidenceText {
  const health = pageHealth(snapshot, path);
  const views = health.views
    ? `Views: ${fmt(health.views.total)} view events, ${fmt(health.views.human)} human and ${fmt(health.views.ai)} by AI agents (${aiPercent(health.views.ai, health.views.total)}% AI).`
    : health.viewsBelow !== undefined
      ? `Views: fewer than ${fmt(health.viewsBelow)} view events (the page is not among the most viewed pages kept).`
      : 'Views: none in the range.';
  const votes = health.feedbackUnknown ? ' Votes: not known (the page is beyond the 100 pages with the most feedback).' : '';
  const header = [
    `Reader evidence for one docs page, ${kept(snapshot.fetchedAt)}.`,
    `${views}${votes}`,
    `Counts: ${health.pendingComments.count} pending comments, ${health.codeFeedback.count} pending comments on code blocks, ${health.unanswered.count} unanswered assistant questions, ${health.lowCtrSearches.length} searches that lead to the page but are rarely clicked.`,
  ].join('\n');
  return buildEvidencePrompt(header, pageEvidence(snapshot, path, files), markers).evidence;
}

/** The gap inbox, ranked as the Reader Signals view ranks it. */
export function gapInboxText(snapshot: SignalsSnapshot, rankByAiShare: boolean, markers: EvidenceMarkers = evidenceMarkers()): EvidenceText {
  const inbox = buildInbox(snapshot, { rankByAiShare });
  const rank = rankByAiShare
    ? 'by the share of AI agents among readers, then not-helpful votes + pending comments (one on a code block counts twice), then readers'
    : 'by not-helpful votes + pending comments (one on a code block counts twice), then readers';
  const head = [
    `The gap inbox of the Reader Signals view, ${kept(snapshot.fetchedAt)}. Pages are ranked ${rank}; searches by how often readers searched; question groups by size.`,
    'Use get_mintlifyReaderEvidence on a page for its comments and questions.',
  ];
  const lines = [`Date range: ${snapshot.range.dateFrom} to ${snapshot.range.dateTo} (exclusive)`];
  section(
    lines,
    'Pages with not-helpful votes or pending comments',
    inbox.pages,
    TOP_ROWS,
    (p) =>
      `${rowQuote(p.path)}: ${p.thumbsDown} not helpful, ${p.thumbsUp} helpful, ${p.pendingComments} pending comments, ${p.codeComments} on code blocks, ${fmt(p.readers)} view events (${Math.round(p.aiShare * 100)}% AI)`,
  );
  section(lines, 'Searches where no result was clicked', inbox.searches, TOP_ROWS, (s) => `${rowQuote(s.searchQuery)}: ${fmt(s.hits)} searches`);
  section(lines, 'Unanswered assistant questions, by page or category', inbox.questions, TOP_QUESTION_GROUPS, (g) => {
    const where = g.kind === 'page' ? `page ${rowQuote(g.key ?? '')}` : g.kind === 'category' ? `category ${rowQuote(g.key ?? '')}` : 'no page or category';
    return `${where}: ${g.questions.length} questions; newest: ${quoteText(g.questions[0].query)}`;
  });
  return evidenceText(head, lines, markers);
}

/** Visitors of a range (`rangeName`: its preset, e.g. `last30`): the totals and the top paths, with the human/AI split. */
export function visitorsText(
  snapshot: VisitorsSnapshot,
  rangeName: string,
  top: number,
  sent: boolean,
  markers: EvidenceMarkers = evidenceMarkers(),
): EvidenceText {
  const { totals, key } = snapshot;
  const range = key.dateFrom ? `${key.dateFrom} to ${key.dateTo ?? 'today'}, end exclusive` : 'all time';
  const when = new Date(snapshot.fetchedAt).toISOString();
  const shown = Math.max(1, Math.min(top, MAX_TOP_PATHS));
  const head = [
    `Visitors, ${rangeName} (${range}), ${sent ? `fetched ${when} with ${snapshot.pages} requests` : kept(when)}.`,
    `Totals: ${fmt(totals.total)} visitors, ${fmt(totals.human)} human and ${fmt(totals.ai)} AI agents (${aiPercent(totals.ai, totals.total)}% AI).`,
    snapshot.capped
      ? `Only the ${fmt(snapshot.rows.length)} most read paths were fetched (the readers' page cap, or what the hour's analytics requests allowed).`
      : `${fmt(snapshot.rows.length)} paths had visitors.`,
  ];
  const lines: string[] = [];
  section(lines, 'Most read paths', snapshot.rows, shown, (row) => `${rowQuote(row.path)}: ${fmt(row.total)} (${fmt(row.human)} human, ${fmt(row.ai)} AI)`);
  return evidenceText(head, lines, markers);
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
export function agentJobsText(projectId: string, jobs: readonly JobFacts[], markers: EvidenceMarkers = evidenceMarkers()): EvidenceText {
  const sorted = [...jobs].sort((a, b) => compare(b.job?.createdAt ?? b.trackedAt, a.job?.createdAt ?? a.trackedAt));
  const lines: string[] = [];
  section(lines, 'Jobs', sorted, MAX_JOBS, jobLine);
  return evidenceText([`Agent jobs tracked for project ${quote(projectId)}, newest first (the Agent Jobs view; no request was sent).`], lines, markers);
}

/** A comment of a review of the agent's branch (src/review), as the agent-jobs tool tells it. */
interface ReviewCommentFacts {
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
export function agentJobText(tracked: JobFacts, reviews?: ReviewFacts, markers: EvidenceMarkers = evidenceMarkers()): EvidenceText {
  const lines = [jobLine(tracked)];
  section(lines, 'Prompts sent, oldest first', tracked.prompts, TOP_ROWS, (p) => `${quote(p.sentAt)}: ${quoteText({ text: p.text })}`);
  if (tracked.unsentPrompt) lines.push(`A prompt failed to send and waits as the job's unsent prompt: ${quoteText({ text: tracked.unsentPrompt })}`);
  if (reviews) {
    const comment = (c: ReviewCommentFacts) =>
      `${rowQuote(c.path)} ${c.startLine === c.endLine ? `line ${c.startLine}` : `lines ${c.startLine}-${c.endLine}`} of commit ${quote(c.commit.slice(0, 12))}: ${quoteText({ text: c.body }, ROW_QUOTE)}`;
    section(
      lines,
      'Reviews of its branch sent as follow-ups, oldest first (each is one of the prompts above)',
      reviews.sent,
      TOP_ROWS,
      (r) => `${quote(r.sentAt)}: ${r.comments.length} comments: ${r.comments.map(comment).join('; ')}`,
    );
    if (reviews.pending.length)
      section(
        lines,
        `Review comments written and not sent yet${reviews.lostAt ? ` (a send at ${quote(reviews.lostAt)} lost its answer: the agent may have them)` : ''}`,
        reviews.pending,
        TOP_ROWS,
        comment,
      );
  }
  return evidenceText([`Agent job ${quote(tracked.id)} as tracked here (no request was sent).`], lines, markers);
}

/** One job's row: every value from the API (its status and dates too) quoted; only our own words bare. */
function jobLine(tracked: JobFacts): string {
  const { job } = tracked;
  const status = tracked.notFound
    ? 'not found (the API answered 404)'
    : job
      ? rowQuote(job.status === 'unknown' ? job.reportedStatus : job.status)
      : 'not read yet';
  const parts = [`${quote(tracked.id)}: ${status}`];
  if (job?.ref) parts.push(`branch ${rowQuote(job.ref)}`);
  parts.push(job?.prLink ? `pull request ${rowQuote(job.prLink)}` : 'no pull request yet');
  if (job?.createdAt) parts.push(`created ${rowQuote(job.createdAt)}`);
  if (tracked.checkedAt) parts.push(`checked ${rowQuote(tracked.checkedAt)}`);
  const first = tracked.prompts[0]?.text.trim().split(/\n\s*\n/)[0];
  if (first) parts.push(`prompt ${quote(oneLine(first, LABEL_CHARS))}`);
  return parts.join(', ');
}

/** A titled list of at most `max` rows, numbered, with a visible "(n more not included)". */
export function section<T>(lines: string[], title: string, items: readonly T[], max: number, line: (item: T) => string): void {
  lines.push(`${title} (${fmt(items.length)}${items.length > max ? `, the first ${max}` : ''}):`);
  if (!items.length) lines.push('- none');
  items.slice(0, max).forEach((item, i) => lines.push(`${i + 1}. ${line(item)}`));
  if (items.length > max) lines.push(`(${fmt(items.length - max)} more not included)`);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
