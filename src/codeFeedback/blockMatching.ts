// Which fenced code block of a docs page each reader's code-snippet feedback is about. The API
// gives the snippet's text (and its fence's language and file name), never a line: so the match is
// by text, made deterministic. Both sides are normalised the same way (line endings, each line's
// indentation and inner runs of whitespace, blank lines, the highlight and diff marks a reader does
// not copy), so a block indented inside `<CodeGroup>` or `<Steps>`, or saved with CRLF, still
// matches; among equal blocks the fence's title (the feedback's file name; none when it has none),
// then its language, pick one, then the first in reading order (the page, then the files it
// imports), and the match says how many others were as likely (its twins). A snippet no block
// matches is about a block that is no longer on the page.
// Pure: no vscode.
import { posix } from 'node:path';
import type { CodeSnippet } from '../signals/snapshot';
import { copiedLine, fenceMeta } from './fenceMeta';

/** A fenced code block of a Markdown/MDX text. Lines are 0-based. */
interface FencedBlock {
  /** The opening fence's line. */
  startLine: number;
  /** The closing fence's line (the text's last line when the fence is never closed). */
  endLine: number;
  /** The fence's language (` ```bash `), as written. */
  lang: string | undefined;
  /** The fence's title, as Mintlify shows it above the block: ` ```bash install.sh `, `title="app.js"` (src/codeFeedback/fenceMeta.ts). */
  title: string | undefined;
  /** The lines between the fences, as written. */
  code: string;
}

/** A text to search: the page, or a snippet file it imports. `key` names it for the caller (a URI). */
export interface SourceText {
  key: string;
  text: string;
}

interface BlockMatch<T> {
  key: string;
  block: FencedBlock;
  /** The feedback about this block, in the order given. */
  items: T[];
  /** How many other blocks had the same code and were as likely for some of the feedback: it may be about one of them. */
  twins: number;
}

interface Matching<T> {
  /** The matched blocks in reading order. */
  blocks: BlockMatch<T>[];
  /** Feedback whose snippet no block matches: the block changed, or went, since. */
  gone: T[];
}

const OPEN_FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const CLOSE_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

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

/** The text both sides are compared as: each line as copied, trimmed, inner whitespace runs one space, blank lines dropped, `\n` between. */
export function normaliseCode(code: string): string {
  return code
    .split(/\r\n|\r|\n/)
    .map((line) => copiedLine(line).trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * The Markdown and MDX files `text` imports, as Mintlify resolves them: each local import (`/…`,
 * `./…`, `../…`) of a line starting with `import`, outside code blocks, relative to the importing file
 * (`importingFile`, POSIX, relative to the docs root) or to the root, as paths relative to the docs
 * root. A path never climbs out of the root: `/snippets/../../x.mdx` is the root's `x.mdx`, as Mintlify reads it.
 */
export function importedFiles(text: string, importingFile: string): string[] {
  const found = new Set<string>();
  const code = new Set(fencedBlocks(text).flatMap((b) => Array.from({ length: b.endLine - b.startLine + 1 }, (_, i) => b.startLine + i)));
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((line, i) => {
    if (code.has(i) || !/^import[ \t{*]/.test(line)) return;
    // One import may run over several lines (`import {\n  A,\n} from '…'`).
    const source = /^import\s[^'"]*?['"]([^'"]+)['"]/.exec(lines.slice(i, i + 20).join('\n'))?.[1];
    if (!source || !/^(?:\/|\.\.?\/)/.test(source) || !/\.mdx?$/.test(source)) return;
    const resolved = source.startsWith('/') ? posix.normalize(source) : posix.resolve(posix.dirname(`/${importingFile}`), source);
    found.add(resolved.slice(1));
  });
  return [...found];
}

/**
 * The operation whose API reference Mintlify generates on this page, from its frontmatter's
 * `openapi:` (`POST /users`, a spec file's name before it left out) or `api:`: the request and
 * response samples it shows are in no file. Undefined for a page that generates none.
 */
export function generatedApiOperation(text: string): string | undefined {
  const frontmatter = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text)?.[1];
  const value = frontmatter && /^(?:openapi|api):[ \t]*(?:"([^"]*)"|'([^']*)'|(.*))$/m.exec(frontmatter);
  const words = value ? (value[1] ?? value[2] ?? value[3] ?? '').trim().split(/\s+/) : [];
  // `[spec file] METHOD path`, or `METHOD url` for an `api:` page.
  const [method, path] = words.slice(-2);
  return words.length <= 3 && path && /^(?:get|put|post|delete|options|head|patch|trace|webhook)$/i.test(method ?? '')
    ? `${method?.toUpperCase()} ${path}`
    : undefined;
}

/**
 * Each item with a snippet, placed on the block it is about among `sources` (the page first):
 * equal normalised text (or, for a snippet kept cut short, the block beginning with its kept whole
 * lines), then the block whose title is the snippet's file name, then whose language is its
 * language, then the first. Items without a snippet are left out of both lists.
 */
export function matchSnippets<T extends { snippet?: CodeSnippet }>(items: readonly T[], sources: readonly SourceText[]): Matching<T> {
  const all = sources.flatMap((source) => fencedBlocks(source.text).map((block) => ({ key: source.key, block, text: normaliseCode(block.code) })));
  const byBlock = new Map<(typeof all)[number], { items: T[]; twins: number }>();
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
    const entry = byBlock.get(best.candidate) ?? { items: [], twins: 0 };
    entry.items.push(item);
    entry.twins = Math.max(entry.twins, best.twins);
    byBlock.set(best.candidate, entry);
  }
  const blocks = all.flatMap((c) => {
    const entry = byBlock.get(c);
    return entry ? [{ key: c.key, block: c.block, items: entry.items, twins: entry.twins }] : [];
  });
  return { blocks, gone };
}

/** What a block's normalised text must be (`whole`) or begin with (a snippet kept cut short); undefined when nothing is left to compare. */
function wantedText(snippet: CodeSnippet): { text: string; whole: boolean } | undefined {
  const { text, fullLength } = snippet.code;
  const normalised = normaliseCode(text);
  if (!normalised) return undefined;
  // Cut short, its last line may end mid-word: the block's line then begins with it, so a
  // one-line block longer than what was kept still matches.
  return { text: normalised, whole: fullLength === undefined || fullLength <= text.length };
}

/**
 * The candidate the snippet is most likely about, and how many others were as likely: the block
 * whose title is the snippet's file name, then whose language is its language; for a snippet with
 * no file name an untitled block, then for one with no language an unlabelled one; then the first.
 */
function pick<C extends { block: FencedBlock }>(candidates: readonly C[], snippet: CodeSnippet): { candidate: C; twins: number } | undefined {
  const name = (text: string | undefined) => text?.trim().toLowerCase() || undefined;
  const [filename, lang] = [name(snippet.filename), name(snippet.lang)];
  const score = ({ block }: C) =>
    filename !== undefined
      ? (name(block.title) === filename ? 8 : 0) + (lang !== undefined ? (name(block.lang) === lang ? 4 : 0) : name(block.lang) ? 0 : 1)
      : (lang !== undefined ? (name(block.lang) === lang ? 4 : 0) : name(block.lang) ? 0 : 1) + (name(block.title) ? 0 : 2);
  const best = Math.max(...candidates.map(score));
  const likeliest = candidates.filter((c) => score(c) === best);
  return likeliest[0] && { candidate: likeliest[0], twins: likeliest.length - 1 };
}
