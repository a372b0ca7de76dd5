// Which files of a docs root Mintlify leaves out of the site: the patterns it always ignores and the
// docs root's `.mintignore`, read with .gitignore's rules (last match wins, `!` takes a path back,
// `/` anchors, a trailing `/` means folders only, `*` `?` `**` `[…]`, letters in either case). As
// Mintlify walks the tree, a folder that is ignored hides everything in it: no pattern takes a file
// back out of it. The conformance tier holds this to Mintlify's own matcher (test/conformance/).
// No vscode import.

/** What Mintlify ignores in every docs root, whatever its .mintignore says, in its order (the last match wins). */
const ALWAYS_IGNORED = [
  ...['.git', '.github', '.claude', '.agents', '.idea', '.vscode', '.cursor'],
  ...['.mintlify/**', '!.mintlify/**/', '!.mintlify/skills/**', '!.mintlify/**/*.json', '!.mintlify/**/*.yaml', '!.mintlify/**/*.yml'],
  ...['node_modules', 'README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md'],
];

interface Rule {
  pattern: RegExp;
  negated: boolean;
  foldersOnly: boolean;
}

export interface IgnoreRules {
  /** True when Mintlify's walk never reaches `relativeFile` (POSIX, relative to the docs root): it, or a folder above it, is ignored. */
  ignores(relativeFile: string): boolean;
}

/** The rules of a docs root whose `.mintignore` holds `mintignore` (empty when it has none). */
export function ignoreRules(mintignore = ''): IgnoreRules {
  const rules = [...ALWAYS_IGNORED, ...mintignore.split(/\r?\n/)].map(rule).filter((r): r is Rule => r !== undefined);
  const matches = (path: string, folder: boolean) => {
    let ignored = false;
    for (const r of rules) if ((folder || !r.foldersOnly) && r.pattern.test(path)) ignored = !r.negated;
    return ignored;
  };
  return {
    ignores(relativeFile) {
      const segments = relativeFile.split('/').filter(Boolean);
      for (let i = 1; i <= segments.length; i++) if (matches(segments.slice(0, i).join('/'), i < segments.length)) return true;
      return false;
    },
  };
}

/** One line of an ignore file as a rule; undefined for a blank line, a comment or a pattern that matches nothing. */
function rule(line: string): Rule | undefined {
  let text = line.trim();
  if (!text || text.startsWith('#')) return undefined;
  const negated = text.startsWith('!');
  if (negated) text = text.slice(1);
  else if (text.startsWith('\\!') || text.startsWith('\\#')) text = text.slice(1);
  // A lone `!` takes back every path ignored so far (Mintlify's matcher reads it so).
  if (negated && !text) return { pattern: /^/, negated, foldersOnly: false };
  const foldersOnly = text.endsWith('/');
  text = text.replace(/\/+$/, '');
  // A slash before the end ties the pattern to the docs root; without one it matches at any depth.
  const anchored = text.includes('/');
  text = text.replace(/^\/+/, '');
  if (!text) return undefined;
  const body = globSource(text);
  if (body === undefined) return undefined;
  return { pattern: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}$`, 'i'), negated, foldersOnly };
}

/** A glob as a regular expression's source, or undefined when a `[` is never closed (git then matches nothing). */
function globSource(glob: string): string | undefined {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '*') {
      let stars = 1;
      for (; glob[i + 1] === '*'; i++) stars++;
      const wholeSegment = (i - stars < 0 || glob[i - stars] === '/') && (i + 1 === glob.length || glob[i + 1] === '/');
      if (stars < 2 || !wholeSegment) out += '[^/]*';
      else if (i + 1 === glob.length) out += '.*';
      else {
        out += '(?:.*/)?';
        i++; // the slash after `**` is part of it
      }
    } else if (char === '?') out += '[^/]';
    else if (char === '[') {
      // A `]` first in it is a member; nothing negates one to Mintlify's matcher (`[!a]`, `[^a]`: the mark or `a`).
      const bracket = /^\[(\]?(?:\\.|[^\]])*)\]/.exec(glob.slice(i));
      if (!bracket) return undefined;
      out += `(?!/)[${(bracket[1] ?? '').replace(/\\(.)/g, '$1').replace(/[\\\]^[]/g, '\\$&')}]`;
      i += bracket[0].length - 1;
    } else if (char === '\\' && glob[i + 1] === '*') {
      // `\*` is a wildcard all the same to Mintlify's matcher: the backslash is dropped.
    } else if (char === '\\') out += escapeRegExp(glob[++i] ?? '');
    else out += escapeRegExp(char);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
