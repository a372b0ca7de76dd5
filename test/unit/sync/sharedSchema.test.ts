// What a newer version of the extension writes survives this one (src/sync/sharedSchema.ts,
// syncState.ts, sharedStore.ts): an older window that reads a newer window's file, changes
// something and writes its own keeps every field and area it does not know; it takes in the areas
// it knows; it never sets the newer file aside, nor removes it when that window is gone. Real files
// in a temp folder; no vscode.
import assert from 'node:assert/strict';
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedArea } from '../../../src/sync/sharedArea';
import { SharedStore } from '../../../src/sync/sharedStore';
import { finishLinks } from '../../../src/signals/signalLinkState';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { nodeSyncFs } from '../../support/nodeSyncFs';

const quiet = { info: () => undefined, warn: () => undefined };
const NOW = 1_800_000_000_000;
const s = (t: number) => ({ t, w: 'newer', zone: 'utc' });

/** A file as a newer version would write it: a field of its own in every area's entries, and an area of its own. */
function newerFile(beatAt: number) {
  return {
    format: 1,
    schema: 99,
    presence: { window: 'newer', project: 'proj', focused: false, beat: 1, beatAt, since: beatAt },
    state: {
      jobs: {
        proj: {
          job_n: {
            tracked: { v: true, s: s(NOW), why: 'asked' },
            f: { checkedAt: { v: 'x', s: s(NOW), source: 'poll' } },
            p: { 'newer.1': { text: 'hi', sentAt: 'then', s: s(NOW), model: 'm' } },
            labels: ['docs'],
          },
        },
      },
      drafts: { proj: { create: { v: 'typed', s: s(NOW), cursor: 5 } } },
      links: {
        proj: {
          job_n: {
            v: { jobId: 'job_n', signalIds: ['page:/a'], searches: [], askedAt: new Date(NOW).toISOString(), prUrl: 'https://example.com/pr/1' },
            s: s(NOW),
            origin: 'tool',
          },
        },
      },
      trends: { proj: { 'visitors 2026-11-23 2026-11-24': [40, 9, 47, 'bots:3'] } },
      trendUse: { proj: { 'page:%2Fa 2026-11-23 2026-11-24': NOW } },
      openTrends: { proj: { 'visitors 2026-11-25 2026-11-26': [1, 2, 3, NOW, 'partial'] } },
      ledger: { 'agent:proj': { 'newer.1': NOW } },
      waits: { agent: NOW + 60_000 },
      salt: 'aaaa',
      annotations: { proj: { job_n: { notes: [{ line: 3, text: 'typo' }] } } },
    },
  };
}

describe('shared store: what a newer version writes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'schema-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an older window that rewrites a newer window’s file keeps every field and area it does not know', async () => {
    const newer = newerFile(NOW);
    await fs.writeFile(join(dir, 'w-newer.json'), JSON.stringify(newer));
    const older = new SharedStore(nodeSyncFs(dir), 'older', quiet, () => NOW + 1_000);
    await older.refresh();
    // The areas it knows are taken in, entry by entry, as from any window.
    assert.equal(older.state.jobs.proj?.job_n?.tracked.v, true);
    assert.equal(older.state.links.proj?.job_n?.v.jobId, 'job_n');
    // It changes the same entries through the areas' handles, as its features do, and writes its own file.
    await new SharedArea('jobs', older).change((jobs, stamp) => applyJobChange({ jobs }, 'proj', 'job_n', { fields: { notFound: false } }, { next: stamp }));
    // The path a linked job's finish takes (SignalJobs.noteFinished): the link rebuilt from the fields this version knows.
    await finishLinks(new SharedArea('links', older), 'proj', (id) => id === 'job_n', new Date(NOW).toISOString());
    const written = JSON.parse(await fs.readFile(join(dir, 'w-older.json'), 'utf8')) as {
      state: ReturnType<typeof newerFile>['state'] & Record<string, unknown>;
    };
    const job = written.state.jobs.proj.job_n as unknown as Record<string, unknown> & typeof newer.state.jobs.proj.job_n;
    assert.deepEqual(job.labels, ['docs'], 'a job’s own field');
    assert.equal(job.tracked.why, 'asked', 'a register’s own field');
    assert.equal(job.tracked.s.zone, 'utc', 'a stamp’s own field');
    assert.equal(job.f.checkedAt.source, 'poll');
    assert.equal(job.p['newer.1'].model, 'm', 'a prompt’s own field');
    assert.equal(written.state.drafts.proj.create.cursor, 5, 'a draft’s own field');
    assert.equal(written.state.links.proj.job_n.v.prUrl, 'https://example.com/pr/1', 'a link’s own field, through a change of the link');
    assert.equal((written.state.links.proj.job_n.v as Record<string, unknown>).finishedAt, new Date(NOW).toISOString(), 'the change itself');
    assert.deepEqual(written.state.trends.proj['visitors 2026-11-23 2026-11-24'], [40, 9, 47, 'bots:3'], 'a settled bucket’s own element');
    assert.deepEqual(written.state.openTrends.proj['visitors 2026-11-25 2026-11-26'], [1, 2, 3, NOW, 'partial'], 'an open bucket’s own element');
    assert.deepEqual(written.state.annotations, newer.state.annotations, 'an area of its own, whole');
    assert.deepEqual(written.state.waits, newer.state.waits);
    assert.equal(written.state.salt, 'aaaa');
  });

  it('never sets a newer file aside, and leaves it for a window of its version to remove once that window is gone', async () => {
    await fs.writeFile(join(dir, 'w-newer.json'), JSON.stringify(newerFile(NOW - 10 * 60_000)));
    // A known area this version cannot read (a newer version changed its shape): left out, the rest read.
    const odd = newerFile(NOW - 10 * 60_000);
    (odd.state as Record<string, unknown>).drafts = { proj: 'not a record' };
    odd.presence.window = 'odd';
    await fs.writeFile(join(dir, 'w-odd.json'), JSON.stringify(odd));
    const warnings: string[] = [];
    const older = new SharedStore(nodeSyncFs(dir), 'older', { info: () => undefined, warn: (m) => warnings.push(m) }, () => NOW);
    await older.refresh();
    await older.refresh();
    assert.deepEqual(
      (await fs.readdir(dir)).sort(),
      ['w-newer.json', 'w-odd.json', 'w-older.json'],
      'both kept, though their windows stopped beating long ago',
    );
    assert.equal(older.state.jobs.proj?.job_n?.tracked.v, true, 'the odd file’s other areas were read');
    assert.match(warnings.join('\n'), /w-odd\.json \(schema 99\) holds an area "drafts" this window cannot read/);
  });

  it('still sets aside a file of its own version that it cannot read', async () => {
    const damaged = { ...newerFile(NOW), schema: 2, state: { jobs: 'not a record' } };
    await fs.writeFile(join(dir, 'w-broken.json'), JSON.stringify(damaged));
    const store = new SharedStore(nodeSyncFs(dir), 'older', quiet, () => NOW);
    await store.refresh();
    assert.ok((await fs.readdir(dir)).some((n) => n.startsWith('w-broken.json.damaged-')));
  });
});
