// The one safe way this extension writes a file: a reader sees the old text or the new one, whole,
// never a part, and a failed write leaves nothing behind. The text goes to a temporary file beside
// the target, under a name no other process can pick; it is flushed to the disk (fsync) and renamed
// over the target (a rename within one folder replaces the file in one step); the temporary file is
// removed in every outcome. Every window's shared-store file, the kept signals snapshot (which every
// window writes) and the exports are written this way.
//
// Two roads to the same steps. A folder on a disk node can reach (a `file:` URI: the extension
// host's own disk, which is where globalStorageUri lives on desktop and in remote windows alike) is
// written by npm's write-file-atomic: a temporary name from the process id, the thread and a counter,
// fsync, rename, cleanup (and removal on the process's exit). Any other file system (a virtual one,
// reached only through vscode.workspace.fs) is written through the caller's operations with a random
// temporary name; that API has no fsync, so the flush is the file system's own. No vscode import:
// src/util/safeWrite.ts picks the road for a URI.
import { randomBytes } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';

/** Writes `path` on the local disk: temporary file, fsync, rename; the temporary file is gone in every outcome. */
export async function writeOnDisk(path: string, data: string | Uint8Array, options: { signal?: AbortSignal } = {}): Promise<void> {
  options.signal?.throwIfAborted();
  await writeFileAtomic(path, typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    fsync: true,
    // Cancelled while it was being opened: nothing is renamed, and the temporary file is removed.
    tmpfileCreated: () => options.signal?.throwIfAborted(),
  });
}

/** A file system reached through operations (vscode.workspace.fs). */
export interface AtomicWriteOps {
  writeFile(name: string, data: string | Uint8Array): Promise<void>;
  /** Renames `from` over `to`, replacing it. */
  rename(from: string, to: string): Promise<void>;
  remove(name: string): Promise<void>;
}

/** A temporary name beside `name` that no other write, in this process or another, picks. */
function temporaryName(name: string): string {
  return `${name}.${randomBytes(8).toString('hex')}.tmp`;
}

/** Writes `name` through `ops`: a uniquely named temporary file, renamed over it; removed in every outcome. */
export async function writeAtomic(ops: AtomicWriteOps, name: string, data: string | Uint8Array, options: { signal?: AbortSignal } = {}): Promise<void> {
  options.signal?.throwIfAborted();
  const temp = temporaryName(name);
  try {
    await ops.writeFile(temp, data);
    options.signal?.throwIfAborted();
    await ops.rename(temp, name);
  } catch (error) {
    // It may never have been created, or be half written.
    await ops.remove(temp).catch(() => undefined);
    throw error;
  }
}
