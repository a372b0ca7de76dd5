// Which workspace files a page path of the docs site may come from. The path is text from the
// public internet, so it is only ever used to build file names under a docs folder, never a glob
// or a path that could climb out of it.
// No vscode import: unit-tested directly.

/**
 * `/quickstart` → quickstart.mdx, quickstart.md, quickstart/index.mdx, quickstart/index.md; `/` →
 * index.mdx, index.md. Undefined when the path cannot name a file inside the docs folder
 * (`..` segments, backslashes, control characters).
 */
export function docCandidates(path: string): string[] | undefined {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  const segments: string[] = [];
  for (const raw of withoutQuery.split('/')) {
    if (!raw) continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      segment = raw; // a lone `%` is a character like any other
    }
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
    if (segment === '.' || segment === '..' || /[\\/:\u0000-\u001f]/.test(segment)) return undefined;
    segments.push(segment);
  }
  const base = segments.join('/');
  if (!base) return ['index.mdx', 'index.md'];
  return [`${base}.mdx`, `${base}.md`, `${base}/index.mdx`, `${base}/index.md`];
}
