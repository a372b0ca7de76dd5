// The previews in the shared state stay bounded (src/sync/previewState.ts): every window rewrites its
// file every few seconds and re-reads the others', so a failed build's log (200 lines of up to 1,000
// characters) and a commit's every file have no place there. Two windows over one folder on the real
// disk: one keeps the failed builds of more and more jobs as a status read makes them
// (src/preview/previewRecord.ts withStatus), through the area's handle as the previews do; the
// other reads them. And a file an earlier version wrote, logs inside, is still read. No vscode.
import assert from 'node:assert/strict';
import { promises as fs, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpdateStatus } from '../../../src/api';
import { deployed, withStatus } from '../../../src/preview/previewRecord';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { KEPT_FILES_PER_LIST } from '../../../src/sync/previewState';
import { SharedArea } from '../../../src/sync/sharedArea';
import { fileOf, SharedStore } from '../../../src/sync/sharedStore';
import { nodeSyncFs } from '../../support/nodeSyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const NOW = 1_800_000_000_000;
const PROJECT = 'proj';
/** What one failed preview may add to a window's file, whatever the platform sent: its record, its files cut, its job. */
const PER_PREVIEW_BYTES = 16_000;

/** A failed build's status as the platform may send it: a long log, a long summary, a commit of many files. */
function failedStatus(n: number): UpdateStatus {
  const paths = (kind: string, count: number) => Array.from({ length: count }, (_, i) => `docs/${kind}/section-${n}/page-${i}.mdx`);
  return {
    status: 'failure',
    reportedStatus: 'failure',
    summary: `Build ${n} failed: ${'s'.repeat(4_000)}`,
    logs: Array.from({ length: 300 }, (_, i) => `[build ${n}] step ${i}: ${'y'.repeat(1_500)}`),
    commit: {
      sha: `${n}`.padStart(40, 'a'),
      ref: 'b',
      message: 'm',
      added: paths('added', 400),
      modified: paths('modified', 400),
      removed: paths('removed', 10),
    },
  } as UpdateStatus;
}

describe('the previews in the shared state', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'previews-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const sizeOf = (window: string) => statSync(join(dir, fileOf(window))).size;

  it('grow by a bounded amount per failed preview in every window’s file, whatever its log and files', async function () {
    // Today's code writes a few megabytes here, with fsync: a slow disk needs the time, never this change.
    this.timeout(60_000);
    const a = new SharedStore(nodeSyncFs(dir), 'a', quiet, () => NOW);
    const b = new SharedStore(nodeSyncFs(dir), 'b', quiet, () => NOW);
    const previews = new SharedArea('previews', a);
    const sizes: { a: number; b: number }[] = [];
    for (let n = 1; n <= 12; n++) {
      const job = `job_${n}`;
      await a.update((state) => applyJobChange(state, PROJECT, job, { track: true }, a.clock));
      const asked = deployed(`mintlify/agent-${n}`, { statusId: `st_${n}`, previewUrl: `https://acme-${n}.mintlify.app` }, NOW);
      await previews.change((area, stamp) => ((area[PROJECT] ??= {})[job] = { v: withStatus(asked, failedStatus(n), NOW), s: stamp() }));
      if (n % 4 === 0) {
        await b.refresh();
        await b.beat();
        sizes.push({ a: sizeOf('a'), b: sizeOf('b') });
      }
    }
    assert.equal(Object.keys(b.state.previews[PROJECT] ?? {}).length, 12, 'the other window has every preview');
    assert.equal(b.state.previews[PROJECT].job_12.v.status, 'failure');
    for (const window of ['a', 'b'] as const) {
      const perPreview = (sizes[2][window] - sizes[0][window]) / 8;
      assert.ok(perPreview <= PER_PREVIEW_BYTES, `${window}'s file grows by ${Math.round(perPreview)} bytes per failed preview (at most ${PER_PREVIEW_BYTES})`);
      assert.ok(sizes[2][window] <= 12 * PER_PREVIEW_BYTES, `${window}'s file holds 12 failed previews in ${sizes[2][window]} bytes`);
    }
    assert.equal(b.state.previews[PROJECT].job_12.v.files?.added.length, KEPT_FILES_PER_LIST);
  });

  it('reads a file an earlier version wrote, its logs and every file inside, and writes the record back bounded', async () => {
    const many = Array.from({ length: 120 }, (_, i) => `docs/page-${i}.mdx`);
    const earlier = {
      format: 1,
      schema: 6,
      presence: { window: 'earlier', project: PROJECT, focused: false, beat: 1, beatAt: NOW, since: NOW },
      state: {
        jobs: { [PROJECT]: { job_e: { tracked: { v: true, s: { t: NOW, w: 'earlier' } }, f: {}, p: {} } } },
        previews: {
          [PROJECT]: {
            job_e: {
              v: {
                branch: 'b',
                statusId: 'st_e',
                requestedAt: NOW,
                status: 'failure',
                summary: 'The build failed',
                logs: ['Building 14 pages', 'error: quickstart.mdx:5:1: Expected a closing tag for <Note>'],
                files: { added: many, modified: [], removed: [] },
              },
              s: { t: NOW, w: 'earlier' },
            },
          },
        },
      },
    };
    await fs.writeFile(join(dir, 'w-earlier.json'), JSON.stringify(earlier));
    const store = new SharedStore(nodeSyncFs(dir), 'now', quiet, () => NOW + 1_000);
    await store.refresh();
    const record = store.state.previews[PROJECT]?.job_e?.v;
    assert.equal(record?.status, 'failure', 'read');
    assert.equal(record?.summary, 'The build failed');
    assert.equal(record?.logs, undefined, 'its log is not carried on');
    assert.deepEqual(record?.files?.added, many.slice(0, KEPT_FILES_PER_LIST));
    assert.equal(record?.filesLeftOut, 120 - KEPT_FILES_PER_LIST);
    await store.beat();
    const written = await fs.readFile(join(dir, fileOf('now')), 'utf8');
    assert.ok(!written.includes('Expected a closing tag') && !written.includes('docs/page-119.mdx'), written);
  });
});
