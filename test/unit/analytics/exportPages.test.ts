// An export hit by a 429 mid-way (teammates spent the organisation's hour), against the simulator:
// it keeps the pages it fetched, waits the time the platform named (on the fake clock), goes on from
// the page after them, and its file holds every row of the range, with no page fetched twice. Real
// client, real HTTP; the file is written by the extension's one safe writer.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type ApiClient } from '../../../src/api';
import { exportText } from '../../../src/analytics/exportFormats';
import { ExportPages, fetchExportPages, SHORTEST_WAIT_MS } from '../../../src/analytics/exportPages';
import { fetcherFor } from '../../../src/analytics/metric';
import { writeOnDisk } from '../../../src/sync/atomicWrite';
import { startSimulator, type Simulator } from '../../simulator/server';
import { FakeClock } from '../../support/fakeClock';
import { grantOf } from '../../support/grants';
import { waitFor } from '../../support/waitFor';

const PROJECT = 'demo-project';
/** Whole days that ended before the clock's today: a settled range. */
const SETTLED = { dateFrom: '2026-08-22', dateTo: '2026-11-20', label: 'Last 90 days' };
/** The fake clock's start: 2026-11-20, noon UTC. */
const NOON = Date.UTC(2026, 10, 20, 12);
const PATHS = 2_000; // 8 pages of 250

describe('an export across a 429, at the simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let api: ApiClient;
  let fake: FakeClock;
  let clock: { now: () => number; setTimeout: FakeClock['setTimeout']; clearTimeout: FakeClock['clearTimeout'] };
  const folders: string[] = [];

  before(async () => {
    sim = await startSimulator({ today: '2026-11-19', pathCount: PATHS });
    api = createApiClient({ baseUrl: () => sim.url, getApiKey: async () => 'mint_unit_test_key', timeoutMs: () => 5_000 });
  });
  after(async () => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await sim.close();
  });
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
    fake = new FakeClock();
    clock = { now: () => NOON + fake.now(), setTimeout: fake.setTimeout, clearTimeout: fake.clearTimeout };
  });

  /** The visitors requests the simulator answered, as [offset, status]. */
  const answered = () => sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).map((r) => [Number(r.query.offset), r.status] as const);

  /** Three pages answered, then a 429 naming `seconds`, then the usual answers. */
  function limitAfterThreePages(seconds: number): void {
    sim.addFault({ fault: { kind: 'latency', ms: 0 }, times: 3, pathIncludes: '/visitors' });
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: seconds }, times: 1, pathIncludes: '/visitors' });
  }

  it('keeps the pages fetched before the 429, goes on after the named wait, and writes a whole file with no page fetched twice', async () => {
    limitAfterThreePages(600);
    const kept = new ExportPages();
    const waits: { pages: number; rows: number; until: number }[] = [];
    const grant = grantOf(20);
    const signal = new AbortController().signal;
    const done = fetchExportPages(fetcherFor(api, 'visitors'), PROJECT, SETTLED, kept, {
      signal,
      grant,
      clock,
      onWait: (k, until) => waits.push({ pages: k.pages, rows: k.rows.length, until }),
    });
    await waitFor('the export to wait', () => waits.length === 1 && fake.pending === 1);
    assert.deepEqual(waits, [{ pages: 3, rows: 750, until: NOON + 600_000 }], 'it keeps the three pages and names when it goes on');
    assert.equal(answered().length, 4, 'nothing more is sent while it waits');

    await fake.advance(599_000);
    assert.equal(answered().length, 4, 'not before the named time');
    await fake.advance(1_000);
    const end = await done;

    const truth = sim.visitorsFor(PROJECT, SETTLED);
    assert.equal(end.cutShort, undefined, 'it read to the last page');
    assert.equal(kept.pages, PATHS / 250);
    assert.deepEqual(kept.rows, truth.visitors, 'every row of the range, once, in the API’s order');
    assert.deepEqual(kept.totals, truth.totals);
    assert.equal(kept.moved, false, 'a settled range’s figures did not move');
    const ok = answered().filter(([, status]) => status === 200);
    assert.deepEqual(
      ok.map(([offset]) => offset),
      [0, 250, 500, 750, 1000, 1250, 1500, 1750],
      'each page answered once',
    );
    assert.deepEqual(answered()[3], [750, 429], 'the page the 429 refused is the one asked after the wait');
    assert.equal(grant.taken, 9, 'every request, the ones after the wait too, reserved by the export’s grant');

    const folder = mkdtempSync(join(tmpdir(), 'mintlify-export-unit-'));
    folders.push(folder);
    const file = join(folder, 'visitors.csv');
    const subject = { projectId: PROJECT, metric: 'visitors' as const, range: SETTLED };
    await writeOnDisk(file, exportText('csv', subject, { totals: kept.totals ?? truth.totals, rows: kept.rows }, 'now'));
    assert.equal(readFileSync(file, 'utf8'), exportText('csv', subject, { totals: truth.totals, rows: truth.visitors }, 'now'), 'the file is the whole range');
    assert.deepEqual(readdirSync(folder), ['visitors.csv']);
  });

  it('Cancel during the wait ends it at once, the pages kept still held and nothing more sent', async () => {
    limitAfterThreePages(3_600);
    const kept = new ExportPages();
    const cancel = new AbortController();
    const done = fetchExportPages(fetcherFor(api, 'visitors'), PROJECT, SETTLED, kept, { signal: cancel.signal, grant: grantOf(20), clock });
    await waitFor('the export to wait', () => fake.pending === 1);
    cancel.abort();
    await assert.rejects(done, (error: { kind?: string }) => error.kind === 'cancelled');
    assert.equal(fake.pending, 0, 'the wait’s timer is gone');
    assert.equal(kept.pages, 3);
    assert.equal(kept.rows.length, 750);
    assert.equal(answered().length, 4);
  });

  it('a 429 again before a few pages came through doubles the next wait: the hour is still contended', async () => {
    sim.addFault({ fault: { kind: 'latency', ms: 0 }, times: 3, pathIncludes: '/visitors' });
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 60 }, times: 2, pathIncludes: '/visitors' });
    const kept = new ExportPages();
    const waits: number[] = [];
    const done = fetchExportPages(fetcherFor(api, 'visitors'), PROJECT, SETTLED, kept, {
      signal: new AbortController().signal,
      grant: grantOf(20),
      clock,
      onWait: (_, until) => waits.push(until - clock.now()),
    });
    await waitFor('the first wait', () => waits.length === 1 && fake.pending === 1);
    await fake.advance(60_000);
    await waitFor('the second wait', () => waits.length === 2 && fake.pending === 1);
    assert.deepEqual(waits, [60_000, 120_000], 'the platform named a minute both times');
    await fake.advance(120_000);
    await done;
    assert.equal(kept.rows.length, PATHS);
  });

  it('a 429 that names no wait at all (Retry-After: 0), again and again, is waited out a second at least each time: never a loop of requests', async () => {
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 0 }, times: 5, pathIncludes: '/visitors' });
    const kept = new ExportPages();
    const waits: number[] = [];
    const done = fetchExportPages(fetcherFor(api, 'visitors'), PROJECT, SETTLED, kept, {
      signal: new AbortController().signal,
      grant: grantOf(20),
      clock,
      onWait: (_, until) => waits.push(until - clock.now()),
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      await waitFor(`wait ${attempt}`, () => waits.length === attempt && fake.pending === 1);
      assert.equal(answered().length, attempt, 'one request before each wait');
      await fake.advance(waits[attempt - 1]);
    }
    await done;
    assert.ok(
      waits.every((ms) => ms >= SHORTEST_WAIT_MS),
      `waits ${waits.join(', ')} ms`,
    );
    assert.equal(kept.rows.length, PATHS);
  });

  it('over a range that includes today, the pages read after the wait are said to be from another moment', async () => {
    limitAfterThreePages(60);
    const kept = new ExportPages();
    const open = { dateFrom: '2026-08-23', dateTo: '2026-11-21' };
    const done = fetchExportPages(fetcherFor(api, 'visitors'), PROJECT, open, kept, { signal: new AbortController().signal, grant: grantOf(20), clock });
    await waitFor('the export to wait', () => fake.pending === 1);
    await fake.advance(60_000);
    await done;
    assert.equal(kept.pages, PATHS / 250);
    assert.equal(kept.moved, true);
  });
});
