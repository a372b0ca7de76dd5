// The follow-up a pending review becomes: the writer's overall instruction (if any), then each
// comment in file and line order with its path in the repository, its lines in the agent's version,
// those lines quoted in a fence that no run of backticks inside them can close, and the writer's
// words. Too long a prompt is cut per comment, quoted lines before words, each cut marked
// "(shortened)". The writer's words and the agent's lines are sent exactly as written. Pure: no vscode.

/**
 * The longest review prompt composed, in characters. The API documents no maximum for a prompt
 * (test/contract/spec/mintlify-admin-openapi.json gives `prompt` a minLength of 1 and no maxLength;
 * src/api/inputs.ts checkPrompt checks only that it is not empty): this is our own bound, a long review of ~5,000 words, so that a review of
 * whole pages does not become a request the platform may refuse or a model may not read to the end.
 */
export const REVIEW_PROMPT_MAX_CHARS = 20_000;
export const SHORTENED = '(shortened)';

export interface ReviewCommentInput {
  /** The file's path in the repository (POSIX). */
  path: string;
  /** 1-based, inclusive: the lines in the agent's latest version (or, outdated, in the version quoted). */
  startLine: number;
  endLine: number;
  /** The lines quoted, as they read in the agent's version they were commented on. */
  lines: readonly string[];
  /** The writer's words. */
  body: string;
  /**
   * The lines are numbered and quoted as an earlier round of the branch has them (`commit`), not the
   * latest: the agent changed them since (`changed`), or git could not compare the two rounds.
   */
  earlier?: { commit: string; changed: boolean };
}

interface ReviewPromptInput {
  /** The writer's instruction for the whole review; blank for none. */
  instruction?: string;
  /** The agent's branch and the commit of its version the lines are numbered in. */
  branch?: string;
  commit?: string;
  comments: readonly ReviewCommentInput[];
  maxChars?: number;
}

interface ComposedComment {
  of: number;
  place: string;
  words: string;
}

export interface ReviewPrompt {
  prompt: string;
  /** How many comments were cut to fit. */
  shortened: number;
  /** Whether the prompt still exceeds the limit (an instruction longer than it: never cut). */
  tooLong: boolean;
  /** Each comment as the prompt has it, in the prompt's order: its index in the input, the end of its heading line (its place), its words (cut ones end with "…"). */
  parts: ComposedComment[];
}

/** A fence of backticks longer than any run of backticks in `lines` (at least three). */
export function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** File, then first line, then last line; the path compared by code unit, the same in every locale. */
export function inReviewOrder<T extends Pick<ReviewCommentInput, 'path' | 'startLine' | 'endLine'>>(comments: readonly T[]): T[] {
  return [...comments].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine || a.endLine - b.endLine));
}

const short = (commit: string) => commit.slice(0, 12);
const linesWord = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);

/** What each comment keeps: all of it, or a cut of its quoted lines and words. */
interface Kept {
  lines: number;
  /** Characters of the last kept line when even the first line does not fit whole (undefined: whole lines). */
  lastLineChars?: number;
  bodyChars: number;
}

export function composeReviewPrompt(input: ReviewPromptInput): ReviewPrompt {
  const max = input.maxChars ?? REVIEW_PROMPT_MAX_CHARS;
  const order = inReviewOrder(input.comments.map((c, of) => ({ ...c, of })));
  const comments: ReviewCommentInput[] = order;
  const partsOf = (kept: readonly Kept[]) => order.map((c, i) => ({ of: c.of, place: placeOf(c), words: wordsAsSent(c, kept[i]) }));
  const whole: Kept[] = comments.map((c) => ({ lines: c.lines.length, bodyChars: c.body.length }));
  let prompt = render(input, comments, whole);
  if (prompt.length <= max) return { prompt, shortened: 0, tooLong: false, parts: partsOf(whole) };
  // The quoted lines and the words are what may be cut; everything else stays. A number of characters for
  // them is shared out equally (a small comment keeps all of it and leaves the rest to the others); the
  // largest number whose prompt, with the marks its cuts add, fits is found by bisection.
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (render(input, comments, share(comments, mid)).length <= max) low = mid;
    else high = mid - 1;
  }
  const kept = share(comments, low);
  prompt = render(input, comments, kept);
  const shortened = kept.filter((k, i) => k.lines < comments[i].lines.length || k.lastLineChars !== undefined || k.bodyChars < comments[i].body.length).length;
  return { prompt, shortened, tooLong: prompt.length > max, parts: partsOf(kept) };
}

/**
 * Which of the composed comments the text sent still holds (by their index in the input): the
 * writer may cut a comment from the preview, and a comment cut was not sent. The text is read in
 * parts, each from a line that starts with "--- " (a comment's heading) to the next; a comment is in
 * the text when its words, as the prompt has them, are whole lines of a part: first of a part whose
 * heading names its place (file and lines, whatever number the writer gave it), else of any part no
 * other comment's words were found in. Two comments with the same words are told apart by their
 * headings; words the writer edited are no longer the comment's.
 */
export function commentsIn(sent: string, composed: Pick<ReviewPrompt, 'parts'>): Set<number> {
  const parts: { heading: string; body: string }[] = [{ heading: '', body: '\n' }];
  for (const line of sent.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.startsWith('--- ')) parts.push({ heading: line, body: '\n' });
    else parts[parts.length - 1].body += `${line}\n`;
  }
  const used = new Set<number>();
  const found = new Set<number>();
  const holds = (part: number, words: string) => !used.has(part) && parts[part].body.includes(`\n${words.replace(/\r\n?/g, '\n')}\n`);
  for (const byPlace of [true, false])
    for (const c of composed.parts) {
      if (found.has(c.of)) continue;
      const part = parts.findIndex((p, i) => (!byPlace || p.heading.endsWith(c.place)) && holds(i, c.words));
      if (part < 0) continue;
      used.add(part);
      found.add(c.of);
    }
  return found;
}

/** The end of a comment's heading: its file and lines. */
function placeOf(c: ReviewCommentInput): string {
  const at = c.earlier
    ? `${linesWord(c.startLine, c.endLine)} of your earlier version (commit ${short(c.earlier.commit)}${c.earlier.changed ? '; you have changed them since' : ''})`
    : linesWord(c.startLine, c.endLine);
  return `: ${c.path}, ${at} ---`;
}

function wordsAsSent(c: ReviewCommentInput, k: Kept): string {
  return k.bodyChars < c.body.length ? `${c.body.slice(0, k.bodyChars).trimEnd()}…` : c.body;
}

function size(c: ReviewCommentInput): number {
  return c.lines.reduce((n, line) => n + line.length + 1, 0) + c.body.length;
}

function share(comments: readonly ReviewCommentInput[], chars: number): Kept[] {
  const order = comments.map((c, i) => ({ i, size: size(c) })).sort((a, b) => a.size - b.size);
  const kept: Kept[] = [];
  let left = chars;
  order.forEach(({ i, size: need }, n) => {
    const allowance = Math.floor(left / (order.length - n));
    const c = comments[i];
    if (need <= allowance) {
      kept[i] = { lines: c.lines.length, bodyChars: c.body.length };
      left -= need;
      return;
    }
    kept[i] = cut(c, allowance);
    left -= allowance;
  });
  return kept;
}

/** Within `allowance` characters: the quote gets what the words leave, and at least half. */
function cut(c: ReviewCommentInput, allowance: number): Kept {
  const quoteChars = c.lines.reduce((n, line) => n + line.length + 1, 0);
  const forQuote = Math.min(quoteChars, Math.max(allowance - c.body.length, Math.floor(allowance / 2)));
  const bodyChars = Math.max(0, Math.min(c.body.length, allowance - forQuote));
  let lines = 0;
  let used = 0;
  while (lines < c.lines.length && used + c.lines[lines].length + 1 <= forQuote) {
    used += c.lines[lines].length + 1;
    lines++;
  }
  if (lines === 0 && c.lines.length && forQuote > 0) return { lines: 1, lastLineChars: forQuote, bodyChars };
  return { lines, bodyChars };
}

function render(input: ReviewPromptInput, comments: readonly ReviewCommentInput[], kept: readonly Kept[]): string {
  const out: string[] = [];
  const instruction = input.instruction?.trim();
  if (instruction) out.push(instruction, '');
  const n = comments.length;
  const where = input.branch ? ` on branch ${input.branch}${input.commit ? ` (commit ${short(input.commit)})` : ''}` : '';
  out.push(
    `Review of your changes${where}: ${n} ${n === 1 ? 'comment' : 'comments'}, in file and line order. Each names a file of the repository and lines of your version of it, quotes those lines between fences, then gives the reviewer's words. Address every comment.`,
  );
  comments.forEach((c, i) => {
    const k = kept[i];
    out.push('', `--- Comment ${i + 1} of ${n}${placeOf(c)}`);
    const quoted = c.lines.slice(0, k.lines);
    if (k.lastLineChars !== undefined && quoted.length) quoted[quoted.length - 1] = quoted[quoted.length - 1].slice(0, k.lastLineChars);
    if (quoted.length) {
      const fence = fenceFor(quoted);
      out.push(fence, ...quoted, fence);
    }
    if (k.lines < c.lines.length || k.lastLineChars !== undefined) {
      const whole = k.lastLineChars === undefined ? k.lines : k.lines - 1;
      out.push(`${SHORTENED} ${whole} of the ${c.lines.length} lines quoted in full; read the rest in ${c.path}.`);
    }
    out.push(wordsAsSent(c, k));
    if (k.bodyChars < c.body.length) out.push(SHORTENED);
  });
  out.push('', '--- End of review ---');
  return out.join('\n');
}
