// Properties of the shared state and the organisation's hour over random interleavings of two or
// three windows of one machine and random faults of their folder (fail, slow, stall, files that
// cannot be read or removed, a newer version's window, damaged files), on the production wiring
// (src/sync/windowReplica.ts) and a fake clock. fast-check finds the schedule; a failure prints
// its seed and the steps that broke the property, which replay exactly.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BEAT_MS } from '../../src/sync/lease';
import { analyticsBucket, BACKGROUND_CEILING, HOURLY_LIMIT, keyBucketHash } from '../../src/sync/ledger';
import { SCHEMA_VERSION } from '../../src/sync/sharedSchema';
import { FakeClock } from '../support/fakeClock';
import type { FaultKind, Operation } from '../support/faultyFolder';
import { KEY, Machine, type TestWindow } from '../support/windowsOnOneFolder';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const UNCERTAIN = /cannot be counted for certain/;
/** The longest a fault takes to land (a stalled operation), after which the disk is whole again. */
const STALL_MS = 60_000;
/** Beats after the disk recovers (and the last stalled operation landed) within which every count is known and right. */
const RECOVERY_BEATS = 4;

type Holder = 'writer' | 'background' | 'model';

type Step =
  | { kind: 'spend'; window: number; holder: Holder; count: number }
  | { kind: 'faults'; window: number; rate: number; kinds: FaultKind[]; operations: Operation[] }
  | { kind: 'heal'; window: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'junk'; what: 'newer' | 'locked' | 'damaged' | 'unreadable' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('spend' as const),
      window: fc.nat({ max: 2 }),
      holder: fc.constantFrom<Holder>('writer', 'background', 'model'),
      count: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('faults' as const),
      window: fc.nat({ max: 2 }),
      rate: fc.double({ min: 0.1, max: 1, noNaN: true }),
      kinds: fc.subarray<FaultKind>(['fail', 'slow', 'stall'], { minLength: 1 }),
      operations: fc.subarray<Operation>(['list', 'read', 'writeAtomic', 'remove', 'rename'], { minLength: 1 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('heal' as const), window: fc.nat({ max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 12_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('junk' as const),
      what: fc.constantFrom<'newer' | 'locked' | 'damaged' | 'unreadable'>('newer', 'locked', 'damaged', 'unreadable'),
    }),
  },
);

interface Sent {
  holder: Holder;
  count: number;
}

/** Reserves `count` requests of one grant at once and sends every one that was reserved. */
async function spend(window: TestWindow, holder: Holder, count: number, sent: Sent[]): Promise<void> {
  const grant = holder === 'background' ? window.gate.background('readers', 1) : window.gate.granted(count, holder === 'model');
  if (!grant) return;
  const reservations = await Promise.all(Array.from({ length: count }, () => grant.reserve()));
  grant.end();
  for (const reservation of reservations) reservation?.end(true);
  sent.push({ holder, count: reservations.filter(Boolean).length });
}

function presenceFile(window: string, at: number, options: { schema?: number; closed?: boolean; state?: Record<string, unknown> } = {}): string {
  const presence = { window, project: null, focused: false, beat: 1, beatAt: at, since: at, ...(options.closed && { closed: true }) };
  return JSON.stringify({ format: 1, schema: options.schema ?? SCHEMA_VERSION, presence, state: options.state ?? {} });
}

function addJunk(machine: Machine, what: 'newer' | 'locked' | 'damaged' | 'unreadable', at: number, n: number): void {
  const folder = machine.folder;
  const name = `w-${what}${n}.json`;
  if (what === 'newer') folder.files.set(name, presenceFile(`${what}${n}`, at, { schema: SCHEMA_VERSION + 1, closed: true, state: { future: { n } } }));
  if (what === 'locked') {
    folder.files.set(name, presenceFile(`${what}${n}`, at, { closed: true }));
    folder.fixed.add(name);
  }
  if (what === 'damaged') {
    folder.files.set(name, '{"format": 1, "pres');
    folder.fixed.add(name);
  }
  if (what === 'unreadable') {
    folder.files.set(name, presenceFile(`${what}${n}`, at, { closed: true }));
    folder.unreadable.add(name);
    folder.fixed.add(name);
  }
  folder.onWrite(name);
}

describe('the shared state and the hour under random faults, two or three windows (fault tier)', () => {
  it('never passes what is left unasked, leaks no reservation, knows its count within a few beats of the disk’s recovery, and idles at one write a beat', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2, max: 3 }),
        fc.integer({ min: 30, max: HOURLY_LIMIT }),
        fc.array(step, { minLength: 5, maxLength: 30 }),
        async (seed, count, usedBefore, steps) => {
          const clock = new FakeClock(NOW);
          const machine = new Machine(clock, seed);
          const windows = Array.from({ length: count }, (_, i) => machine.open(`w${i}`));
          await clock.advance(BEAT_MS);
          const hash = keyBucketHash(windows[0].state.salt!, KEY);
          const spent = Object.fromEntries(Array.from({ length: usedBefore }, (_, i) => [`before.${i}`, NOW - 30 * 60_000]));
          machine.folder.files.set('w-before.json', presenceFile('before', NOW, { closed: true, state: { ledger: { [analyticsBucket(hash)]: spent } } }));
          machine.folder.onWrite('w-before.json');
          await clock.advance(3 * BEAT_MS);
          assert.ok(
            windows.every((w) => w.gate.used() === usedBefore),
            `every window counts the ${usedBefore} spent before`,
          );

          const sent: Sent[] = [];
          const running: Promise<void>[] = [];
          let junk = 0;
          for (const s of steps) {
            if (s.kind === 'spend') running.push(spend(windows[s.window % count], s.holder, s.count, sent));
            if (s.kind === 'faults') windows[s.window % count].view.schedule = { rate: s.rate, kinds: s.kinds, operations: s.operations, stallMs: STALL_MS };
            if (s.kind === 'heal') windows[s.window % count].view.schedule = undefined;
            if (s.kind === 'wait') await clock.advance(s.ms);
            if (s.kind === 'junk') addJunk(machine, s.what, clock.now(), junk++);
            await clock.advance(200);
          }
          // The disk recovers; what was stalled lands.
          for (const window of windows) window.view.schedule = undefined;
          machine.folder.unreadable.clear();
          await clock.advance(STALL_MS + BEAT_MS);
          await Promise.all(running);

          const total = (holders: Holder[]) => sent.filter((s) => holders.includes(s.holder)).reduce((sum, s) => sum + s.count, 0);
          const all = total(['writer', 'background', 'model']);
          const unasked = total(['background', 'model']);
          assert.ok(
            unasked <= Math.max(0, BACKGROUND_CEILING - usedBefore),
            `background work and the editor’s AI sent ${unasked} with ${BACKGROUND_CEILING - usedBefore} below the ceiling`,
          );
          const told = windows.some((w) => w.told.some((m) => UNCERTAIN.test(m)));
          assert.ok(
            all <= HOURLY_LIMIT - usedBefore || told,
            `${all} sent with ${HOURLY_LIMIT - usedBefore} left, and no writer was told the count was uncertain`,
          );

          // Within a few beats every window knows the count, and it is what was sent: nothing leaked, nothing lost.
          for (let beat = 0; beat < RECOVERY_BEATS && !windows.every((w) => w.gate.used() === usedBefore + all); beat++) await clock.advance(BEAT_MS);
          assert.deepEqual(
            windows.map((w) => w.gate.used()),
            windows.map(() => usedBefore + all),
            `every window counts the ${usedBefore} before and the ${all} sent within ${RECOVERY_BEATS} beats of the recovery`,
          );

          // Idle, whatever the folder holds: at most one write a beat per window.
          const before = windows.map((w) => machine.folder.writes.get(w.file) ?? 0);
          const idleMs = 2 * 60_000;
          await clock.advance(idleMs);
          windows.forEach((w, i) => {
            const writes = (machine.folder.writes.get(w.file) ?? 0) - before[i];
            assert.ok(writes <= idleMs / BEAT_MS + 1, `${w.windowId} wrote ${writes} times in ${idleMs / 60_000} idle minutes`);
          });
          for (const window of [...machine.windows]) machine.close(window);
        },
      ),
      { numRuns: 60 },
    );
  });
});
