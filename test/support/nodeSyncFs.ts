// The shared store's folder on the real disk (node:fs), for unit tests and the benchmark; writes go
// through the extension's own disk writer (src/util/atomicWrite.ts writeOnDisk), the one
// src/util/safeWrite.ts picks for a `file:` folder.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeOnDisk } from '../../src/util/atomicWrite';
import type { SyncFs } from '../../src/sync/sharedStore';

export function nodeSyncFs(dir: string): SyncFs {
  return {
    list: () => fs.readdir(dir),
    read: (name) => fs.readFile(join(dir, name), 'utf8').catch(() => undefined),
    writeAtomic: (name, text) => writeOnDisk(join(dir, name), text),
    rename: (from, to) => fs.rename(join(dir, from), join(dir, to)),
    remove: (name) => fs.rm(join(dir, name)),
  };
}
