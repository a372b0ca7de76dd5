// Which fenced code block of a docs page each reader's code-snippet feedback is about. The API
// gives the snippet's text (and its fence's language and file name), never a line: so the match is
// by text, made deterministic. Both sides are normalised the same way (line endings, each line's
// indentation and inner runs of whitespace, blank lines), so a block indented inside `<CodeGroup>`
// or `<Steps>`, or saved with CRLF, still matches; among equal blocks the fence's file name, then
// its language, pick one, then the first in reading order (the page, then its imported snippet
// files). A snippet no block matches is about a block that is no longer on the page.
// Pure: no vscode.
import type { CodeSnippet } from '../signals/snapshot';

/** A fenced code block of a Markdown/MDX text. Lines are 0-based. */
export interface FencedBlock {
  /** The opening fence's line. */
  startLine: number;
  /** The closing fence's line (the text's last line when the fence is never closed). */
  endLine: number;
  /** The fence's language (` ```bash `), as written. */
  lang: string | undefined;
  /** The fence's title or file name: ` ```bash install.sh `, `title="app.js"`, `filename="app.js"`. */
  title: string | undefined;
  /** The lines between the fences, as written. */
  code: string;
}

/** A text to search: the page, or a snippet file it imports. `key` names it for the caller (a URI). */
export interface SourceText {
  key: string;
  text: string;
}

export interface BlockMatch<T> {
  key: string;
  block: FencedBlock;
  /** The feedback about this block, in the order given. */
  items: T[];
}

export interface Matching<T> {
  /** The matched blocks in reading order. */
  blocks: BlockMatch<T>[];
  /** Feedback whose snippet no block matches: the block changed, or went, since. */
  gone: T[];
}

const OPEN_FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const CLOSE_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/** Fence words that are options, not a title. */
const FENCE_FLAGS = new Set(['wrap', 'lines', 'expandable']);

/** Every fenced block of `text`, in order. */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.split(/\r\n|\r|\n/);
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN_FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[2] ?? '```';
    const info = open[3] ?? '';
    // A backtick fence's info string holds no backtick (CommonMark): "```js```" is inline code.
    if (fence.startsWith('`') && info.includes('`')) continue;
    let end = i + 1;
    for (; end < lines.length; end++) {
      const close = CLOSE_FENCE.exec(lines[end] ?? '');
      if (close?.[1] && close[1][0] === fence[0] && close[1].length >= fence.length) break;
    }
    const { lang, title } = fenceMeta(info);
    blocks.push({ startLine: i, endLine: Math.min(end, lines.length - 1), lang, title, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The language (the first word) and the title of a fence's info string. */
export function fenceMeta(info: string): { lang: string | undefined; title: string | undefined } {
  const text = info.trim();
  const lang = /^[^\s{]+/.exec(text)?.[0];
  let rest = lang ? text.slice(lang.length) : text;
  const named = /\b(?:title|filename)=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(rest);
  if (named) return { lang, title: (named[1] ?? named[2] ?? named[3] ?? '').trim() || undefined };
  rest = rest.replace(/\{[^}]*\}/g, ' ').replace(/\b[\w-]+=(?:"[^"]*"|'[^']*'|\S+)/g, ' ');
  const words = rest.split(/\s+/).filter((w) => w && !FENCE_FLAGS.has(w));
  return { lang, title: words.join(' ') || undefined };
}

/** The text both sides are compared as: each line trimmed, inner whitespace runs one space, blank lines dropped, `\n` between. */
export function normaliseCode(code: string): string {
  return code
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
}

/** The import specifiers of `text` that name a snippet file of the docs root (`/snippets/…`). */
export function snippetImports(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*import\s[^;'"]*?\bfrom\s*(['"])(\/snippets\/[^'"]+)\1/gm)) if (m[2]) found.add(m[2]);
  return [...found];
}

/**
 * Each item with a snippet, placed on the block it is about among `sources` (the page first):
 * equal normalised text (or, for a snippet kept cut short, the block beginning with its kept whole
 * lines), then the block whose title is the snippet's file name, then whose language is its
 * language, then the first. Items without a snippet are left out of both lists.
 */
export function matchSnippets<T extends { snippet?: CodeSnippet }>(items: readonly T[], sources: readonly SourceText[]): Matching<T> {
  const all = sources.flatMap((source) => fencedBlocks(source.text).map((block) => ({ key: source.key, block, text: normaliseCode(block.code) })));
  const byBlock = new Map<(typeof all)[number], T[]>();
  const gone: T[] = [];
  for (const item of items) {
    const snippet = item.snippet;
    if (!snippet) continue;
    const wanted = wantedText(snippet);
    const candidates = wanted === undefined ? [] : all.filter((c) => (wanted.whole ? c.text === wanted.text : c.text.startsWith(wanted.text)));
    const best = pick(candidates, snippet);
    if (!best) {
      gone.push(item);
      continue;
    }
    const list = byBlock.get(best);
    if (list) list.push(item);
    else byBlock.set(best, [item]);
  }
  const blocks = all.filter((c) => byBlock.has(c)).map((c) => ({ key: c.key, block: c.block, items: byBlock.get(c) ?? [] }));
  return { blocks, gone };
}

/** What a block's normalised text must be (`whole`) or begin with; undefined when nothing is left to compare. */
function wantedText(snippet: CodeSnippet): { text: string; whole: boolean } | undefined {
  const { text, fullLength } = snippet.code;
  if (fullLength === undefined || fullLength <= text.length) {
    const whole = normaliseCode(text);
    return whole ? { text: whole, whole: true } : undefined;
  }
  // Cut short: its last line may be cut in the middle, so only the lines before it count.
  const cut = text.search(/[^\r\n]*$/);
  const prefix = normaliseCode(text.slice(0, cut));
  return prefix ? { text: prefix, whole: false } : undefined;
}

function pick<C extends { block: FencedBlock }>(candidates: readonly C[], snippet: CodeSnippet): C | undefined {
  if (candidates.length < 2) return candidates[0];
  const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
  const score = (c: C) => (same(c.block.title, snippet.filename) ? 2 : 0) + (same(c.block.lang, snippet.lang) ? 1 : 0);
  let best = candidates[0];
  for (const c of candidates) if (best && score(c) > score(best)) best = c;
  return best;
}
