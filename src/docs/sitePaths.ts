// The docs site's page paths and the workspace files behind them, both directions in one place so
// they cannot drift apart. Paths here are POSIX paths relative to the docs root (the folder
// holding docs.json or mint.json, or the workspace folder when there is none).
// A site path is text from the public internet, so it is only ever used to build file names under
// the docs root, never a glob or a path that could climb out of it.
// No vscode import: unit-tested directly.
import { decodeSegment } from '../util/decodeSegment';
import { ignoreRules, type IgnoreRules } from './ignoreRules';

/** A page's file: Markdown or MDX, the extension in lower case (Mintlify serves `Guide.MDX` as a file, not a page). */
const PAGE_FILE = /^.+\.mdx?$/;
/** Markdown files Mintlify never serves as pages, in any folder (`.md` only: `README.mdx` is a page). */
const NOT_PAGE_MARKDOWN = /(?:^|\/)(?:readme|license|contributing|contribute)\.md$/i;
/** The docs root's snippet folders and the agent skill files: content, not pages. */
const NOT_PAGE_FILE = /^(?:_?snippets\/|skill\.md$|\.mintlify\/skills\/(?:.*\/)?skill\.md$)/i;
/** What Mintlify ignores in a docs root without a .mintignore. */
const ALWAYS_IGNORED = ignoreRules();

/**
 * Site path → the files it may come from, best first. `/quickstart` → quickstart.mdx, quickstart.md,
 * quickstart/index.mdx, quickstart/index.md; `/` → index.mdx, index.md. Undefined when the path
 * cannot name a file inside the docs root (`..` segments, backslashes, control characters).
 */
export function docCandidates(path: string): string[] | undefined {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  const segments: string[] = [];
  for (const raw of withoutQuery.split('/')) {
    if (!raw) continue;
    const segment = decodeSegment(raw);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
    if (segment === '.' || segment === '..' || /[\\/:\u0000-\u001f]/.test(segment)) return undefined;
    segments.push(segment);
  }
  const base = segments.join('/');
  if (!base) return ['index.mdx', 'index.md'];
  return [`${base}.mdx`, `${base}.md`, `${base}/index.mdx`, `${base}/index.md`];
}

/**
 * File (relative to the docs root) → its site path, as Mintlify serves it: `quickstart.mdx` →
 * `/quickstart`, `guides/index.md` → `/guides` (Mintlify serves `/guides/index` too: the same page,
 * see {@link normalizeSitePath}), `index.mdx` → `/`, `_partial.mdx` → `/_partial`. Undefined for a
 * file that is not a page: not `.md`/`.mdx`, outside the root (`../x.md`), in the root's `snippets/`
 * or `_snippets/`, a README, LICENSE, CONTRIBUTING or CONTRIBUTE `.md` in any folder, or one that
 * Mintlify ignores (`ignore`: its own list, node_modules and tool folders among them, and the docs
 * root's `.mintignore`). The inverse of {@link docCandidates}: the result's candidates include the file.
 */
export function sitePathOf(relativeFile: string, ignore: IgnoreRules = ALWAYS_IGNORED): string | undefined {
  const segments = relativeFile.split('/').filter((s) => s && s !== '.');
  if (segments.includes('..')) return undefined;
  const file = segments.join('/');
  if (!PAGE_FILE.test(segments.at(-1) ?? '') || NOT_PAGE_MARKDOWN.test(file) || NOT_PAGE_FILE.test(file) || ignore.ignores(file)) return undefined;
  const slug = file.replace(/\.mdx?$/, '');
  return `/${slug === 'index' ? '' : slug.replace(/\/index$/, '')}`;
}

/**
 * The docs root a file belongs to, among the folders holding docs.json/mint.json (`configRoots`)
 * and the file's workspace folder (all absolute POSIX paths without a trailing slash). The deepest
 * config folder holding the file wins; a workspace folder that has a config folder elsewhere inside
 * it is not itself a docs root (a monorepo's README.md is not a page); otherwise the workspace folder
 * is the root. Undefined when the file is under none of them.
 */
export function docsRootOf(file: string, configRoots: readonly string[], workspaceFolder: string | undefined): string | undefined {
  const holding = configRoots.filter((root) => isInside(file, root)).sort((a, b) => b.length - a.length);
  if (holding[0] !== undefined) return holding[0];
  if (workspaceFolder === undefined || !isInside(file, workspaceFolder)) return undefined;
  if (configRoots.some((root) => root === workspaceFolder || isInside(root, workspaceFolder))) return undefined;
  return workspaceFolder;
}

/** `file` relative to `folder`, when it is inside it. */
export function relativeTo(file: string, folder: string): string | undefined {
  return isInside(file, folder) ? file.slice(folder === '/' ? 1 : folder.length + 1) : undefined;
}

function isInside(path: string, folder: string): boolean {
  return folder === '/' ? path.startsWith('/') && path !== '/' : path.startsWith(`${folder}/`);
}

/**
 * A page as the API names it, in one form for keys and comparisons: the decoded site path with a
 * leading slash and no trailing slash or surrounding spaces. The API names a page by its site path
 * (`/quickstart`, already decoded: a `?`, `#` or `%` in it is part of the page's name, as in the
 * simulator's `/guides/a b?c#d`) or, in `pageUrl` and sometimes a feedback `path`, by its full URL
 * (`https://docs.acme.dev/quickstart/?ref=nav`), whose query and fragment are dropped and whose
 * path is percent-decoded. A section's page is one page under both of the paths Mintlify serves it
 * at, `/guides` and `/guides/index` (its sidebar, redirects and llms.txt use the second): `/guides`.
 * On a site served under a base path (`basePath` `/docs` for `example.com/docs`), a path that starts
 * with it is read without it, as Mintlify strips it: `/docs/quickstart` → `/quickstart`.
 */
export function normalizeSitePath(value: string, basePath = ''): string {
  const text = value.trim();
  const url = /^https?:\/\//i.test(text) ? parseUrl(text) : undefined;
  const path = rooted(url ? decodeSegments(url.pathname) : text);
  const base = rooted(basePath.trim());
  const inSite = base === '/' ? path : path === base ? '/' : path.startsWith(`${base}/`) ? path.slice(base.length) : path;
  return inSite === '/index' ? '/' : inSite.replace(/\/index$/, '');
}

/** `path` with one leading slash and no trailing one (`/` itself stays). */
function rooted(path: string): string {
  const bare = path.replace(/\/+$/, '');
  return bare.startsWith('/') ? bare || '/' : `/${bare}`;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined; // not a URL after all: read as a path
  }
}

function decodeSegments(path: string): string {
  return path.split('/').map(decodeSegment).join('/');
}
