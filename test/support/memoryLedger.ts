// The shared ledger of one window in memory (src/sync/hourAccount.ts over a state nobody else
// writes), for tests of the hour's gate and what spends through it. `sent(n, at)` records what
// other windows reserved; two windows sharing one folder are built from SharedStore in the tests
// that are about them (test/unit/sync/hourAccount.test.ts).
import { HourAccount } from '../../src/sync/hourAccount';
import { recordRequest } from '../../src/sync/ledger';
import { emptyState, type SyncState } from '../../src/sync/syncState';

export const KEY_HASH = 'k';

export function memoryLedger(now: () => number = Date.now, state: SyncState = emptyState(), keyHash: () => string | undefined = () => KEY_HASH) {
  let id = 0;
  const account = new HourAccount(
    {
      state,
      window: 'this',
      whole: true,
      update: (change) => (change(state), Promise.resolve()),
      readAll: () => Promise.resolve(true),
      nextEntryId: () => `this.${id++}`,
    },
    keyHash,
    now,
  );
  const sent = (count: number, at = now()) => {
    for (let i = 0; i < count; i++) recordRequest(state, `analytics:${KEY_HASH}`, `other.${id++}`, at);
  };
  return { state, account, sent };
}
