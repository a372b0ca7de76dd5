// The shared store of several windows (src/sync/sharedStore.ts): the merge, many writers on one
// folder, thousands of random interleavings, no lost update. Real files in a temp folder; no vscode.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedStore, type SyncFs } from '../../../src/sync/sharedStore';
import { compareStamps, emptyState, HybridClock, mergeState, type Stamp, type SyncState } from '../../../src/sync/syncState';
import { applyJobChange, visiblePrompts } from '../../../src/sync/jobChanges';
import { memoryFs } from '../../support/memorySyncFs';
import { nodeSyncFs } from '../../support/nodeSyncFs';

/** A small seeded generator, so a failing interleaving can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const quiet = { info: () => undefined, warn: () => undefined };
const PROJECT = 'proj';
const JOBS = ['job_a', 'job_b', 'job_c'];
const FIELDS = ['checkedAt', 'unsentPrompt', 'notFound'];

interface Write {
  key: string;
  stamp: Stamp;
  value: unknown;
}

/** Runs one random interleaving of `windows` writers on one folder and checks that nothing was lost. */
async function interleaving(seed: number, fsFor: () => SyncFs, windows: number, steps: number, now: () => number): Promise<void> {
  const random = rng(seed);
  const stores = Array.from({ length: windows }, (_, i) => new SharedStore(fsFor(), `w${i}`, quiet, now));
  const writes: Write[] = [];
  const prompts = new Set<string>();
  const pending: Promise<unknown>[] = [];
  for (let step = 0; step < steps; step++) {
    const store = stores[Math.floor(random() * windows)];
    const job = JOBS[Math.floor(random() * JOBS.length)];
    const roll = random();
    if (roll < 0.3) {
      pending.push(store.refresh());
    } else if (roll < 0.45) {
      const track = random() < 0.6;
      pending.push(
        store.update((state) => {
          applyJobChange(state, PROJECT, job, { track }, store.clock);
          writes.push({ key: `${job}/tracked`, stamp: state.jobs[PROJECT][job].tracked.s, value: state.jobs[PROJECT][job].tracked.v });
        }),
      );
    } else if (roll < 0.75) {
      const field = FIELDS[Math.floor(random() * FIELDS.length)];
      const value = `${store.window}:${step}`;
      pending.push(
        store.update((state) => {
          applyJobChange(state, PROJECT, job, { fields: { [field]: value } }, store.clock);
          const record = state.jobs[PROJECT][job];
          if (writes.every((w) => w.key !== `${job}/tracked` || compareStamps(w.stamp, record.tracked.s) !== 0)) {
            writes.push({ key: `${job}/tracked`, stamp: record.tracked.s, value: record.tracked.v });
          }
          writes.push({ key: `${job}/${field}`, stamp: record.f[field].s, value });
        }),
      );
    } else {
      const text = `prompt ${store.window}:${step}`;
      pending.push(
        store.update((state) => {
          applyJobChange(state, PROJECT, job, { addPrompts: [{ text, sentAt: new Date(0).toISOString() }] }, store.clock);
          const record = state.jobs[PROJECT][job];
          if (writes.every((w) => w.key !== `${job}/tracked` || compareStamps(w.stamp, record.tracked.s) !== 0)) {
            writes.push({ key: `${job}/tracked`, stamp: record.tracked.s, value: record.tracked.v });
          }
          prompts.add(text);
        }),
      );
    }
    // Sometimes let the operations in flight land, sometimes let them pile up and overlap.
    if (random() < 0.4) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  for (const store of stores) await store.write();
  for (const store of stores) await store.refresh();

  for (const store of stores) assert.deepEqual(store.state.jobs, stores[0].state.jobs, `seed ${seed}: windows disagree`);
  const state = stores[0].state;
  const latest = new Map<string, Write>();
  for (const w of writes) {
    const seen = latest.get(w.key);
    if (!seen || compareStamps(w.stamp, seen.stamp) > 0) latest.set(w.key, w);
  }
  for (const [key, write] of latest) {
    const [job, field] = key.split('/') as [string, string];
    const record = state.jobs[PROJECT]?.[job];
    assert.ok(record, `seed ${seed}: ${job} lost`);
    const actual = field === 'tracked' ? record.tracked.v : record.f[field]?.v;
    assert.deepEqual(actual, write.value, `seed ${seed}: ${key} is not its latest write`);
  }
  const kept = new Set(Object.values(state.jobs[PROJECT] ?? {}).flatMap((r) => Object.values(r.p).map((p) => p.text)));
  for (const text of prompts) assert.ok(kept.has(text), `seed ${seed}: prompt "${text}" lost`);
}

describe('shared store: the merge', function () {
  // Thousands of interleavings: seconds of work, more on a loaded machine.
  this.timeout(120_000);
  it('keeps every change of every window over 2,000 random interleavings of three writers (in memory)', async () => {
    let time = 1_000;
    // Every window reads the same clock that stands still for a while: many writes share a millisecond.
    const now = () => Math.floor((time += 0.25));
    for (let seed = 1; seed <= 2_000; seed++) {
      const files = new Map<string, string>();
      await interleaving(seed, () => memoryFs(files), 3, 30, now);
    }
  });

  it('keeps every change with real files: 150 interleavings of three writers on one folder', async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const dir = mkdtempSync(join(tmpdir(), 'mintlify-sync-'));
      try {
        await interleaving(seed * 7919, () => nodeSyncFs(dir), 3, 25, Date.now);
        assert.deepEqual(
          readdirSync(dir).filter((n) => !/^w-w\d\.json$/.test(n)),
          [],
          'a temp file was left behind',
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('merges in any order and any number of times to the same state', () => {
    const random = rng(42);
    const states: SyncState[] = [];
    for (let i = 0; i < 4; i++) {
      const state = emptyState();
      const clock = new HybridClock(`w${i}`, () => 5);
      for (let k = 0; k < 20; k++) {
        const job = JOBS[Math.floor(random() * JOBS.length)];
        applyJobChange(
          state,
          PROJECT,
          job,
          random() < 0.3 ? { track: random() < 0.5 } : { fields: { checkedAt: `${i}.${k}` }, addPrompts: [{ text: `${i}.${k}`, sentAt: '' }] },
          clock,
        );
      }
      states.push(state);
    }
    const [a, b, c] = states as [SyncState, SyncState, SyncState];
    assert.deepEqual(mergeState(a, b), mergeState(b, a), 'commutative');
    assert.deepEqual(mergeState(mergeState(a, b), c), mergeState(a, mergeState(b, c)), 'associative');
    assert.deepEqual(mergeState(a, a), a, 'idempotent');
  });

  it('breaks a tie between two windows writing in the same millisecond the same way in both', () => {
    const left = emptyState();
    const right = emptyState();
    applyJobChange(left, PROJECT, 'job_a', { fields: { unsentPrompt: 'from A' } }, new HybridClock('A', () => 7));
    applyJobChange(right, PROJECT, 'job_a', { fields: { unsentPrompt: 'from B' } }, new HybridClock('B', () => 7));
    assert.equal(mergeState(left, right).jobs[PROJECT].job_a.f.unsentPrompt.v, 'from B');
    assert.equal(mergeState(right, left).jobs[PROJECT].job_a.f.unsentPrompt.v, 'from B');
  });

  it("lets a change made after reading another window win even when that window's clock runs ahead", () => {
    const ahead = emptyState();
    applyJobChange(ahead, PROJECT, 'job_a', { track: true }, new HybridClock('fast', () => 1_000_000));
    const behindClock = new HybridClock('slow', () => 10);
    behindClock.observe(ahead);
    const behind = mergeState(emptyState(), ahead);
    applyJobChange(behind, PROJECT, 'job_a', { track: false }, behindClock);
    assert.equal(mergeState(ahead, behind).jobs[PROJECT].job_a.tracked.v, false);
  });

  it('starts the prompt history again when a job is tracked again after being removed', () => {
    const state = emptyState();
    const clock = new HybridClock('w', () => 1);
    applyJobChange(state, PROJECT, 'job_a', { addPrompts: [{ text: 'old', sentAt: '' }] }, clock);
    applyJobChange(state, PROJECT, 'job_a', { track: false }, clock);
    applyJobChange(state, PROJECT, 'job_a', { track: true, addPrompts: [{ text: 'new', sentAt: '' }] }, clock);
    assert.deepEqual(
      visiblePrompts(state.jobs[PROJECT].job_a).map((p) => p.text),
      ['new'],
    );
  });

  it('sets a damaged file aside with a warning and keeps reading the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mintlify-sync-'));
    try {
      const writer = new SharedStore(nodeSyncFs(dir), 'good', quiet);
      await writer.update((s) => applyJobChange(s, PROJECT, 'job_a', { track: true }, writer.clock));
      writeFileSync(join(dir, 'w-broken.json'), '{"format":1,"presence":');
      const warnings: string[] = [];
      const reader = new SharedStore(nodeSyncFs(dir), 'reader', { info: () => undefined, warn: (m) => warnings.push(m) });
      await reader.refresh();
      assert.ok(reader.state.jobs[PROJECT]?.job_a, 'the good file was read');
      const names = readdirSync(dir);
      assert.ok(!names.includes('w-broken.json'));
      assert.ok(
        names.some((n) => n.startsWith('w-broken.json.damaged-')),
        `set aside, not deleted: ${names.join(', ')}`,
      );
      assert.match(warnings.join('\n'), /w-broken\.json.*kept as/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shared store: what the last read found', () => {
  it('stays whole while a healthy folder is read again (the hour is not uncertain mid-read), and not whole once a read fails', async () => {
    const files = new Map<string, string>();
    await new SharedStore(memoryFs(files), 'other', quiet).write();
    // The folder as this window sees it: healthy, then slow to read, then failing to list.
    let folder = memoryFs(files);
    const fs: SyncFs = {
      list: () => folder.list(),
      read: (name) => folder.read(name),
      writeAtomic: (name, text) => folder.writeAtomic(name, text),
      rename: (from, to) => folder.rename(from, to),
      remove: (name) => folder.remove(name),
    };
    const store = new SharedStore(fs, 'mine', quiet);
    await store.refreshAreas();
    assert.equal(store.lastReadWhole, true);
    let release: (() => void) | undefined;
    folder = { ...memoryFs(files), read: (name) => new Promise((resolve) => (release = () => resolve(files.get(name)))) };
    const reading = store.refreshAreas();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(release, 'the read is under way');
    assert.equal(store.lastReadWhole, true, 'a read under way leaves what the last one found');
    release();
    assert.equal((await reading).whole, true);
    folder = { ...memoryFs(files), list: () => Promise.reject(new Error('EIO')) };
    await assert.rejects(store.refreshAreas());
    assert.equal(store.lastReadWhole, false);
  });
});
