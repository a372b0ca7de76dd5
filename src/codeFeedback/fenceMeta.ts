// A fenced code block's language and title as Mintlify reads its info string (` ```bash install.sh wrap `),
// and the text a reader copies from it. The title is what Mintlify shows above the block and what a
// reader's feedback carries as its `filename`: `title="…"` when there is one, else the words left
// once Mintlify's own options are taken out (`wrap`, `lines`, `highlight={1-3}`, `icon="npm"`, any
// quoted, `/…/` or `{…}` value), so `filename="app.js"` is an option like any other and sets no
// title. The conformance tier holds both to Mintlify's code (test/conformance/codeBlocks.test.ts).
// Pure: no vscode.

/** The option names Mintlify takes out of the title's words (compared as written). */
const OPTION_NAMES = new Set(['title', 'icon', 'lang', 'lines', 'wrap', 'expandable', '[expandable]', 'highlight', 'focus', 'theme', 'twoslash', 'nocopy']);
/** A quoted, `/…/` or `{…}` value, with its `name=` if any, standing alone between spaces. */
const DELIMITED = /(?<=\s|^)(?:([^\s'"/=]+)\s*=\s*)?(?:"((?:[^\\]|\\.)*?)"|'((?:[^\\]|\\.)*?)'|\/((?:[^\\]|\\.)*?)\/|\{((?:[^\\]|\\.)*?)\})(?=\s|$)/g;
/** A word, or `name=value`, of what is left. */
const SIMPLE = /([^\s=]+)(?:\s*=\s*(\S+))?/g;
/** Shiki's notation Mintlify renders and leaves out of the copied text: highlight, focus and diff marks. */
const MARK = String.raw`\[!code (?:\+\+|--|highlight|hl|focus)(?::\d+)?\]`;
/** A mark with the comment holding it: at the end of a line after `//`, `#`, `--`, `;` or `%`, or in a block comment anywhere. */
const NOTATION = new RegExp(String.raw`\s*(?:\{\/\*\s*${MARK}\s*\*\/\}|\/\*\s*${MARK}\s*\*\/|<!--\s*${MARK}\s*-->|(?:\/\/|#|--|;|%)\s*${MARK}\s*$)`, 'g');

/** The language (the info string's first word) and the title of a fence's info string. */
export function fenceMeta(info: string): { lang: string | undefined; title: string | undefined } {
  const text = info.trim();
  const lang = /^\S+/.exec(text)?.[0];
  const meta = lang ? text.slice(lang.length).trim() : '';
  // The last `title` (by place) whose value is text, not `true` or `false`.
  let title: { at: number; value: string } | undefined;
  const titled = (at: number, value: string) => {
    if (!title || at > title.at) title = { at, value };
  };
  // The delimited values first, each blanked out of what is left.
  let rest = meta.replace(DELIMITED, (whole: string, name: string | undefined, double: string | undefined, single: string | undefined, ...more: unknown[]) => {
    const value = double ?? single;
    if (name?.toLowerCase() === 'title' && value !== undefined && !/^(?:true|false)$/i.test(value))
      titled(more[2] as number, unescaped(value, double === undefined ? "'" : '"'));
    return ' '.repeat(whole.length);
  });
  rest = rest.replace(SIMPLE, (whole: string, name: string, value: string | undefined, at: number) => {
    if (name.toLowerCase() === 'title' && value !== undefined && value !== 'true' && value !== 'false') titled(at, value);
    return OPTION_NAMES.has(name) ? ' '.repeat(whole.length) : whole;
  });
  return { lang, title: title?.value || rest.trim() || undefined };
}

/**
 * A line as a reader copies it from the rendered block: without Shiki's notation (`// [!code ++]`,
 * `# [!code highlight]`, `<!-- [!code focus] -->`) and the comment marks around it. A line that was only
 * the mark is empty (the matching drops empty lines).
 */
export function copiedLine(line: string): string {
  return line.includes('[!code ') ? line.replace(NOTATION, '') : line;
}

function unescaped(value: string, quote: string): string {
  return value.replace(new RegExp(`\\\\(\\\\|${quote})`, 'g'), '$1');
}
