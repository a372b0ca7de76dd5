// The account of the organisation's hour (src/sync/hourAccount.ts) under the hour's gate
// (src/sync/hourGate.ts), in two windows sharing one shared-store folder (SharedStore over an
// in-memory folder). fast-check's scheduler runs every read and write of the folder in a random
// order, so the two windows' reservations, reads and releases interleave every way it finds.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Reservation } from '../../../src/api/client';
import { HourAccount } from '../../../src/sync/hourAccount';
import { HourGate, type HourGrant } from '../../../src/sync/hourGate';
import { analyticsBucket, BACKGROUND_CEILING, HOURLY_LIMIT, recordRequest } from '../../../src/sync/ledger';
import { SharedStore, type SyncFs } from '../../../src/sync/sharedStore';
import { memoryFs } from '../../support/memorySyncFs';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const l10n = { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) } as never;
const log = { info: () => undefined, warn: () => undefined };
const ui = { showMessage: async (_level: string, _message: string, ...actions: string[]) => actions[0] };

/** Every operation of the folder waits for the scheduler's turn. */
function scheduled(fs: SyncFs, s: fc.Scheduler): SyncFs {
  return {
    list: s.scheduleFunction(() => fs.list()),
    read: s.scheduleFunction((name: string) => fs.read(name)),
    writeAtomic: s.scheduleFunction((name: string, text: string) => fs.writeAtomic(name, text)),
    rename: (from, to) => fs.rename(from, to),
    remove: (name) => fs.remove(name),
  };
}

/** A window: its store on the shared folder, its account and its gate. */
function windowOn(fs: SyncFs, id: string, keyHash: () => string | undefined = () => 'k') {
  const store = new SharedStore(fs, id, log, () => NOW);
  const account = new HourAccount(
    {
      get state() {
        return store.state;
      },
      update: (change) => store.update(change),
      readAll: async () => void (await store.refresh()),
      nextEntryId: () => store.nextEntryId(),
    },
    keyHash,
    () => NOW,
  );
  return { store, account, gate: new HourGate(account, ui, l10n, () => NOW) };
}

/** What another machine reserved before: a third window's file. */
async function spentBefore(files: Map<string, string>, count: number): Promise<void> {
  const other = new SharedStore(memoryFs(files), 'other', log, () => NOW);
  for (let i = 0; i < count; i++) recordRequest(other.state, analyticsBucket('k'), `other.${i}`, NOW - 20 * 60_000);
  await other.write();
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
          const files = new Map<string, string>();
          await spentBefore(files, usedBefore);
          const fs = scheduled(memoryFs(files), s);
          const a = windowOn(fs, 'a');
          const b = windowOn(fs, 'b');
          const given: Given[] = [];
          const afterEnd: (Reservation | undefined)[] = [];
          await s.waitFor(Promise.all([a.store.refresh(), b.store.refresh()]));
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
          await s.waitFor(Promise.all([a.store.refresh(), b.store.refresh()]));
          assert.equal(a.gate.used(), usedBefore + sent.length);
          assert.equal(b.gate.used(), usedBefore + sent.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('with 6 left, two windows spending at once send at most 6 between them', async () => {
    const files = new Map<string, string>();
    await spentBefore(files, HOURLY_LIMIT - 6);
    const a = windowOn(memoryFs(files), 'a');
    const b = windowOn(memoryFs(files), 'b');
    await Promise.all([a.store.refresh(), b.store.refresh()]);
    const grants = [a.gate.granted(6), b.gate.granted(6)];
    const reservations = await Promise.all(grants.flatMap((grant) => Array.from({ length: 6 }, () => grant.reserve())));
    assert.ok(reservations.filter(Boolean).length <= 6);
  });

  it('a reservation asked for while its action ends is released, never sent', async () => {
    const a = windowOn(memoryFs(), 'a');
    const grant = a.gate.granted(3);
    const asked = grant.reserve();
    grant.end();
    assert.equal(await asked, undefined);
    assert.equal(a.gate.used(), 0, 'its slot is free again');
  });

  it('an unknown count (the key’s bucket has no name) holds background work and the editor’s AI closed; a writer’s request is kept and counted once the bucket is named', async () => {
    const named: { hash?: string } = {};
    const a = windowOn(memoryFs(), 'a', () => named.hash);
    assert.equal(a.gate.used(), undefined);
    assert.equal(a.gate.background('readers', 1), undefined);
    assert.equal(await a.gate.granted(3, true).reserve(), undefined);
    const reservation = await a.gate.granted(1).reserve();
    assert.ok(reservation);
    reservation.end(true);
    named.hash = 'k';
    await a.account.named('k');
    assert.equal(a.gate.used(), 1);
  });
});
