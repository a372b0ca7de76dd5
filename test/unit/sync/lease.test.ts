// The lease of the shared store (src/sync/lease.ts): expiry, takeover, clock skew. No vscode.
import assert from 'node:assert/strict';
import { BEAT_MS, Lease, LEASE_TTL_MS, type Presence } from '../../../src/sync/lease';
import { SharedStore } from '../../../src/sync/sharedStore';
import { type SyncState } from '../../../src/sync/syncState';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { memoryFs } from '../../support/memorySyncFs';
import { HOUR_MS } from '../../../src/util/clock';

const quiet = { info: () => undefined, warn: () => undefined };
const PROJECT = 'proj';

function presence(window: string, since: number, beat: number, beatAt: number, extra: Partial<Presence> = {}): Presence {
  return { window, project: PROJECT, focused: false, beat, beatAt, since, ...extra };
}

describe('shared store: the lease', () => {
  it('leads with the window that started first, and hands over when its beat stops', () => {
    let now = 100_000;
    const lease = new Lease(() => now);
    const me = presence('me', 5_000, 1, now);
    lease.observe(presence('old', 1_000, 1, now));
    assert.equal(lease.leaderOf(PROJECT, me), 'old');
    // It keeps beating: it keeps the lead.
    for (let beat = 2; beat < 6; beat++) {
      now += BEAT_MS;
      lease.observe(presence('old', 1_000, beat, now));
      assert.equal(lease.leaderOf(PROJECT, me), 'old');
    }
    // It stops beating (crash): within the lease time it is still trusted, then the lead moves.
    now += LEASE_TTL_MS;
    assert.equal(lease.leaderOf(PROJECT, me), 'old');
    now += 1;
    assert.equal(lease.leaderOf(PROJECT, me), 'me');
  });

  it('hands over at once when the leading window says it closes', () => {
    const now = 50_000;
    const lease = new Lease(() => now);
    const me = presence('me', 5_000, 1, now);
    lease.observe(presence('old', 1_000, 1, now));
    lease.observe(presence('old', 1_000, 2, now, { closed: true }));
    assert.equal(lease.leaderOf(PROJECT, me), 'me');
  });

  it('ignores other clocks: a peer whose clock is an hour off is judged by its beat changing', () => {
    let now = 10_000_000;
    const lease = new Lease(() => now);
    const me = presence('me', 9_000_000, 1, now);
    // Its clock is an hour ahead, then an hour behind: neither matters while its beat moves.
    lease.observe(presence('skewed', 1, 1, now + HOUR_MS));
    now += BEAT_MS;
    lease.observe(presence('skewed', 1, 2, now - HOUR_MS));
    assert.equal(lease.leaderOf(PROJECT, me), 'skewed');
    now += LEASE_TTL_MS + 1;
    assert.equal(lease.leaderOf(PROJECT, me), 'me');
  });

  it('does not wait for a file left long ago by a window that is gone', () => {
    const now = 10_000_000;
    const lease = new Lease(() => now);
    lease.observe(presence('ghost', 1, 9, now - 10 * 60_000));
    assert.equal(lease.leaderOf(PROJECT, presence('me', 5, 1, now)), 'me');
  });

  it('counts the project as focused while any of its live windows is', () => {
    const now = 1_000;
    const lease = new Lease(() => now);
    const me = presence('me', 2, 1, now);
    assert.equal(lease.anyFocused(PROJECT, me), false);
    lease.observe(presence('other', 1, 1, now, { focused: true }));
    assert.equal(lease.anyFocused(PROJECT, me), true);
    lease.observe(presence('elsewhere', 1, 1, now, { focused: true, project: 'another' }));
    lease.observe(presence('other', 1, 2, now, { focused: false }));
    assert.equal(lease.anyFocused(PROJECT, me), false);
  });

  it('removes the files of closed windows once their state is merged', async () => {
    const files = new Map<string, string>();
    const leaving = new SharedStore(memoryFs(files), 'leaving', quiet);
    await leaving.update((s) => applyJobChange(s, PROJECT, 'job_a', { track: true }, leaving.clock));
    await leaving.beat({ closed: true });
    const staying = new SharedStore(memoryFs(files), 'staying', quiet);
    await staying.refresh();
    assert.deepEqual([...files.keys()], ['w-staying.json']);
    const ours = JSON.parse(files.get('w-staying.json')!) as { state: SyncState };
    assert.ok(ours.state.jobs[PROJECT]?.job_a, 'its job lives on in ours');
  });
});
