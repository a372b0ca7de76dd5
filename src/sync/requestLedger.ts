// The request ledger every window shares (the `ledger`, `released` and `waits` areas): what the API
// was sent this hour, counted where the platform counts it (the project's agent hour, the
// organisation's preview deployments, the analytics hour through its account: hourAccount.ts), and
// each endpoint family's wait after a 429. The analytics and preview buckets are named by a salted
// hash of the key (never the key); the salt is the install's, agreed on by every window. No vscode
// import.
import { endpointOf, type RequestLogEntry } from '../api';
import { background } from '../util/background';
import { Emitter } from '../util/emitter';
import { HourAccount } from './hourAccount';
import {
  agentBucket,
  countInHour,
  type Family,
  familyOf,
  keyBucketHash,
  newSalt,
  previewBucket,
  projectOfAgentPath,
  recordAnalytics429,
  recordRequest,
  recordWait,
  timesInHour,
  waitMs,
} from './ledger';
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
export interface LedgerHost {
  readonly store: SharedStore;
  update(change: (state: SyncState) => void): Promise<void>;
  /** Reads every window's file now. */
  readAll(): Promise<void>;
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
  private salt: string | undefined;

  constructor(
    private readonly host: LedgerHost,
    /** The install's globalState, where the salt is kept. */
    private readonly install: InstallState,
    private readonly log: SyncLog,
  ) {
    this.emitter = new Emitter<void>((error) => log.warn(`a listener of the request ledger failed: ${String(error)}`));
    this.onDidChange = this.emitter.event;
    const store = host.store;
    this.account = new HourAccount(
      {
        get state() {
          return store.state;
        },
        update: (change) => this.update(change),
        readAll: () => host.readAll(),
        nextEntryId: () => store.nextEntryId(),
      },
      () => this.keyHash,
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
          this.update((state) => recordWait(state, family, Date.now() + (entry.error?.retryAfterMs ?? DEFAULT_429_WAIT_MS))),
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
      const until = Date.now() + (entry.error?.retryAfterMs ?? DEFAULT_429_WAIT_MS);
      if (family === 'analytics') recordAnalytics429(state, until, own);
      else recordWait(state, family, until);
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
    const now = Date.now();
    return this.keyHash === undefined ? undefined : timesInHour(this.state, previewBucket(this.keyHash), now).filter((at) => at > now - windowMs).length;
  }

  /** Every window's sends to the agent for the project in the last hour: jobs created and follow-ups (what the platform counts). */
  agentRequestsThisHour(project: string): number {
    return countInHour(this.state, agentBucket(project), Date.now());
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
    return waitMs(this.state, family, Date.now());
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

  /** After a read of every window's file: another window's lower salt is the one every window converges on. */
  async followRead(changed: boolean): Promise<void> {
    if (this.salt !== undefined && this.state.salt !== this.salt) await this.followSalt();
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
    const hash = key && salt ? await keyBucketHash(salt, key) : undefined;
    // A newer key or salt may have arrived while this one was hashed.
    if (key !== this.key || salt !== this.salt) return;
    this.keyHash = hash;
    if (hash) await this.account.named(hash);
  }
}
