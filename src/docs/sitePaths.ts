// The docs site's page paths and the workspace files behind them, both directions in one place so
// they cannot drift apart. Paths here are POSIX paths relative to the docs root (the folder
// holding docs.json or mint.json, or the workspace folder when there is none).
// A site path is text from the public internet, so it is only ever used to build file names under
// the docs root, never a glob or a path that could climb out of it.
// No vscode import: unit-tested directly.
import { decodeSegment } from '../util/decodeSegment';

const PAGE_EXTENSIONS = ['.mdx', '.md'] as const;
/** Folders Mintlify never serves as pages: reusable snippets, dependencies, hidden folders. */
const NOT_PAGES = new Set(['snippets', 'node_modules']);

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
 * File (relative to the docs root) → its site path: `quickstart.mdx` → `/quickstart`,
 * `guides/index.md` → `/guides`, `index.mdx` → `/`. Undefined for a file that is not a page: not
 * `.md`/`.mdx`, outside the root (`../x.md`), or in a folder the site does not serve (snippets,
 * node_modules, hidden folders). The inverse of {@link docCandidates}: the result's candidates
 * include the file.
 */
export function sitePathOf(relativeFile: string): string | undefined {
  const segments = relativeFile.split('/').filter((s) => s && s !== '.');
  const name = segments.pop();
  if (!name) return undefined;
  const extension = PAGE_EXTENSIONS.find((ext) => name.toLowerCase().endsWith(ext));
  if (!extension) return undefined;
  const stem = name.slice(0, -extension.length);
  if (!stem || stem.startsWith('.') || stem.startsWith('_')) return undefined;
  for (const folder of segments) {
    if (folder === '..' || folder.startsWith('.') || NOT_PAGES.has(folder)) return undefined;
  }
  if (stem !== 'index') segments.push(stem);
  return `/${segments.join('/')}`;
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
 * path is percent-decoded.
 */
export function normalizeSitePath(value: string): string {
  const text = value.trim();
  const url = /^https?:\/\//i.test(text) ? parseUrl(text) : undefined;
  return rooted(url ? decodeSegments(url.pathname) : text);
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
