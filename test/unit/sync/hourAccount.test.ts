// The account of the organisation's hour (src/sync/hourAccount.ts) under the hour's gate
// (src/sync/hourGate.ts), as the extension wires them (src/sync/windowReplica.ts), in two windows
// sharing one folder. fast-check's scheduler runs every operation of the folder in a random order,
// so the two windows' reservations, reads and releases interleave every way it finds. Faults on top
// of the interleavings are the fault tier's (test/faults/).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Reservation } from '../../../src/api/client';
import type { HourGate, HourGrant } from '../../../src/sync/hourGate';
import { analyticsBucket, BACKGROUND_CEILING, HOURLY_LIMIT, keyBucketHash, recordRequest } from '../../../src/sync/ledger';
import type { SyncFs } from '../../../src/sync/sharedStore';
import { FakeClock } from '../../support/fakeClock';
import { KEY, Machine, type TestWindow } from '../../support/windowsOnOneFolder';

const NOW = Date.parse('2026-11-26T12:00:00Z');

/** Every operation of the folder waits for the scheduler's turn. */
function scheduled(s: fc.Scheduler): (fs: SyncFs) => SyncFs {
  return (fs) => ({
    list: s.scheduleFunction(() => fs.list()),
    read: s.scheduleFunction((name: string) => fs.read(name)),
    writeAtomic: s.scheduleFunction((name: string, text: string) => fs.writeAtomic(name, text)),
    rename: (from, to) => fs.rename(from, to),
    remove: (name) => fs.remove(name),
  });
}

/** A machine whose hour already holds `count` requests, reserved by a window that is still open. */
async function machineThatSpent(count: number): Promise<{ machine: Machine; other: TestWindow }> {
  const machine = new Machine(new FakeClock(NOW));
  const other = machine.open('other');
  await other.ready;
  const hash = keyBucketHash(other.state.salt!, KEY);
  await other.update((state) => {
    for (let i = 0; i < count; i++) recordRequest(state, analyticsBucket(hash), `other.${i}`, NOW - 20 * 60_000);
  });
  return { machine, other };
}

type Holder = 'writer' | 'background' | 'model';
interface Op {
  holder: Holder;
  /** Reservations asked for at once. */
  count: number;
  /** Which of them are never sent (released), by index. */
  unsent: number[];
  /** The action ends before its last reservation is asked for. */
  endEarly: boolean;
}

const op: fc.Arbitrary<Op> = fc.record({
  holder: fc.constantFrom<Holder>('writer', 'background', 'model'),
  count: fc.integer({ min: 1, max: 6 }),
  unsent: fc.array(fc.nat({ max: 5 }), { maxLength: 3 }),
  endEarly: fc.boolean(),
});

interface Given {
  holder: Holder;
  sent: boolean;
}

/** Runs one window's actions in turn, each asking its reservations at once; notes what was given. */
async function act(gate: HourGate, ops: readonly Op[], given: Given[], afterEnd: (Reservation | undefined)[]): Promise<void> {
  for (const { holder, count, unsent, endEarly } of ops) {
    const grant: HourGrant | undefined = holder === 'background' ? gate.background('readers', 1) : gate.granted(count, holder === 'model');
    if (!grant) continue;
    const asked = Array.from({ length: endEarly ? count - 1 : count }, () => grant.reserve());
    const reservations = await Promise.all(asked);
    reservations.forEach((reservation, i) => {
      if (!reservation) return;
      const sent = !unsent.includes(i);
      reservation.end(sent);
      given.push({ holder, sent });
    });
    grant.end();
    afterEnd.push(await grant.reserve());
  }
}

describe('the account of the organisation’s hour, two windows at once (src/sync/hourAccount.ts)', () => {
  it('never reserves past what is left, holds background work and the editor’s AI to the ceiling, ends grants with their action, and frees released slots', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 50, max: HOURLY_LIMIT }),
        fc.array(op, { maxLength: 5 }),
        fc.array(op, { maxLength: 5 }),
        async (s, usedBefore, opsA, opsB) => {
          const { machine } = await machineThatSpent(usedBefore);
          const a = machine.open('a', { wrap: scheduled(s) });
          const b = machine.open('b', { wrap: scheduled(s) });
          const given: Given[] = [];
          const afterEnd: (Reservation | undefined)[] = [];
          await s.waitFor(Promise.all([a.ready, b.ready]));
          await s.waitFor(Promise.all([act(a.gate, opsA, given, afterEnd), act(b.gate, opsB, given, afterEnd)]));
          const sent = given.filter((g) => g.sent);
          assert.ok(sent.length <= HOURLY_LIMIT - usedBefore, `${sent.length} sent with ${HOURLY_LIMIT - usedBefore} left`);
          const unasked = sent.filter((g) => g.holder !== 'writer').length;
          assert.ok(unasked <= Math.max(0, BACKGROUND_CEILING - usedBefore), `${unasked} sent by background work and the editor’s AI past the ceiling`);
          assert.ok(
            afterEnd.every((r) => r === undefined),
            'a grant reserves nothing once its action ended',
          );
          // Once each has read the other's file, both count exactly what was sent: every released slot is free again.
          await s.waitFor(Promise.all([a.store.write(), b.store.write()]));
          await s.waitFor(Promise.all([a.refresh(), b.refresh()]));
          assert.equal(a.gate.used(), usedBefore + sent.length);
          assert.equal(b.gate.used(), usedBefore + sent.length);
          for (const window of [...machine.windows]) machine.close(window);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('with 6 left, two windows spending at once send at most 6 between them', async () => {
    const { machine } = await machineThatSpent(HOURLY_LIMIT - 6);
    const a = machine.open('a');
    const b = machine.open('b');
    await Promise.all([a.ready, b.ready]);
    const grants = [a.gate.granted(6), b.gate.granted(6)];
    const reservations = await Promise.all(grants.flatMap((grant) => Array.from({ length: 6 }, () => grant.reserve())));
    assert.ok(reservations.filter(Boolean).length <= 6);
  });

  it('a reservation asked for while its action ends is released, never sent', async () => {
    const { machine } = await machineThatSpent(0);
    const a = machine.open('a');
    await a.ready;
    const grant = a.gate.granted(3);
    const asked = grant.reserve();
    grant.end();
    assert.equal(await asked, undefined);
    assert.equal(a.gate.used(), 0, 'its slot is free again');
  });

  it('an unknown count (the key’s bucket has no name) holds background work and the editor’s AI closed; a writer’s request is kept and counted once the bucket is named', async () => {
    const machine = new Machine(new FakeClock(NOW));
    const a = machine.open('a');
    await a.ledger.setKey(undefined);
    await a.ready;
    assert.equal(a.gate.used(), undefined);
    assert.equal(a.gate.background('readers', 1), undefined);
    assert.equal(await a.gate.granted(3, true).reserve(), undefined);
    const reservation = await a.gate.granted(1).reserve();
    assert.ok(reservation);
    reservation.end(true);
    await a.ledger.setKey(KEY);
    assert.equal(a.gate.used(), 1);
  });
});
