// The shared store's folder on the real disk (node:fs), for unit tests and the benchmark; the
// extension uses vscode.workspace.fs (src/sync/windowSync.ts) with the same temp-then-rename write.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from '../../src/sync/atomicWrite';
import type { SyncFs } from '../../src/sync/sharedStore';

export function nodeSyncFs(dir: string): SyncFs {
  return {
    list: () => fs.readdir(dir),
    read: (name) => fs.readFile(join(dir, name), 'utf8').catch(() => undefined),
    writeAtomic: (name, text) => writeAtomic({ writeFile: (n, t) => fs.writeFile(join(dir, n), t), rename: (from, to) => fs.rename(join(dir, from), join(dir, to)) }, name, text),
    rename: (from, to) => fs.rename(join(dir, from), join(dir, to)),
    remove: (name) => fs.rm(join(dir, name)),
  };
}
