// The account of the organisation's analytics hour in the shared ledger: every analytics request is
// reserved there before it is sent, and released if it never was. A reservation is written to this
// window's file at once and then every window's file is read back; it stands only if the hour,
// every window's reservations counted, is still within the limit asked for. Since each window writes
// its reservation before it reads the others', of two windows reserving at once the later reader
// sees both: two windows with 6 left cannot send 12 (at worst both step back, and neither sends).
// No vscode import: the window's glue (windowSync.ts) and the tests give it the store.
import { analyticsBucket, backgroundBucket, recordRequest, releaseRequest, TEAMMATES_WAIT, timesInHour } from './ledger';
import type { SyncState } from './syncState';

/** One request's place in the ledger. */
export interface LedgerHold {
  /**
   * The ledger holds it, written and read back with every window's: false when the count is
   * unknown (the key's bucket has no name yet, or this window's file could not be written).
   */
  readonly counted: boolean;
  /** It was never sent: the slot is free again, for every window. */
  release(): void;
}

/** The shared ledger as the hour's gate spends it (WindowSync, or two stores in a test). */
export interface HourLedger {
  /** When each analytics request of the last hour was reserved, every window, oldest first; undefined while the count is unknown. */
  analyticsTimes(): readonly number[] | undefined;
  /** This machine's background work in the last hour (every window of it); undefined while the count is unknown. */
  backgroundTimes(): readonly number[] | undefined;
  /** When the last wait a 429 named ended (or ends), every window's; 0 when none is known. */
  rateLimitedUntil(): number;
  /** The same, of the last 429 that came while this machine's own count was low: teammates spend the hour (ledger.ts TEAMMATES_BELOW); 0 when none. */
  teammatesSeenUntil(): number;
  /**
   * Reserves one analytics request, written at once and read back with every window's: undefined
   * (and released) when the hour, every window's reservations counted, is then past `limit`, or
   * (background work) this machine's background work past `backgroundLimit`.
   */
  reserve(limit: number, backgroundLimit?: number): Promise<LedgerHold | undefined>;
}

export interface AccountStore {
  readonly state: SyncState;
  /** Applies a change in memory at once (before it returns), then writes this window's file. */
  update(change: (state: SyncState) => void): Promise<void>;
  /** Reads every window's file; starts after any write that has ended. */
  readAll(): Promise<void>;
  nextEntryId(): string;
}

export class HourAccount implements HourLedger {
  /** Reservations made while the key's bucket had no name: written to it once it has one. */
  private unnamed = new Map<string, number>();

  constructor(
    private readonly store: AccountStore,
    /** The salted hash that names the key's bucket; undefined while unknown. */
    private readonly keyHash: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  analyticsTimes(): number[] | undefined {
    const hash = this.keyHash();
    return hash === undefined ? undefined : timesInHour(this.store.state, analyticsBucket(hash), this.now());
  }

  backgroundTimes(): number[] | undefined {
    const hash = this.keyHash();
    return hash === undefined ? undefined : timesInHour(this.store.state, backgroundBucket(hash), this.now());
  }

  rateLimitedUntil(): number {
    return this.store.state.waits.analytics ?? 0;
  }

  teammatesSeenUntil(): number {
    return this.store.state.waits[TEAMMATES_WAIT] ?? 0;
  }

  async reserve(limit: number, backgroundLimit?: number): Promise<LedgerHold | undefined> {
    const id = this.store.nextEntryId();
    const at = this.now();
    const hash = this.keyHash();
    if (hash === undefined) {
      this.unnamed.set(id, at);
      return { counted: false, release: () => this.unnamed.delete(id) };
    }
    const bucket = analyticsBucket(hash);
    // Background work is also counted in this machine's own bucket, for its share of the hour.
    const buckets = backgroundLimit === undefined ? [bucket] : [bucket, backgroundBucket(hash)];
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      // Another window learns of it with this window's next write; this window at once.
      void this.store.update((state) => buckets.forEach((b) => releaseRequest(state, b, id, at))).catch(() => undefined);
    };
    // In memory before the first await: this window's next reservation already counts it.
    const written = this.store.update((state) => buckets.forEach((b) => recordRequest(state, b, id, at)));
    try {
      await written;
      await this.store.readAll();
    } catch {
      return { counted: false, release };
    }
    const over = (b: string, most: number) => timesInHour(this.store.state, b, this.now()).length > most;
    if (over(bucket, limit) || (backgroundLimit !== undefined && over(backgroundBucket(hash), backgroundLimit))) {
      release();
      return undefined;
    }
    return { counted: true, release };
  }

  /** The key's bucket has a name now: the reservations made before are written to it. */
  async named(hash: string): Promise<void> {
    if (!this.unnamed.size) return;
    const pending = [...this.unnamed];
    this.unnamed = new Map();
    await this.store.update((state) => pending.forEach(([id, at]) => recordRequest(state, analyticsBucket(hash), id, at)));
  }
}
