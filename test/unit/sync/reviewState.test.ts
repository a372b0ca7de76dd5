// Pending reviews as every window shares them (src/sync/reviewState.ts, one area of the shared
// state): two windows' comments both kept, the later of two edits of one comment kept, a deletion
// outranking the copies written before it, any merge order giving the same state, a reload reading
// it all back from the folder, and the files bounded. Real files in a temp folder; no vscode.
import assert from 'node:assert/strict';
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyReviewChange, type SharedReviewComment } from '../../../src/sync/reviewState';
import { SharedStore } from '../../../src/sync/sharedStore';
import { emptyState, HybridClock, mergeState, pruneState, SHARED_HISTORY_MAX_AGE_MS, type SyncState } from '../../../src/sync/syncState';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { nodeSyncFs } from '../../support/nodeSyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const P = 'proj';
const J = 'job_a';
const note = (body: string, line = 3): SharedReviewComment => ({
  path: 'docs/a.mdx',
  commit: 'abc1234',
  startLine: line,
  endLine: line,
  lines: ['x'],
  body,
  createdAt: 1,
});
const bodies = (state: SyncState) =>
  Object.entries(state.reviews[P]?.[J]?.c ?? {})
    .map(([id, c]) => `${id}=${c.v?.body ?? 'deleted'}`)
    .sort();

describe('shared store: pending reviews', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'reviews-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps both windows' comments, the later edit of one comment, and a deletion over older copies; a reload reads the same", async () => {
    let t = 1_800_000_000_000;
    const now = () => t;
    const a = new SharedStore(nodeSyncFs(dir), 'wa', quiet, now);
    const b = new SharedStore(nodeSyncFs(dir), 'wb', quiet, now);
    // A review belongs to a tracked job (a review of a job the state no longer holds is pruned).
    await a.update((s) => applyJobChange(s, P, J, { track: true }, a.clock));
    const put = (store: SharedStore, id: string, value: SharedReviewComment | null) =>
      store.update((s) => applyReviewChange(s.reviews, P, J, { comment: id, value }, () => store.clock.next()));
    // The same millisecond in both windows, before either has read the other.
    await Promise.all([put(a, 'wa.1', note('from A')), put(b, 'wb.1', note('from B', 9)), put(b, 'wb.2', note('to delete'))]);
    await Promise.all([a.refresh(), b.refresh()]);
    assert.deepEqual(bodies(a.state), ['wa.1=from A', 'wb.1=from B', 'wb.2=to delete']);
    // Each edits A's comment (B later), and A deletes B's second comment.
    t += 1;
    await put(a, 'wa.1', note('edited in A'));
    t += 1;
    await put(b, 'wa.1', note('edited in B'));
    await put(a, 'wb.2', null);
    await Promise.all([a.refresh(), b.refresh()]);
    for (const store of [a, b]) assert.deepEqual(bodies(store.state), ['wa.1=edited in B', 'wb.1=from B', 'wb.2=deleted']);
    const reloaded = new SharedStore(nodeSyncFs(dir), 'wc', quiet, now);
    await reloaded.refresh();
    assert.deepEqual(reloaded.state.reviews, a.state.reviews);
  });

  it('merges in any order and any number of times to the same state', () => {
    const copies = ['w1', 'w2', 'w3'].map((w, i) => {
      const state = emptyState();
      const clock = new HybridClock(w, () => 1_000 + (i % 2));
      applyReviewChange(state.reviews, P, J, { comment: 'shared', value: note(`by ${w}`) }, () => clock.next());
      applyReviewChange(state.reviews, P, J, { comment: `${w}.1`, value: i === 2 ? null : note(w) }, () => clock.next());
      applyReviewChange(state.reviews, P, J, { tip: `tip${i}` }, () => clock.next());
      applyReviewChange(state.reviews, P, J, { lost: i === 1 ? 5 : null }, () => clock.next());
      return state;
    });
    const [x, y, z] = copies;
    const orders = [mergeState(mergeState(x, y), z), mergeState(z, mergeState(y, x)), mergeState(mergeState(y, z), mergeState(x, x))];
    for (const merged of orders) assert.deepEqual(merged.reviews, orders[0].reviews);
    assert.deepEqual(mergeState(orders[0], orders[0]).reviews, orders[0].reviews);
    assert.equal(orders[0].reviews[P][J].tip?.v, 'tip1', "the latest stamp wins (w2's clock is a millisecond ahead)");
  });

  it('reads a file written before reviews were shared without setting it aside', async () => {
    const old = {
      format: 1,
      presence: { window: 'old', project: null, focused: false, beat: 1, beatAt: Date.now(), since: Date.now() },
      state: { jobs: {}, drafts: {}, ledger: {}, waits: {} },
    };
    await fs.writeFile(join(dir, 'w-old.json'), JSON.stringify(old));
    const store = new SharedStore(nodeSyncFs(dir), 'wa', quiet);
    await store.refresh();
    assert.deepEqual(await fs.readdir(dir), ['w-old.json']);
    assert.deepEqual(store.state.reviews, {});
  });

  it('drops deleted comments and the reviews of jobs the state no longer holds once older than the history kept; keeps the rest', () => {
    const now = 10 * SHARED_HISTORY_MAX_AGE_MS;
    const old = now - SHARED_HISTORY_MAX_AGE_MS - 1;
    const state = emptyState();
    const at = (t: number) => () => ({ t, w: 'w' });
    applyJobChange(state, P, J, { track: true }, new HybridClock('w', () => now));
    applyReviewChange(state.reviews, P, J, { comment: 'old-deleted', value: null }, at(old));
    applyReviewChange(state.reviews, P, J, { comment: 'new-deleted', value: null }, at(now - 1));
    applyReviewChange(state.reviews, P, J, { comment: 'old-sent', value: { ...note('sent long ago'), sentAt: old } }, at(old));
    applyReviewChange(state.reviews, P, 'job_gone', { comment: 'x', value: note('of a job pruned') }, at(now - 1));
    pruneState(state, now);
    assert.deepEqual(Object.keys(state.reviews[P]), [J]);
    assert.deepEqual(Object.keys(state.reviews[P][J].c).sort(), ['new-deleted', 'old-sent']);
  });
});
