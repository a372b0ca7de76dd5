// The shared ledger (src/hour/ledger.ts): the requests of every window counted over a sliding hour,
// background work held at its ceiling, a 429 shared by its family; and the analytics bucket's name,
// a salted hash of the key under a per-install random salt, so the files on disk hold no
// fingerprint of the key, the same for every window of the install even when two of them created
// a salt at once.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { agentBucket, agentHourUse, analyticsBucket, countInHour, keyBucketHash, newSalt, recordRequest } from '../../../src/hour/ledger';
import { recordAnalytics429, recordWait, TEAMMATES_BELOW, TEAMMATES_WAIT, waitMs } from '../../../src/hour/sharedWaits';
import { emptyState, mergeState } from '../../../src/sync/syncState';
import { HOUR_MS } from '../../../src/util/clock';
import { SharedStore } from '../../../src/sync/sharedStore';
import { memoryFs } from '../../support/memorySyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const KEY = 'mint_demo_key_0123456789abcdef';
const PROJECT = 'proj';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('shared store: the analytics bucket is named by a salted hash of the key', () => {
  it('differs from the plain hash of the key, and between installs', async () => {
    const salt = newSalt();
    const named = keyBucketHash(salt, KEY);
    assert.match(named, /^[0-9a-f]{16}$/);
    assert.notEqual(named, sha256(KEY).slice(0, 16), 'not the unsalted 64-bit prefix');
    assert.equal(keyBucketHash(salt, KEY), named, 'the same key, the same name within the install');
    assert.notEqual(keyBucketHash(newSalt(), KEY), named, 'another install names it otherwise');
    assert.notEqual(keyBucketHash(salt, `${KEY}x`), named, 'another key, another bucket');
  });

  it('converges on one salt when two windows create theirs at once, so both count the key in one bucket', async () => {
    const files = new Map<string, string>();
    const a = new SharedStore(memoryFs(files), 'a', quiet);
    const b = new SharedStore(memoryFs(files), 'b', quiet);
    // Neither has read the other yet, and the install kept no salt: each makes its own.
    const saltA = await a.adoptSalt(undefined, newSalt);
    const saltB = await b.adoptSalt(undefined, newSalt);
    assert.notEqual(saltA, saltB);
    await a.refresh();
    await b.refresh();
    // A window keeps the one its install remembered, unless a lower one is in the files.
    const agreedA = await a.adoptSalt(saltA, newSalt);
    const agreedB = await b.adoptSalt(saltB, newSalt);
    assert.equal(agreedA, agreedB);
    assert.equal(agreedA, saltA < saltB ? saltA : saltB, 'the lowest wins');

    const now = Date.now();
    const bucket = analyticsBucket(keyBucketHash(agreedA, KEY));
    assert.equal(analyticsBucket(keyBucketHash(agreedB, KEY)), bucket);
    await a.update((state) => recordRequest(state, bucket, a.nextEntryId(), now - 1_000));
    await b.update((state) => recordRequest(state, bucket, b.nextEntryId(), now - 500));
    await a.refresh();
    assert.equal(countInHour(a.state, bucket, now), 2, 'one count for the key across both windows');
  });

  it('a window that starts later takes the salt already agreed on, whatever it kept', async () => {
    const files = new Map<string, string>();
    const first = new SharedStore(memoryFs(files), 'first', quiet);
    const salt = await first.adoptSalt('00000000000000000000000000000001', newSalt);
    const later = new SharedStore(memoryFs(files), 'later', quiet);
    await later.refresh();
    assert.equal(await later.adoptSalt(undefined, newSalt), salt);
    assert.equal(await later.adoptSalt('ffffffffffffffffffffffffffffffff', newSalt), salt);
  });

  it('never writes the key, its plain hash or a prefix of it to any file', async () => {
    const files = new Map<string, string>();
    const store = new SharedStore(memoryFs(files), 'w', quiet);
    const salt = await store.adoptSalt(undefined, newSalt);
    const bucket = analyticsBucket(keyBucketHash(salt, KEY));
    await store.update((state) => recordRequest(state, bucket, store.nextEntryId(), Date.now()));
    await store.beat();
    assert.ok(files.size > 0);
    const plain = sha256(KEY);
    for (const [name, text] of files) {
      assert.ok(text.includes(bucket), `${name} holds the bucket`);
      assert.ok(!text.includes(KEY), `${name} holds the key`);
      assert.ok(!text.includes(plain.slice(0, 8)), `${name} holds a prefix of the key's plain hash`);
    }
  });
});

describe('shared store: the ledger', () => {
  const bucket = agentBucket(PROJECT);

  it('counts the requests of every window over a sliding hour', () => {
    const a = emptyState();
    const b = emptyState();
    recordRequest(a, bucket, 'a.1', 1_000);
    recordRequest(b, bucket, 'b.1', 2_000);
    recordRequest(b, bucket, 'b.2', 3_000);
    const merged = mergeState(mergeState(a, b), b);
    assert.equal(countInHour(merged, bucket, 3_000), 3);
    assert.equal(countInHour(merged, bucket, 1_000 + HOUR_MS), 2, 'the first slid out of the hour');
    assert.equal(countInHour(merged, bucket, 3_000 + HOUR_MS), 0);
  });

  it('records an analytics 429 as teammates spending the hour only when this machine’s own count was low', () => {
    const low = emptyState();
    recordAnalytics429(low.waits, 50_000, TEAMMATES_BELOW - 1, 10_000);
    assert.equal(low.waits.analytics, 50_000, 'every window waits');
    assert.equal(low.waits[TEAMMATES_WAIT], 50_000, 'someone else spent at least a tenth of the hour');
    const own = emptyState();
    recordAnalytics429(own.waits, 50_000, TEAMMATES_BELOW, 10_000);
    assert.equal(own.waits.analytics, 50_000);
    assert.equal(own.waits[TEAMMATES_WAIT], undefined, 'this machine spent the hour itself: no sign of a team');
    const unknown = emptyState();
    recordAnalytics429(unknown.waits, 50_000, undefined, 10_000);
    assert.equal(unknown.waits[TEAMMATES_WAIT], 50_000, 'an unknown count is read as teammates: the careful side');
  });

  it('shares a 429: every window waits for the later Retry-After of the family', () => {
    const a = emptyState();
    const b = emptyState();
    recordWait(a.waits, 'agent', 40_000, 10_000);
    recordWait(b.waits, 'agent', 30_000, 10_000);
    const merged = mergeState(b, a);
    assert.equal(waitMs(merged.waits, 'agent', 10_000), 30_000);
    assert.equal(waitMs(merged.waits, 'analytics', 10_000), 0, 'the other family is not held');
    assert.equal(waitMs(merged.waits, 'agent', 40_000), 0);
  });
});

describe("a project's agent hour, as a send's preview words it", () => {
  it('says what was used of the 100 and what is left, never less than none', () => {
    const ledger = (used: Record<string, number>) => ({ agentRequestsThisHour: (project: string) => used[project] ?? 0 });
    assert.deepEqual(agentHourUse(ledger({ docs: 37 }), 'docs'), [37, 100, 63]);
    assert.deepEqual(agentHourUse(ledger({ docs: 37 }), 'other'), [0, 100, 100]);
    assert.deepEqual(agentHourUse(ledger({ docs: 104 }), 'docs'), [104, 100, 0]);
  });
});
