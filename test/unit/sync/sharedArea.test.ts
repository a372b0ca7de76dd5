// An area's handle (src/sync/sharedArea.ts): a change made through it keeps what a newer version
// added, however the feature built the entry it writes, and its event fires for its own area
// only; a read names the areas it changed (src/sync/sharedStore.ts refreshAreas), which is what
// the window's glue tells each handle. Real files in a temp folder; no vscode.
import assert from 'node:assert/strict';
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedArea } from '../../../src/sync/sharedArea';
import { SharedStore } from '../../../src/sync/sharedStore';
import { applyReviewChange } from '../../../src/sync/reviewState';
import { nodeSyncFs } from '../../support/nodeSyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const NOW = 1_800_000_000_000;
const newer = (t: number) => ({ t, w: 'newer', zone: 'utc' });

/** A file of a newer version: its own fields on a link, a preview (nested too), a review's comment and the registers around them. */
function newerFile() {
  return {
    format: 1,
    schema: 99,
    presence: { window: 'newer', project: 'proj', focused: false, beat: 1, beatAt: NOW, since: NOW },
    state: {
      jobs: { proj: { job_n: { tracked: { v: true, s: newer(NOW) }, f: {}, p: {} } } },
      links: {
        proj: {
          job_n: {
            v: { jobId: 'job_n', signalIds: ['page:/a'], searches: [], askedAt: 'then', finishedAt: 'later', prUrl: 'pr/1' },
            s: newer(NOW),
            origin: 'tool',
          },
        },
      },
      previews: {
        proj: {
          job_n: {
            v: {
              branch: 'b',
              statusId: 's1',
              requestedAt: NOW,
              status: 'queued',
              files: { added: [], modified: [], removed: [], renamed: ['x'] },
              region: 'eu',
            },
            s: newer(NOW),
          },
        },
      },
      reviews: {
        proj: {
          job_n: {
            c: {
              'newer.1': {
                v: { path: 'a.mdx', commit: 'c1', startLine: 1, endLine: 1, lines: ['x'], body: 'fix', createdAt: NOW, mood: 'kind' },
                s: newer(NOW),
              },
            },
            resolved: ['newer.0'],
          },
        },
      },
    },
  };
}

describe('an area of the shared state, through its handle', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'area-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function olderWindow(): Promise<SharedStore> {
    await fs.writeFile(join(dir, 'w-newer.json'), JSON.stringify(newerFile()));
    const store = new SharedStore(nodeSyncFs(dir), 'older', quiet, () => NOW + 1_000);
    await store.refresh();
    return store;
  }

  it('keeps what a newer version added when a feature writes an entry rebuilt from the fields it knows', async () => {
    const store = await olderWindow();
    const links = new SharedArea('links', store);
    const previews = new SharedArea('previews', store);
    const reviews = new SharedArea('reviews', store);
    // Each written whole, from this version's fields only (what toShared and a status read build).
    await links.change((area, stamp) => {
      area.proj.job_n = { v: { jobId: 'job_n', signalIds: ['page:/a'], searches: [], askedAt: 'then' }, s: stamp() };
    });
    await previews.change((area, stamp) => {
      area.proj.job_n = {
        v: { branch: 'b', statusId: 's1', requestedAt: NOW, status: 'success', files: { added: ['a.mdx'], modified: [], removed: [] } },
        s: stamp(),
      };
    });
    await reviews.change((area, stamp) => {
      area.proj.job_n = {
        c: { 'newer.1': { v: { path: 'a.mdx', commit: 'c1', startLine: 1, endLine: 1, lines: ['x'], body: 'fixed', createdAt: NOW }, s: stamp() } },
      };
    });
    const written = JSON.parse(await fs.readFile(join(dir, 'w-older.json'), 'utf8')) as { state: Record<string, Record<string, Record<string, unknown>>> };
    const link = written.state.links.proj.job_n as { v: Record<string, unknown>; s: Record<string, unknown>; origin?: string };
    assert.equal(link.v.prUrl, 'pr/1', 'a link’s own field');
    assert.equal(link.origin, 'tool', 'a register’s own field');
    assert.equal(link.v.finishedAt, undefined, 'a field this version knows and left out stays out');
    assert.deepEqual(link.s, { t: NOW + 1_000, w: 'older' }, 'the stamp is the new one, whole');
    const preview = (written.state.previews.proj.job_n as { v: Record<string, unknown> }).v;
    assert.equal(preview.status, 'success', 'the change itself');
    assert.equal(preview.region, 'eu', 'a preview’s own field');
    assert.deepEqual(preview.files, { added: ['a.mdx'], modified: [], removed: [], renamed: ['x'] }, 'a nested object’s own field');
    const review = written.state.reviews.proj.job_n as { c: Record<string, { v: Record<string, unknown> }>; resolved?: unknown };
    assert.deepEqual(review.resolved, ['newer.0'], 'a review’s own field');
    assert.equal(review.c['newer.1'].v.mood, 'kind', 'a comment’s own field');
    assert.equal(review.c['newer.1'].v.body, 'fixed');
  });

  it('takes what the feature removed or emptied as it is: a deleted comment, a removed entry', async () => {
    const store = await olderWindow();
    const reviews = new SharedArea('reviews', store);
    const links = new SharedArea('links', store);
    await reviews.change((area, stamp) => applyReviewChange(area, 'proj', 'job_n', { comment: 'newer.1', value: null }, stamp));
    await links.change((area) => delete area.proj.job_n);
    assert.equal(store.state.reviews.proj?.job_n?.c['newer.1']?.v, null);
    assert.equal(store.state.links.proj?.job_n, undefined);
  });

  it('fires for its own area only, and a read names the areas it changed', async () => {
    const store = new SharedStore(nodeSyncFs(dir), 'wa', quiet, () => NOW);
    const other = new SharedStore(nodeSyncFs(dir), 'wb', quiet, () => NOW);
    const fired: string[] = [];
    const links = new SharedArea('links', store);
    const drafts = new SharedArea('drafts', store);
    links.onDidChange(() => fired.push('links'));
    drafts.onDidChange(() => fired.push('drafts'));
    await links.change((area, stamp) => ((area.proj ??= {}).job_a = { v: { jobId: 'job_a', signalIds: [], searches: [], askedAt: 'then' }, s: stamp() }));
    assert.deepEqual(fired, ['links']);
    await new SharedArea('drafts', other).change((area, stamp) => ((area.proj ??= {}).create = { v: 'typed elsewhere', s: stamp() }));
    assert.deepEqual(await store.refreshAreas(), { changed: ['drafts'], whole: true });
    assert.deepEqual(await store.refreshAreas(), { changed: [], whole: true }, 'nothing new');
  });
});
