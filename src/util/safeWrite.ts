// Which road a safe write takes (atomicWrite.ts): a `file:` URI is written on the disk by node, with
// fsync; any other scheme (a virtual file system) through vscode.workspace.fs. The shared store, the
// kept signals snapshot and the exports all write through here.
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { type AtomicWriteOps, writeAtomic, writeOnDisk } from './atomicWrite';

type Wrap = <T>(operation: Thenable<T>, what: string) => Promise<T>;

/** The operations of a folder through vscode.workspace.fs; `wrap` may put a deadline on each. */
function workspaceFsOps(dir: vscode.Uri, wrap: Wrap = (operation) => Promise.resolve(operation)): AtomicWriteOps {
  const fs = vscode.workspace.fs;
  const at = (name: string) => vscode.Uri.joinPath(dir, name);
  return {
    writeFile: (name, data) => wrap(fs.writeFile(at(name), typeof data === 'string' ? new TextEncoder().encode(data) : data), `writing ${name}`),
    rename: (from, to) => wrap(fs.rename(at(from), at(to), { overwrite: true }), `replacing ${to}`),
    remove: (name) => wrap(fs.delete(at(name)), `removing ${name}`),
  };
}

/** Writes `target` whole or not at all (see atomicWrite.ts); `signal` stops it before the rename. */
export function writeUriAtomically(target: vscode.Uri, data: string | Uint8Array, options: { signal?: AbortSignal; wrap?: Wrap } = {}): Promise<void> {
  if (target.scheme === 'file')
    return options.wrap
      ? options.wrap(writeOnDisk(target.fsPath, data, options), `writing ${posix.basename(target.path)}`)
      : writeOnDisk(target.fsPath, data, options);
  return writeAtomic(workspaceFsOps(vscode.Uri.joinPath(target, '..'), options.wrap), posix.basename(target.path), data, options);
}
