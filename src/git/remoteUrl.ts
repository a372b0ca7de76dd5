// Whether a git remote and a job's `source.repository` name the same repository. The same GitHub
// repository is written many ways (https with or without `.git`, with credentials, ssh, the
// scp-like `git@github.com:owner/repo`), so both sides are reduced to one key before comparing.
// No vscode import: unit-tested directly.

/**
 * `host/owner/repo` (host lower-cased, no scheme, user, port for ssh, or `.git`), or for a local
 * remote `file:/abs/path` (no trailing `/` or `.git`). Undefined for text that is no remote URL.
 * Owner and repository keep their case: GitHub ignores it, but other hosts may not.
 */
export function remoteKey(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  // scp-like `user@host:path`, or `host.name:path` (a dot, so `mailto:x` and `C:\x` are not hosts).
  const scpLike = /^(?:([^@/\s]+)@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(text);
  if (scpLike && (scpLike[1] || scpLike[2].includes('.'))) return join(scpLike[2], scpLike[3]);
  if (text.startsWith('/')) return `file:${trimPath(text)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol === 'file:') return `file:${trimPath(decodeURIComponent(url.pathname))}`;
  if (!['http:', 'https:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(url.protocol) || !url.hostname) return undefined;
  return join(url.hostname, decodeURIComponent(url.pathname));
}

/** True when both name the same repository after normalising. */
export function sameRepository(a: string, b: string): boolean {
  const keyA = remoteKey(a);
  return keyA !== undefined && keyA === remoteKey(b);
}

function join(host: string, path: string): string | undefined {
  const trimmed = trimPath(path).replace(/^\/+/, '');
  return trimmed ? `${host.toLowerCase()}/${trimmed}` : undefined;
}

function trimPath(path: string): string {
  return path
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
}
