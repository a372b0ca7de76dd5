// The shared store's folder through VS Code's file system (workspace.fs), so it works wherever the
// extension host runs: desktop, remote and code-server alike. Every operation ends by a deadline.
import * as vscode from 'vscode';
import { runBounded } from '../util/bounded';
import { writeUriAtomically } from './safeWrite';
import type { SyncFs } from './sharedStore';

/**
 * Longest a file operation on the shared store may take. Reads and writes run one at a time, so a
 * call that never settled would stall every later read of this window: it fails instead, is
 * logged, and the next read or write starts afresh.
 */
const FS_DEADLINE_MS = 5_000;

/** A VS Code Thenable cannot be aborted: the deadline answers the caller, the operation is left to settle. */
function bounded<T>(operation: Thenable<T>, what: string): Promise<T> {
  return runBounded(() => Promise.resolve(operation), { timeoutMs: FS_DEADLINE_MS, what });
}

export function vscodeSyncFs(dir: vscode.Uri): SyncFs {
  const fs = vscode.workspace.fs;
  const at = (name: string) => vscode.Uri.joinPath(dir, name);
  return {
    list: async () =>
      (await bounded(fs.readDirectory(dir), 'listing the shared store')).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name),
    read: async (name) => {
      try {
        return new TextDecoder().decode(await bounded(fs.readFile(at(name)), `reading ${name}`));
      } catch {
        return undefined;
      }
    },
    writeAtomic: (name, text) => writeUriAtomically(at(name), text, { wrap: bounded }),
    rename: (from, to) => bounded(fs.rename(at(from), at(to), { overwrite: false }), `renaming ${from}`),
    remove: (name) => bounded(fs.delete(at(name)), `removing ${name}`),
  };
}
