// What windows share besides the jobs: the signal-to-job links (merged per job, so two windows
// linking two signals at once keep both) and the pruning that bounds the shared files. Real files in
// a temp folder; no vscode. The safe write is test/unit/sync/atomicWrite.test.ts.
import assert from 'node:assert/strict';
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedStore } from '../../../src/sync/sharedStore';
import { legacyLinks } from '../../../src/signals/signalLinkState';
import { emptyState, HybridClock, mergeState, pruneState, setDraft, setSignalLink, SHARED_HISTORY_MAX_AGE_MS } from '../../../src/sync/syncState';
import { applyJobChange } from '../../../src/sync/jobChanges';
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

describe('shared store: pruning', () => {
  const DAY = 86_400_000;
  const now = 1_800_000_000_000;

  it(`drops tombstones, cleared drafts, hidden prompts and links older than ${SHARED_HISTORY_MAX_AGE_MS / DAY} days, and keeps everything newer or shown`, () => {
    let t = now - SHARED_HISTORY_MAX_AGE_MS - DAY;
    const clock = new HybridClock('w', () => t);
    const state = emptyState();
    applyJobChange(state, 'p', 'old_stopped', { track: true, addPrompts: [{ text: 'x', sentAt: 'then' }] }, clock);
    applyJobChange(state, 'p', 'old_stopped', { track: false }, clock);
    applyJobChange(state, 'p', 'old_tracked', { track: true, addPrompts: [{ text: 'shown', sentAt: 'then' }] }, clock);
    applyJobChange(state, 'p', 'retracked', { track: true, addPrompts: [{ text: 'before removal', sentAt: 'then' }] }, clock);
    applyJobChange(state, 'p', 'retracked', { track: false }, clock);
    setDraft(state, 'p', 'create', undefined, clock);
    setDraft(state, 'p', 'job:kept', 'typed long ago', clock);
    setSignalLink(state, 'p', link('job_old', 'page:/old', new Date(t).toISOString()), clock);
    t = now - DAY;
    applyJobChange(state, 'p', 'new_stopped', { track: true }, clock);
    applyJobChange(state, 'p', 'new_stopped', { track: false }, clock);
    applyJobChange(state, 'p', 'retracked', { track: true, addPrompts: [{ text: 'after', sentAt: 'now' }] }, clock);
    setSignalLink(state, 'p', link('job_new', 'page:/new', new Date(t).toISOString()), clock);

    pruneState(state, now);

    assert.deepEqual(Object.keys(state.jobs.p ?? {}).sort(), ['new_stopped', 'old_tracked', 'retracked']);
    assert.deepEqual(
      Object.values(state.jobs.p?.old_tracked?.p ?? {}).map((p) => p.text),
      ['shown'],
    );
    assert.deepEqual(
      Object.values(state.jobs.p?.retracked?.p ?? {}).map((p) => p.text),
      ['after'],
    );
    assert.deepEqual(Object.keys(state.drafts.p ?? {}), ['job:kept']);
    assert.deepEqual(Object.keys(state.links.p ?? {}), ['job_new']);
  });

  it('keeps a link whose job finished recently though it was asked long ago', () => {
    const state = emptyState();
    const clock = new HybridClock('w', () => 0);
    setSignalLink(
      state,
      'p',
      { ...link('job', 'page:/a', new Date(now - 2 * SHARED_HISTORY_MAX_AGE_MS).toISOString()), finishedAt: new Date(now - DAY).toISOString() },
      clock,
    );
    pruneState(state, now);
    assert.ok(state.links.p?.job);
  });
});

describe('signal links kept by earlier versions', () => {
  it('come in once, lose nothing, and never undo a change made since', () => {
    const list = [link('job_new', 'page:/b'), link('job_old', 'page:/a'), { ...link('job_new', 'page:/stale') }];
    const legacy = legacyLinks(new Map([['proj', list]]));
    assert.deepEqual(Object.keys(legacy.links.proj ?? {}).sort(), ['job_new', 'job_old']);
    assert.deepEqual(legacy.links.proj?.job_new?.v.signalIds, ['page:/b'], 'the newest entry of a job, as the old list kept it first');
    const state = emptyState();
    setSignalLink(state, 'proj', { ...link('job_old', 'page:/a'), finishedAt: '2026-11-01T00:00:00.000Z' }, new HybridClock('w', () => 1));
    const once = mergeState(state, legacy);
    assert.equal(once.links.proj?.job_old?.v.finishedAt, '2026-11-01T00:00:00.000Z', 'a change made since wins');
    assert.deepEqual(mergeState(once, legacy), once, 'bringing them in again changes nothing');
  });
});
