// The signal-to-job links every window shares (src/signals/signalLinkState.ts): merged per job, so
// two windows linking two signals at once keep both, and a file written before links were shared is read.
// Real files in a temp folder; no vscode. The safe write is test/unit/util/atomicWrite.test.ts.
import assert from 'node:assert/strict';
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedStore } from '../../../src/sync/sharedStore';
import { setSignalLink } from '../../support/stateWrites';
import { nodeSyncFs } from '../../support/nodeSyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const link = (jobId: string, signal: string, askedAt = new Date().toISOString()) => ({
  jobId,
  signalIds: [signal],
  path: signal.slice(5),
  searches: [],
  askedAt,
});

describe('shared store: signal links', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'links-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps both links when two windows link two signals in the same millisecond, after each reads the other', async () => {
    const now = () => 1_800_000_000_000;
    const a = new SharedStore(nodeSyncFs(dir), 'wa', quiet, now);
    const b = new SharedStore(nodeSyncFs(dir), 'wb', quiet, now);
    await Promise.all([
      a.update((s) => setSignalLink(s, 'proj', link('job_a', 'page:/a'), a.clock)),
      b.update((s) => setSignalLink(s, 'proj', link('job_b', 'page:/b'), b.clock)),
    ]);
    await Promise.all([a.refresh(), b.refresh()]);
    for (const store of [a, b]) assert.deepEqual(Object.keys(store.state.links.proj ?? {}).sort(), ['job_a', 'job_b']);
    // And a window started after both (a reload) reads both from the folder.
    const reloaded = new SharedStore(nodeSyncFs(dir), 'wc', quiet, now);
    await reloaded.refresh();
    assert.deepEqual(Object.keys(reloaded.state.links.proj ?? {}).sort(), ['job_a', 'job_b']);
  });

  it('reads a file written before links were shared (no links field) without setting it aside', async () => {
    const old = {
      format: 1,
      presence: { window: 'old', project: null, focused: false, beat: 1, beatAt: Date.now(), since: Date.now() },
      state: { jobs: {}, drafts: {}, ledger: {}, waits: {} },
    };
    await fs.writeFile(join(dir, 'w-old.json'), JSON.stringify(old));
    const store = new SharedStore(nodeSyncFs(dir), 'wa', quiet);
    await store.refresh();
    assert.deepEqual(await fs.readdir(dir), ['w-old.json']);
  });
});
