// The shared store's folder through VS Code's file system (workspace.fs), so it works wherever the
// extension host runs: desktop, remote and code-server alike. Each operation rejects when it fails
// (the replica puts each under a deadline: windowReplica.ts); a read answers undefined only for a
// file that is not there, so a file that exists and cannot be read is never taken for a missing one.
import * as vscode from 'vscode';
import { writeUriAtomically } from './safeWrite';
import type { SyncFs } from './sharedStore';

export function vscodeSyncFs(dir: vscode.Uri): SyncFs {
  const fs = vscode.workspace.fs;
  const at = (name: string) => vscode.Uri.joinPath(dir, name);
  return {
    list: async () => (await fs.readDirectory(dir)).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name),
    read: async (name) => {
      try {
        return new TextDecoder().decode(await fs.readFile(at(name)));
      } catch (error) {
        if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
        throw error;
      }
    },
    writeAtomic: (name, text) => writeUriAtomically(at(name), text),
    rename: async (from, to) => fs.rename(at(from), at(to), { overwrite: false }),
    remove: async (name) => fs.delete(at(name)),
  };
}
