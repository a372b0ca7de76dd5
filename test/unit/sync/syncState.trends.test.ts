// Trend buckets in the state every window shares (src/sync/syncState.ts): a bucket that includes
// today is kept with its fetch time, the latest fetch wins in every window whatever order the files
// are read in, and it is dropped an hour after it was fetched.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedStore } from '../../../src/sync/sharedStore';
import { emptyState, keepTrends, mergeState, type OpenTrendFigures, pruneState } from '../../../src/sync/syncState';
import { nodeSyncFs } from '../../support/nodeSyncFs';
import { HOUR_MS } from '../../../src/util/clock';

const quiet = { info: () => undefined, warn: () => undefined };
const TODAY = 'visitors 2026-11-25 2026-11-26';
const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('shared store: today’s trend buckets', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'trends-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('every window ends with the latest fetch of today’s bucket, whichever wrote last', async () => {
    const a = new SharedStore(nodeSyncFs(dir), 'wa', quiet, () => NOW);
    const b = new SharedStore(nodeSyncFs(dir), 'wb', quiet, () => NOW);
    // B fetched later but writes first.
    await b.update((s) => keepTrends(s, 'proj', {}, { [TODAY]: [12, 3, 14, NOW + 60_000] }));
    await a.update((s) => keepTrends(s, 'proj', { 'visitors 2026-11-24 2026-11-25': [40, 9, 47] }, { [TODAY]: [10, 2, 11, NOW] }));
    await Promise.all([a.refresh(), b.refresh()]);
    for (const store of [a, b]) {
      assert.deepEqual(store.state.openTrends.proj?.[TODAY], [12, 3, 14, NOW + 60_000]);
      assert.deepEqual(store.state.trends.proj?.['visitors 2026-11-24 2026-11-25'], [40, 9, 47]);
    }
  });

  it('merges two fetches in either order to the same answer, the same instant included', () => {
    const of = (figures: OpenTrendFigures) => {
      const state = emptyState();
      keepTrends(state, 'proj', {}, { [TODAY]: figures });
      return state;
    };
    const pairs: [OpenTrendFigures, OpenTrendFigures][] = [
      [
        [10, 2, 11, NOW],
        [12, 3, 14, NOW + 1],
      ],
      [
        [10, 2, 11, NOW],
        [9, 5, 11, NOW],
      ],
      [
        [10, 2, 11, NOW],
        [10, 2, 11, NOW],
      ],
    ];
    for (const [x, y] of pairs) {
      const xy = mergeState(of(x), of(y)).openTrends.proj[TODAY];
      assert.deepEqual(xy, mergeState(of(y), of(x)).openTrends.proj[TODAY]);
      assert.deepEqual(mergeState(mergeState(of(x), of(y)), of(y)).openTrends.proj[TODAY], xy, 'merging again changes nothing');
    }
    assert.deepEqual(mergeState(of([10, 2, 11, NOW]), of([12, 3, 14, NOW + 1])).openTrends.proj[TODAY], [12, 3, 14, NOW + 1], 'the later fetch');
  });

  it('drops today’s bucket an hour after its fetch, and keeps a newer one', () => {
    const state = emptyState();
    keepTrends(state, 'old', {}, { [TODAY]: [1, 1, 2, NOW - HOUR_MS] });
    keepTrends(state, 'proj', {}, { [TODAY]: [1, 1, 2, NOW - HOUR_MS + 1] });
    pruneState(state, NOW);
    assert.deepEqual(Object.keys(state.openTrends), ['proj']);
  });
});
