// Following a comment's lines from the round it was written on to the agent's next round: the
// output of `git diff -U0 -M <old> <new>` says, per file, which lines of the old version were
// replaced and where the file went (renamed, deleted). A comment whose lines were touched is
// outdated; one whose lines were not moves by what was added and removed above it. Pure: no vscode.

interface Hunk {
  /** `@@ -oldStart,oldCount +newStart,newCount @@`; a count of 0 is an insertion after oldStart (or a deletion). */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

interface FileChange {
  /** Where the file is in the new version; null: deleted. */
  newPath: string | null;
  hunks: Hunk[];
}

/** Files changed between two commits, by their path in the old one. A file not listed is unchanged. */
export type CommitDiff = ReadonlyMap<string, FileChange>;

type MappedLines =
  | { kind: 'same'; path: string; startLine: number; endLine: number }
  /** `line`: where its lines were, as near as the new version has it (1-based); path null: the file is gone. */
  | { kind: 'outdated'; path: string | null; line: number };

/**
 * The git arguments whose output parseDiff reads: no context, renames found, the prefixes named
 * (a user's diff.noprefix or diff.mnemonicPrefix would change them), no colour, no external diff.
 */
export function roundDiffArgs(from: string, to: string): string[] {
  // Commit ids only: a value read from the shared folder never reaches git as an option or a range.
  for (const commit of [from, to]) if (!/^[0-9a-f]{7,64}$/.test(commit)) throw new Error(`not a commit id: ${JSON.stringify(commit.slice(0, 70))}`);
  return ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '-U0', '-M', '--src-prefix=a/', '--dst-prefix=b/', from, to, '--'];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** A path from a `---`/`+++`/`rename` line: git's C-style quoting undone, the tab git adds after a name with a space dropped. */
function pathOf(raw: string): string {
  const text = raw.replace(/\t$/, '');
  if (!text.startsWith('"')) return text;
  const escapes: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v' };
  const utf8 = new TextEncoder();
  const bytes: number[] = [];
  const body = text.slice(1, text.lastIndexOf('"'));
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      bytes.push(...utf8.encode(ch));
      continue;
    }
    const next = body[++i] ?? '';
    if (/[0-7]/.test(next)) {
      // An octal escape is one byte of the name's UTF-8.
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(...utf8.encode(escapes[next] ?? next));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Parses the output of git with roundDiffArgs. */
export function parseDiff(text: string): Map<string, FileChange> {
  const files = new Map<string, FileChange>();
  let current: { oldPath?: string; newPath?: string | null; added: boolean; deleted: boolean; hunks: Hunk[]; header: string } | undefined;
  const close = () => {
    // An added file is not a file of the old version: no comment can be on it.
    if (!current || current.added) return void (current = undefined);
    let oldPath = current.oldPath;
    if (oldPath === undefined) {
      // A mode change alone names the file only in its header: `diff --git a/<p> b/<p>`.
      const both = current.header.slice('diff --git '.length);
      const half = (both.length - 1) / 2;
      if (Number.isInteger(half) && both.slice(2, half) === both.slice(half + 3)) oldPath = both.slice(2, half);
    }
    if (oldPath !== undefined) files.set(oldPath, { newPath: current.deleted ? null : (current.newPath ?? oldPath), hunks: current.hunks });
    current = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      close();
      current = { added: false, deleted: false, hunks: [], header: line };
      continue;
    }
    if (!current) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      current.hunks.push({
        oldStart: Number(hunk[1]),
        oldCount: hunk[2] === undefined ? 1 : Number(hunk[2]),
        newStart: Number(hunk[3]),
        newCount: hunk[4] === undefined ? 1 : Number(hunk[4]),
      });
    } else if (current.hunks.length) {
      continue; // a line of a hunk: never a header, whatever it starts with
    } else if (line.startsWith('rename from ')) current.oldPath = pathOf(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) current.newPath = pathOf(line.slice('rename to '.length));
    else if (line.startsWith('deleted file mode')) current.deleted = true;
    else if (line.startsWith('new file mode')) current.added = true;
    else if (line.startsWith('--- ') && line !== '--- /dev/null') current.oldPath ??= pathOf(line.slice(4)).replace(/^a\//, '');
    else if (line.startsWith('+++ ')) {
      if (line === '+++ /dev/null') current.deleted = true;
      else current.newPath ??= pathOf(line.slice(4)).replace(/^b\//, '');
    }
  }
  close();
  return files;
}

/** Where the lines `startLine`-`endLine` of `path` in the old version are in the new one. */
export function mapLines(diff: CommitDiff, path: string, startLine: number, endLine: number): MappedLines {
  const change = diff.get(path);
  if (!change) return { kind: 'same', path, startLine, endLine };
  let shift = 0;
  for (const h of change.hunks) {
    const touches = h.oldCount === 0 ? startLine <= h.oldStart && h.oldStart < endLine : h.oldStart <= endLine && h.oldStart + h.oldCount - 1 >= startLine;
    if (touches) return { kind: 'outdated', path: change.newPath, line: Math.max(1, startLine + shift) };
    const before = h.oldCount === 0 ? h.oldStart < startLine : h.oldStart + h.oldCount - 1 < startLine;
    if (before) shift += h.newCount - h.oldCount;
  }
  if (change.newPath === null) return { kind: 'outdated', path: null, line: startLine };
  return { kind: 'same', path: change.newPath, startLine: startLine + shift, endLine: endLine + shift };
}
