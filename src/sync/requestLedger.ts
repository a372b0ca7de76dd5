// The request ledger every window shares (the `ledger`, `released` and `waits` areas): what the API
// was sent this hour, counted where the platform counts it (the project's agent hour, the
// organisation's preview deployments, the analytics hour through its account: hourAccount.ts), and
// each endpoint family's wait after a 429. The analytics and preview buckets are named by a salted
// hash of the key (never the key); the salt is the install's, agreed on by every window. No vscode
// import.
import { endpointOf, type RequestLogEntry } from '../api';
import { background } from '../util/background';
import { Emitter } from '../util/emitter';
import { HourAccount } from '../hour/hourAccount';
import {
  agentBucket,
  countInHour,
  type Family,
  familyOf,
  keyBucketHash,
  newSalt,
  previewBucket,
  projectOfAgentPath,
  recordRequest,
  timesInHour,
} from '../hour/ledger';
import { recordAnalytics429, recordWait, waitMs } from '../hour/sharedWaits';
import type { SharedStore, SyncLog } from './sharedStore';
import type { SyncState } from './syncState';

/** Where the install keeps the salt of the analytics bucket's name (globalState: every window of the install). */
const SALT_STATE_KEY = 'mintlifyAgent.ledgerSalt';

/** A 429 without Retry-After still keeps every window off that family for this long. */
const DEFAULT_429_WAIT_MS = 60_000;

/** Where the install keeps what every window of it shares outside the files (VS Code's globalState). */
export interface InstallState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** How the ledger reaches the shared store: through the window's glue, which tells the listeners of what changed. */
interface LedgerHost {
  readonly store: SharedStore;
  update(change: (state: SyncState) => void): Promise<void>;
  /** Reads every window's file now; resolves whether the read was whole. */
  readAll(): Promise<boolean>;
}

export class RequestLedger {
  private readonly emitter: Emitter<void>;
  /** Fires when the ledger changed (a request counted, a wait shared, here or elsewhere) or the key's bucket got its name. */
  readonly onDidChange;
  /** The organisation's analytics hour in the ledger, which the hour's gate spends: every request reserved before it is sent (hourAccount.ts). */
  readonly account: HourAccount;
  /** Held in memory only, to name the analytics bucket again if the salt changes; never written. */
  private key: string | undefined;
  private keyHash: string | undefined;
  /** The key and the hash its bucket was last named by: a new hash for the same key moves this window's reservations (hourAccount.ts named). */
  private namedBy: { key: string; hash: string } | undefined;
  private salt: string | undefined;
  /** Why the salt could not be agreed on at the last try, logged once until it can. */
  private saltTrouble: string | undefined;
  /** Agent and preview entries seen stamped ahead of the clock (ledger.ts timesInHour). */
  private readonly ahead = new Map<string, number>();

  constructor(
    private readonly host: LedgerHost,
    /** The install's globalState, where the salt is kept. */
    private readonly install: InstallState,
    private readonly log: SyncLog,
    private readonly now: () => number = Date.now,
  ) {
    this.emitter = new Emitter<void>((error) => log.warn(`a listener of the request ledger failed: ${String(error)}`));
    this.onDidChange = this.emitter.event;
    const store = host.store;
    this.account = new HourAccount(
      {
        get state() {
          return store.state;
        },
        window: store.window,
        get whole() {
          return store.lastWriteOk && store.lastReadWhole;
        },
        update: (change) => this.update(change),
        readAll: () => host.readAll(),
        nextEntryId: () => store.nextEntryId(),
      },
      () => this.keyHash,
      now,
    );
  }

  private get state(): SyncState {
    return this.host.store.state;
  }

  private update(change: (state: SyncState) => void): Promise<void> {
    const written = this.host.update(change);
    this.emitter.fire();
    return written;
  }

  /**
   * Counts an agent or preview request this window sent (an analytics request was reserved before
   * it was sent: hourAccount.ts), and shares a 429's wait with every window.
   */
  record(entry: RequestLogEntry): void {
    if (!entry.sent) return;
    const family = familyOf(entry.path);
    if (!family) return;
    // Not counted in the hour (the endpoint table's `counted`: a job's status read): only a 429's wait is shared.
    if (endpointOf(entry.method, entry.path)?.counted === false) {
      if (entry.status === 429)
        background(
          this.update((state) => recordWait(state.waits, family, this.now() + (entry.error?.retryAfterMs ?? DEFAULT_429_WAIT_MS), this.now())),
          this.log,
          "sharing the API's wait",
        );
      return;
    }
    // An analytics request was counted when it was reserved (hourAccount.ts): only a 429's wait is shared.
    if (family === 'analytics' && entry.status !== 429) return;
    const id = this.host.store.nextEntryId();
    const bucket = family === 'analytics' ? undefined : this.bucketOf(family, entry);
    // This machine's own count when the 429 came: whether it says teammates spend the hour (ledger.ts).
    const own = family === 'analytics' ? this.account.analyticsTimes()?.length : undefined;
    const written = this.update((state) => {
      if (bucket) recordRequest(state, bucket, id, entry.startedAt);
      if (entry.status !== 429) return;
      const now = this.now();
      const until = now + (entry.error?.retryAfterMs ?? DEFAULT_429_WAIT_MS);
      if (family === 'analytics') recordAnalytics429(state.waits, until, own, now);
      else recordWait(state.waits, family, until, now);
    });
    background(written, this.log, 'writing the request ledger');
  }

  /**
   * Where a counted request counts: the project's agent hour, the organisation's preview deployments (a
   * status read is not counted: the endpoint table's `counted`; an analytics request is reserved instead).
   */
  private bucketOf(family: Family, entry: RequestLogEntry): string | undefined {
    if (family === 'agent') return agentBucket(projectOfAgentPath(entry.path) ?? '');
    if (!this.keyHash) return undefined;
    return previewBucket(this.keyHash);
  }

  /** Every window's preview deployments with this key in the `windowMs` before now; undefined until the key's bucket is named. */
  previewDeploymentsWithin(windowMs: number): number | undefined {
    const now = this.now();
    return this.keyHash === undefined
      ? undefined
      : timesInHour(this.state, previewBucket(this.keyHash), now, this.ahead).filter((at) => at > now - windowMs).length;
  }

  /** Every window's sends to the agent for the project in the last hour: jobs created and follow-ups (what the platform counts). */
  agentRequestsThisHour(project: string): number {
    return countInHour(this.state, agentBucket(project), this.now(), this.ahead);
  }

  /**
   * Every window's analytics requests with this key in the last hour; undefined until the key's
   * bucket is named (no key, or the first instant after start): background work counts that as
   * full, and the panel shows no figure rather than a wrong one.
   */
  analyticsRequestsThisHour(): number | undefined {
    return this.account.analyticsTimes()?.length;
  }

  /** How long any window must still leave this endpoint family alone after a 429; 0: go. */
  familyWaitMs(family: Family): number {
    return waitMs(this.state.waits, family, this.now());
  }

  /** Analytics requests are counted per key: a salted hash of it (never the key) names the bucket. */
  async setKey(key: string | undefined): Promise<void> {
    if (key !== this.key) this.keyHash = undefined; // requests meanwhile wait for the new key's bucket
    this.key = key;
    await this.nameKeyBucket();
    this.emitter.fire();
  }

  /** The install's salt, agreed on by every window (the lowest wins) and kept in globalState. */
  async followSalt(): Promise<void> {
    const kept = this.install.get<string>(SALT_STATE_KEY);
    const salt = await this.host.store.adoptSalt(kept, newSalt);
    if (kept !== salt) await this.install.update(SALT_STATE_KEY, salt);
    if (salt === this.salt) return;
    this.salt = salt;
    await this.nameKeyBucket();
  }

  /**
   * After a read of every window's file: another window's lower salt is the one every window
   * converges on; a salt not agreed on yet (its first write failed or passed its deadline) is tried
   * again, so the count is known as soon as the disk lets it be. Never rejects: a failure is logged
   * once, and the next read tries again.
   */
  async followRead(changed: boolean): Promise<void> {
    if (this.salt === undefined || this.state.salt !== this.salt) {
      try {
        await this.followSalt();
        if (this.saltTrouble !== undefined) this.log.info('the analytics bucket is named: the hour’s count is known again');
        this.saltTrouble = undefined;
      } catch (error) {
        const trouble = String(error);
        if (trouble !== this.saltTrouble) this.log.warn(`could not name the analytics bucket yet (${trouble}); trying again with every read`);
        this.saltTrouble = trouble;
      }
    }
    if (changed) this.changed();
  }

  /** Called by the window's glue when a change made around the ledger touched it. */
  changed(): void {
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private async nameKeyBucket(): Promise<void> {
    const { key, salt } = this;
    const hash = key && salt ? keyBucketHash(salt, key) : undefined;
    this.keyHash = hash;
    if (!key || !hash) return;
    const previous = this.namedBy?.key === key ? this.namedBy.hash : undefined;
    this.namedBy = { key, hash };
    await this.account.named(hash, previous);
  }
}
