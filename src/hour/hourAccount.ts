// The account of the organisation's analytics hour in the shared ledger: every analytics request is
// reserved there before it is sent, and released if it never was. A reservation is written to this
// window's file at once and then every window's file is read back; it stands only if the hour,
// every window's reservations counted, is still within the limit asked for.
//
// The promise, and when it holds: two windows of this machine with 6 left send at most 6, because
// each writes its reservation before it reads the others', so of two reserving at once the later
// reader sees both (at worst both step back, and neither sends). That needs the write and the read
// back to succeed. When either fails or passes its deadline (a full or slow disk, a file that cannot
// be read), the reservation is not counted: background work and the editor's AI are refused, and a
// writer's request still goes (they asked for it) with a warning that the count is uncertain
// (hourGate.ts). What this window reserved meanwhile stays in its state and reaches every window with
// the next write that succeeds; the count is known again at the next whole read. Teammates on other
// machines are not in the ledger at all: their spend shows only as 429s.
// No vscode import: the window's glue (windowReplica.ts) and the tests give it the store.
import { analyticsBucket, type HourAreas, backgroundBucket, recordRequest, releaseRequest, timesInHour } from './ledger';
import { TEAMMATES_WAIT, waitUntil } from './sharedWaits';

/** One request's place in the ledger. */
interface LedgerHold {
  /**
   * The ledger holds it, written and read back with every window's: false when the count is
   * unknown (the key's bucket has no name yet) or uncertain (this window's file could not be
   * written, or every window's file could not be read back).
   */
  readonly counted: boolean;
  /** It was never sent: the slot is free again, for every window. */
  release(): void;
}

/** The shared ledger as the hour's gate spends it (the window's RequestLedger, or stores in a test). */
export interface HourLedger {
  /**
   * When each analytics request of the last hour was reserved, every window's as far as this window
   * knows, oldest first; undefined while the key's bucket has no name. While not `certain()` it is
   * what this window last read whole and reserved since: a lower bound.
   */
  analyticsTimes(): readonly number[] | undefined;
  /** This machine's background work in the last hour (every window of it); undefined while the key's bucket has no name. */
  backgroundTimes(): readonly number[] | undefined;
  /** Whether the count is every window's: this window's last write succeeded and its last read of every file was whole. */
  certain(): boolean;
  /** When the last wait a 429 named ended (or ends), every window's; 0 when none is known. */
  rateLimitedUntil(): number;
  /** The same, of the last 429 that came while this machine's own count was low: teammates spend the hour (sharedWaits.ts TEAMMATES_BELOW); 0 when none. */
  teammatesSeenUntil(): number;
  /**
   * Reserves one analytics request, written at once and read back with every window's: undefined
   * (and released) when the hour, every window's reservations counted, is then past `limit`, or
   * (background work) this machine's background work past `backgroundLimit`.
   */
  reserve(limit: number, backgroundLimit?: number): Promise<LedgerHold | undefined>;
}

interface AccountStore {
  readonly state: HourAreas;
  /** This window's id: the ledger entries it wrote start with it. */
  readonly window: string;
  /** Whether this window's last write succeeded and its last read of every window's file was whole. */
  readonly whole: boolean;
  /** Applies a change in memory at once (before it returns), then writes this window's file. */
  update(change: (state: HourAreas) => void): Promise<void>;
  /** Reads every window's file; starts after any write that has ended; resolves whether the read was whole. */
  readAll(): Promise<boolean>;
  nextEntryId(): string;
}

export class HourAccount implements HourLedger {
  /** Reservations made while the key's bucket had no name: written to it once it has one. */
  private unnamed = new Map<string, number>();
  /** Entries seen stamped ahead of the clock, and when (ledger.ts timesInHour). */
  private readonly ahead = new Map<string, number>();

  constructor(
    private readonly store: AccountStore,
    /** The salted hash that names the key's bucket; undefined while unknown. */
    private readonly keyHash: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  analyticsTimes(): number[] | undefined {
    const hash = this.keyHash();
    return hash === undefined ? undefined : timesInHour(this.store.state, analyticsBucket(hash), this.now(), this.ahead);
  }

  backgroundTimes(): number[] | undefined {
    const hash = this.keyHash();
    return hash === undefined ? undefined : timesInHour(this.store.state, backgroundBucket(hash), this.now(), this.ahead);
  }

  certain(): boolean {
    return this.keyHash() !== undefined && this.store.whole;
  }

  rateLimitedUntil(): number {
    return waitUntil(this.store.state.waits, 'analytics', this.now());
  }

  teammatesSeenUntil(): number {
    return waitUntil(this.store.state.waits, TEAMMATES_WAIT, this.now());
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
    let whole: boolean;
    try {
      await written;
      whole = await this.store.readAll();
    } catch {
      whole = false;
    }
    const over = (b: string, most: number) => timesInHour(this.store.state, b, this.now(), this.ahead).length > most;
    // What is known is already too much: refused whether or not the count is whole.
    if (over(bucket, limit) || (backgroundLimit !== undefined && over(backgroundBucket(hash), backgroundLimit))) {
      release();
      return undefined;
    }
    return { counted: whole, release };
  }

  /**
   * The key's bucket has a name now: the reservations made before are written to it. When the name
   * changed for the same key (the windows agreed on another salt), this window's reservations of the
   * hour move with it, so the count does not drop.
   */
  async named(hash: string, previous?: string): Promise<void> {
    const pending = [...this.unnamed];
    this.unnamed = new Map();
    const moved: [string, string, number][] = [];
    if (previous !== undefined && previous !== hash) {
      const mine = `${this.store.window}.`;
      for (const [from, to] of [
        [analyticsBucket(previous), analyticsBucket(hash)],
        [backgroundBucket(previous), backgroundBucket(hash)],
      ]) {
        const released = this.store.state.released[from] ?? {};
        for (const [id, at] of Object.entries(this.store.state.ledger[from] ?? {}))
          if (id.startsWith(mine) && released[id] === undefined) moved.push([to, id, at]);
      }
    }
    if (!pending.length && !moved.length) return;
    await this.store.update((state) => {
      pending.forEach(([id, at]) => recordRequest(state, analyticsBucket(hash), id, at));
      moved.forEach(([bucket, id, at]) => recordRequest(state, bucket, id, at));
    });
  }
}
