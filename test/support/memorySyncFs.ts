// An in-memory shared-store folder with the same contract as the disk one (whole files, atomic
// rename), for unit tests of several windows on one folder.
import type { SyncFs } from '../../src/sync/sharedStore';

export function memoryFs(files = new Map<string, string>()): SyncFs {
  return {
    list: () => Promise.resolve([...files.keys()]),
    read: (name) => Promise.resolve(files.get(name)),
    writeAtomic: (name, text) => (files.set(name, text), Promise.resolve()),
    rename: (from, to) => {
      const text = files.get(from);
      if (text === undefined) return Promise.reject(new Error('missing'));
      files.delete(from);
      files.set(to, text);
      return Promise.resolve();
    },
    remove: (name) => (files.delete(name), Promise.resolve()),
  };
}
