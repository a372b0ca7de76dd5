// The shared store's folder on the real disk (node:fs), for unit tests and the benchmark; the
// extension uses vscode.workspace.fs (src/sync/windowSync.ts) with the same temp-then-rename write.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SyncFs } from '../../src/sync/sharedStore';

let tmp = 0;

export function nodeSyncFs(dir: string): SyncFs {
  return {
    list: () => fs.readdir(dir),
    read: (name) => fs.readFile(join(dir, name), 'utf8').catch(() => undefined),
    writeAtomic: async (name, text) => {
      const temp = join(dir, `${name}.${process.pid}.${++tmp}.tmp`);
      await fs.writeFile(temp, text);
      await fs.rename(temp, join(dir, name));
    },
    rename: (from, to) => fs.rename(join(dir, from), join(dir, to)),
    remove: (name) => fs.rm(join(dir, name)),
  };
}
