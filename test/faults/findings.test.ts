// The shared state's findings of issue 47, each on the production wiring (src/sync/windowReplica.ts:
// the store, the request ledger, the hour's account and gate, the trends) in windows of one machine on
// one folder that misbehaves on purpose (test/support/faultyFolder.ts), on a fake clock.
import assert from 'node:assert/strict';
import { BEAT_MS } from '../../src/sync/lease';
import { analyticsBucket, HOURLY_LIMIT, keyBucketHash } from '../../src/sync/ledger';
import { SCHEMA_VERSION } from '../../src/sync/sharedSchema';
import { ADDRESS_LASTS_MS } from '../../src/sync/sharedTrends';
import { LONGEST_WAIT_MS } from '../../src/api/errors';
import { TEAMMATES_WAIT } from '../../src/sync/sharedWaits';
import { HOUR_MS } from '../../src/util/clock';
import { FakeClock } from '../support/fakeClock';
import { KEY, Machine, type TestWindow } from '../support/windowsOnOneFolder';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const UNCERTAIN = /cannot be counted for certain/;

/** A window's file as another window (of this version or another) writes it. */
function fileOf(window: string, at: number, options: { schema?: number; beat?: number; closed?: boolean; state?: Record<string, unknown> } = {}): string {
  const presence = { window, project: null, focused: false, beat: options.beat ?? 1, beatAt: at, since: at - 60_000, ...(options.closed && { closed: true }) };
  return JSON.stringify({ format: 1, schema: options.schema ?? SCHEMA_VERSION, presence, state: options.state ?? {} });
}

/** The analytics hour another window of the machine already spent: `count` reservations in its file. */
function spentBy(machine: Machine, hash: string, count: number, at: number): void {
  const entries = Object.fromEntries(Array.from({ length: count }, (_, i) => [`other.${i}`, at]));
  machine.folder.files.set('w-other.json', fileOf('other', at, { state: { ledger: { [analyticsBucket(hash)]: entries } } }));
}

/** Reserves `count` requests of one grant at once and sends every one that was reserved; how many went. */
async function spend(grant: { reserve(): Promise<{ end(sent: boolean): void } | undefined> }, count: number): Promise<number> {
  const reservations = await Promise.all(Array.from({ length: count }, () => grant.reserve()));
  for (const reservation of reservations) reservation?.end(true);
  return reservations.filter(Boolean).length;
}

/** Advances beat by beat until `ready()` holds; how many beats it took (fails past `most`). */
async function beatsUntil(clock: FakeClock, what: string, ready: () => boolean, most: number): Promise<number> {
  for (let beats = 0; beats <= most; beats++) {
    if (ready()) return beats;
    await clock.advance(BEAT_MS);
  }
  assert.fail(`${what}: not within ${most} beats`);
}

/** The key's bucket hash the window counts in (known once the salt is agreed on). */
function hashOf(window: TestWindow): string {
  assert.ok(window.state.salt, 'the window has agreed on a salt');
  return keyBucketHash(window.state.salt, KEY);
}

describe('the shared state under faults: issue 47’s findings, on the production wiring', () => {
  let clock: FakeClock;
  let machine: Machine;
  beforeEach(() => {
    clock = new FakeClock(NOW);
    machine = new Machine(clock);
  });
  afterEach(() => {
    for (const window of [...machine.windows]) machine.close(window);
  });

  it('1. an idle window writes at most once a beat, whatever the folder holds: a newer version’s window that closed, files it may not remove, a damaged file', async () => {
    const a = machine.open('a');
    await clock.advance(BEAT_MS);
    // An extension update: a window of the next schema version opens, beats a while, and closes.
    const futureState = { futureArea: { kept: 'as it came' } };
    for (let beat = 1; beat <= 6; beat++) {
      machine.folder.files.set('w-next.json', fileOf('next', clock.now(), { schema: SCHEMA_VERSION + 1, beat, state: futureState }));
      machine.folder.onWrite('w-next.json');
      await clock.advance(BEAT_MS);
    }
    machine.folder.files.set('w-next.json', fileOf('next', clock.now(), { schema: SCHEMA_VERSION + 1, beat: 7, closed: true, state: futureState }));
    machine.folder.onWrite('w-next.json');
    // A closed window's file that cannot be removed, and a damaged one that cannot be set aside.
    machine.folder.files.set('w-locked.json', fileOf('locked', clock.now(), { closed: true }));
    machine.folder.files.set('w-broken.json', '{"format": 1, "presen');
    machine.folder.fixed.add('w-locked.json').add('w-broken.json');
    machine.folder.onWrite('w-locked.json');
    await clock.advance(BEAT_MS);

    const before = machine.folder.writes.get(a.file) ?? 0;
    const minutes = 10;
    await clock.advance(minutes * 60_000);
    const writes = (machine.folder.writes.get(a.file) ?? 0) - before;
    assert.ok(writes <= (minutes * 60_000) / BEAT_MS + 1, `${writes} writes in ${minutes} idle minutes (a beat is ${BEAT_MS / 1000} s)`);
    assert.deepEqual(
      (JSON.parse(machine.folder.files.get(a.file)!) as { state: Record<string, unknown> }).state.futureArea,
      futureState.futureArea,
      'the newer version’s area is carried',
    );
    assert.ok(machine.folder.files.has('w-next.json'), 'a newer version’s file is left for a window of that version');
  });

  it('2. a first write that fails leaves the hour unknown only until the disk answers: then the count is known, and what a writer sent meanwhile reaches every window', async () => {
    const a = machine.open('a');
    a.view.schedule = { rate: 1, kinds: ['fail'], operations: ['writeAtomic'] };
    await clock.advance(3 * BEAT_MS);
    assert.equal(a.gate.used(), undefined, 'the count is not known while nothing can be written');
    assert.equal(a.gate.background('readers', 1), undefined, 'background work is held');
    assert.equal(await spend(a.gate.granted(2, true), 2), 0, 'the editor’s AI is held');
    // A writer's Export goes (they asked for it) and is told the count is uncertain, once.
    assert.equal(await spend(a.gate.granted(3), 3), 3);
    assert.equal(a.told.filter((m) => UNCERTAIN.test(m)).length, 1, 'the writer is told once that the count is uncertain');

    a.view.schedule = undefined;
    const beats = await beatsUntil(clock, 'the count known again', () => a.gate.used() === 3, 3);
    assert.ok(beats <= 3);
    const b = machine.open('b');
    await beatsUntil(clock, 'another window counts what was sent meanwhile', () => b.gate.used() === 3, 2);
  });

  it('3a. a read-back that cannot list the folder is not a counted reservation: two windows’ calls from the editor’s AI with 6 left send none, not 12', async () => {
    const a = machine.open('a');
    const b = machine.open('b');
    await beatsUntil(clock, 'both counts known', () => a.gate.used() === 0 && b.gate.used() === 0, 3);
    spentBy(machine, hashOf(a), 54, clock.now() - 60_000); // 6 left of the editor's AI's 60
    machine.folder.onWrite('w-other.json');
    await beatsUntil(clock, 'the 54 counted', () => a.gate.used() === 54 && b.gate.used() === 54, 2);
    a.view.schedule = b.view.schedule = { rate: 1, kinds: ['fail'], operations: ['list'] };
    const sent = await Promise.all([spend(a.gate.granted(6, true), 6), spend(b.gate.granted(6, true), 6)]);
    assert.ok(sent[0] + sent[1] <= 6, `${sent[0] + sent[1]} sent with 6 left`);
    assert.equal(sent[0] + sent[1], 0, 'nothing is sent on a count that could not be read back');
    a.view.schedule = b.view.schedule = undefined;
    await beatsUntil(clock, 'no reservation left behind', () => a.gate.used() === 54 && b.gate.used() === 54, 3);
  });

  it('3b. a file that cannot be read makes the read-back not whole: the window that cannot see its peer sends nothing unasked', async () => {
    const a = machine.open('a');
    const b = machine.open('b');
    await beatsUntil(clock, 'both counts known', () => a.gate.used() === 0 && b.gate.used() === 0, 3);
    spentBy(machine, hashOf(a), 54, clock.now() - 60_000);
    machine.folder.onWrite('w-other.json');
    await beatsUntil(clock, 'the 54 counted', () => a.gate.used() === 54 && b.gate.used() === 54, 2);
    machine.folder.unreadable.add(b.file);
    const sent = await Promise.all([spend(a.gate.granted(6, true), 6), spend(b.gate.granted(6, true), 6)]);
    assert.ok(sent[0] + sent[1] <= 6, `${sent[0] + sent[1]} sent with 6 left`);
    assert.equal(sent[0], 0, 'the window that cannot read its peer sends nothing');
    assert.equal(a.gate.used(), undefined, 'and says its count is not known');
    // A file out of reach for an hour no longer holds the count unknown: what it held has left the hour.
    await clock.advance(HOUR_MS + BEAT_MS);
    assert.equal(a.gate.used(), sent[1], 'known again, without the file out of reach');
  });

  it('3c. a clock stepped back keeps the hour’s count, and lets it go within an hour of the step', async () => {
    const a = machine.open('a');
    await beatsUntil(clock, 'the count known', () => a.gate.used() === 0, 3);
    assert.equal(await spend(a.gate.granted(10), 10), 10);
    clock.step(-2 * HOUR_MS);
    await clock.advance(BEAT_MS);
    assert.equal(a.gate.used(), 10, 'the requests sent before the step still count');
    await clock.advance(HOUR_MS);
    assert.equal(a.gate.used(), 0, 'an hour after the step they have left the hour');
  });

  it('4. a wait further ahead than a server may ask (a proxy’s milliseconds as seconds, in an older version’s file) is dropped, not shared for weeks', async () => {
    const weeks = clock.now() + 42 * 24 * HOUR_MS;
    machine.folder.files.set(
      'w-old.json',
      fileOf('old', clock.now(), { state: { waits: { analytics: weeks, [TEAMMATES_WAIT]: weeks, agent: clock.now() + 30_000 } } }),
    );
    const a = machine.open('a');
    await beatsUntil(clock, 'the count known', () => a.gate.used() === 0, 3);
    assert.equal(a.ledger.familyWaitMs('analytics'), 0, 'no analytics wait');
    assert.ok(a.ledger.familyWaitMs('agent') > 0 && a.ledger.familyWaitMs('agent') <= 30_000, 'a wait a server may ask is kept');
    assert.ok(a.gate.backgroundShare() > 0, 'background work is not held for weeks');
    await clock.advance(BEAT_MS);
    const written = JSON.parse(machine.folder.files.get(a.file)!) as { state: { waits: Record<string, number> } };
    assert.ok(
      Object.values(written.state.waits).every((until) => until <= clock.now() + LONGEST_WAIT_MS),
      'no wait past an hour is written on',
    );
  });

  it('7. an API address read differently for a moment (a remote window after a reload) forgets nothing every window kept; a lasting change does', async () => {
    const address = 'https://api.example.test';
    machine.apiBaseUrl = address;
    const a = machine.open('a');
    await beatsUntil(clock, 'the count known', () => a.gate.used() === 0, 3);
    a.trends.keepTrends('proj', { 'visitors 2026-11-01 2026-11-02': [3, 1, 4] });
    await clock.advance(BEAT_MS);
    machine.close(a);
    // The reload: the new window reads the default address first, then the user's.
    let read = 0;
    const b = machine.open('b', { apiBaseUrl: () => (read++ < 3 ? 'https://api.mintlify.com' : address) });
    await clock.advance(3 * BEAT_MS);
    assert.deepEqual(b.trends.keptTrends('proj'), { 'visitors 2026-11-01 2026-11-02': [3, 1, 4] }, 'the trend drawn before the reload is still kept');
    // A change that lasts is followed.
    machine.windows[0].dispose();
    const c = machine.open('c', { apiBaseUrl: () => 'https://api.mintlify.com' });
    await clock.advance(ADDRESS_LASTS_MS + 2 * BEAT_MS);
    assert.equal(JSON.stringify(c.state.trends).includes('2026-11-01'), false, 'what was kept for the other address is forgotten once the change lasts');
  });

  it('keeps the hour’s promise in its own words: with a full hour nothing is granted, whatever the disk does', async () => {
    const a = machine.open('a');
    await beatsUntil(clock, 'the count known', () => a.gate.used() === 0, 3);
    spentBy(machine, hashOf(a), HOURLY_LIMIT, clock.now() - 60_000);
    machine.folder.onWrite('w-other.json');
    await beatsUntil(clock, 'the hour full', () => a.gate.used() === HOURLY_LIMIT, 2);
    a.view.schedule = { rate: 1, kinds: ['stall'] };
    assert.equal(await spend(a.gate.granted(3), 3), 0, 'a writer is held to what is known to be left, even while the count is uncertain');
  });
});
