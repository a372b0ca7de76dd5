// This window's end of the shared store: the folder in globalStorageUri (shared by every window of
// the profile, on the machine that runs the extension hosts: desktop, remote and code-server
// alike), a file watcher on it with a bounded fallback re-read, the heartbeat that keeps the
// poller lease, focus, and the request ledger. Nothing here touches the network, and nothing runs
// during activate() but setting up: the first read starts right after.
import * as vscode from 'vscode';
import { endpointOf, type RequestLogEntry } from '../api';
import { background } from '../util/background';
import { type RetryEnd, retryWithBackoff } from '../util/backoff';
import { Disposable } from '../util/lifecycle';
import { HOUR_MS } from '../util/clock';
import { HourAccount, type LedgerHold } from './hourAccount';
import { BEAT_MS } from './lease';
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
  recordWait,
  timesInHour,
  waitMs,
} from './ledger';
import { SharedStore, type SyncFs, type SyncLog } from './sharedStore';
import { keepTrends, type OpenTrendFigures, pruneState, type SyncState, type TrendFigures, useTrends } from './syncState';
import { trendScope } from './trendBounds';
import { vscodeSyncFs } from './vscodeSyncFs';

/** Where the install keeps the salt of the analytics bucket's name (globalState: every window of the install). */
const SALT_STATE_KEY = 'mintlifyAgent.ledgerSalt';

/** A draw's use of a kept trend bucket is written at most this often (it orders what goes first past a bound). */
const TREND_USE_EVERY_MS = HOUR_MS;

/** The longest a change from another window waits when the file watcher stays silent. */
export const FALLBACK_READ_MS = 1_000;
/** A 429 without Retry-After still keeps every window off that family for this long. */
const DEFAULT_429_WAIT_MS = 60_000;

/**
 * The waits before each new try of a write that failed (writeAgain): about half a minute in all,
 * then it stops. The heartbeat writes the whole file every few seconds anyway; this is the bound on
 * how hard a change the user made (a job sent) is pushed on its own.
 */
export const WRITE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 16_000];

export class WindowSync extends Disposable {
  readonly store: SharedStore;
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when another window's change arrived, or the lead, focus or ledger changed. */
  readonly onDidChange = this.changeEmitter.event;
  /** Resolves once the first read of every window's file is done. */
  readonly ready: Promise<void>;
  private keyHash: string | undefined;
  /** The organisation's analytics hour in the shared ledger: every request reserved before it is sent (hourAccount.ts). */
  readonly account: HourAccount;
  /** Held in memory only, to name the analytics bucket again if the salt changes; never written. */
  private key: string | undefined;
  private salt: string | undefined;
  private lastRead = 0;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private rewriting: Promise<RetryEnd> | undefined;
  /** Stops a writeAgain waiting for its next try when the window closes. */
  private readonly disposal = new AbortController();

  constructor(
    /** The shared store's folder (the tests break it to see a write fail). */
    readonly dir: vscode.Uri,
    private readonly log: SyncLog,
    /** The install's globalState, where the salt is kept. */
    private readonly install: vscode.Memento,
    /** The API address in force: what the shared state keeps for another one (the trends) is forgotten. */
    private readonly apiBaseUrl: () => string | undefined = () => undefined,
    fs: SyncFs = vscodeSyncFs(dir),
  ) {
    super();
    this.store = new SharedStore(fs, randomId(), log);
    this.store.apiBaseUrl = apiBaseUrl();
    this.store.presence.focused = vscode.window.state.focused;
    const store = this.store;
    this.account = new HourAccount(
      {
        get state() {
          return store.state;
        },
        update: (change) => this.update(change),
        readAll: () => this.read(),
        nextEntryId: () => store.nextEntryId(),
      },
      () => this.keyHash,
    );
    // Built in start(), after activate() has returned: the folder, the watcher and the first read are not on its path.
    this.ready = this.start();
  }

  get windowId(): string {
    return this.store.window;
  }

  get state(): SyncState {
    return this.store.state;
  }

  /**
   * Applies a change of this window and tells this window's listeners, both before this returns;
   * the promise is the write, which may still fail (this window keeps the change either way).
   */
  async update(change: (state: SyncState) => void): Promise<void> {
    const written = this.store.update(change);
    this.changeEmitter.fire();
    await written;
  }

  /**
   * After a failed write: writes this window's file again, with a bounded backoff. The file is
   * written whole, so one success carries every change made meanwhile. One run at a time (a caller
   * while it runs joins it); it rejects with the last error when it gives up.
   */
  writeAgain(): Promise<RetryEnd> {
    this.rewriting ??= retryWithBackoff(() => this.store.write(), { delaysMs: WRITE_RETRY_DELAYS_MS, signal: this.disposal.signal }).finally(
      () => (this.rewriting = undefined),
    );
    return this.rewriting;
  }

  setProject(project: string | undefined): void {
    if (this.store.presence.project === (project ?? null)) return;
    background(this.store.beat({ project: project ?? null }), this.log, 'telling the other windows of the project');
    this.changeEmitter.fire();
  }

  isLeader(project: string): boolean {
    return this.store.lease.leaderOf(project, this.store.presence) === this.windowId;
  }

  projectFocused(project: string): boolean {
    return this.store.lease.anyFocused(project, this.store.presence);
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
    const id = this.store.nextEntryId();
    const bucket = family === 'analytics' ? undefined : this.bucketOf(family, entry);
    const written = this.update((state) => {
      if (bucket) recordRequest(state, bucket, id, entry.startedAt);
      if (entry.status === 429) recordWait(state, family, Date.now() + (entry.error?.retryAfterMs ?? DEFAULT_429_WAIT_MS));
    });
    background(written, this.log, 'writing the request ledger');
  }

  /** Where a counted request counts: the project's agent hour, the organisation's preview deployments (a status read is not counted: the endpoint table's `counted`; an analytics request is reserved instead). */
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

  /** The settled trend buckets every window has kept for the project, from the API in force (trendBuckets.ts). */
  keptTrends(project: string): Readonly<Record<string, TrendFigures>> {
    return this.state.trends[this.trendScope(project)] ?? {};
  }

  /** The buckets that include today, as the last window to fetch each found them, with when. */
  openTrends(project: string): Readonly<Record<string, OpenTrendFigures>> {
    return this.state.openTrends[this.trendScope(project)] ?? {};
  }

  /** Keeps trend buckets for every window, settled and open; a failed write leaves them in this window and is logged. */
  keepTrends(project: string, settled: Record<string, TrendFigures>, open?: Record<string, OpenTrendFigures>): void {
    const scope = this.trendScope(project);
    background(
      this.update((state) => keepTrends(state, scope, settled, open)),
      this.log,
      "keeping the trend's buckets",
    );
  }

  /** Notes that a draw took these kept buckets: of the kinds bounded by use, the least recently used go first (trendBounds.ts). */
  useTrends(project: string, keys: readonly string[]): void {
    const scope = this.trendScope(project);
    if (!useTrends(this.state, scope, keys, Date.now(), TREND_USE_EVERY_MS)) return;
    background(this.store.write(), this.log, 'noting the trend buckets drawn');
  }

  /** The trend areas' key for the project at the API in force. */
  private trendScope(project: string): string {
    return trendScope(project, this.followApiBaseUrl());
  }

  /** The API address in force; when it changed, what the shared state kept for the other one is forgotten (and every read forgets it again). */
  private followApiBaseUrl(): string | undefined {
    const apiBaseUrl = this.apiBaseUrl();
    if (apiBaseUrl !== this.store.apiBaseUrl) {
      this.store.apiBaseUrl = apiBaseUrl;
      background(
        this.update((state) => pruneState(state, { now: Date.now(), apiBaseUrl })),
        this.log,
        'forgetting the trends of the other API address',
      );
    }
    return apiBaseUrl;
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
    return this.analyticsTimes()?.length;
  }

  /** When each of them was sent, oldest first (the hour's gate reads them: hourGate.ts). */
  analyticsTimes(): number[] | undefined {
    return this.account.analyticsTimes();
  }

  /** This machine's background analytics requests in the last hour (hourAccount.ts). */
  backgroundTimes(): number[] | undefined {
    return this.account.backgroundTimes();
  }

  /** When the last 429's wait for analytics ended or ends (every window's). */
  rateLimitedUntil(): number {
    return this.account.rateLimitedUntil();
  }

  /** Reserves one analytics request in the shared ledger before it is sent (hourAccount.ts). */
  reserve(limit: number, backgroundLimit?: number): Promise<LedgerHold | undefined> {
    return this.account.reserve(limit, backgroundLimit);
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
    this.changeEmitter.fire();
  }

  /** The install's salt, agreed on by every window (the lowest wins) and kept in globalState. */
  private async followSalt(): Promise<void> {
    const kept = this.install.get<string>(SALT_STATE_KEY);
    const salt = await this.store.adoptSalt(kept, newSalt);
    if (kept !== salt) await this.install.update(SALT_STATE_KEY, salt);
    if (salt === this.salt) return;
    this.salt = salt;
    await this.nameKeyBucket();
  }

  private async nameKeyBucket(): Promise<void> {
    const { key, salt } = this;
    const hash = key && salt ? await keyBucketHash(salt, key) : undefined;
    // A newer key or salt may have arrived while this one was hashed.
    if (key !== this.key || salt !== this.salt) return;
    this.keyHash = hash;
    if (hash) await this.account.named(hash);
  }

  override dispose(): void {
    // Best effort: a window that cannot say goodbye is taken over when its lease expires.
    background(this.store.beat({ closed: true, focused: false }), this.log, 'saying goodbye to the other windows');
    this.disposal.abort();
    super.dispose();
  }

  private async start(): Promise<void> {
    // A window closed before it started leaves no presence behind (its heartbeat would look alive).
    if (this.isDisposed) return;
    try {
      await vscode.workspace.fs.createDirectory(this.dir);
    } catch (error) {
      this.log.warn(`could not create the shared store folder: ${String(error)}`);
    }
    if (this.isDisposed) return;
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.dir, 'w-*.json')));
    const onEvent = () => background(this.read(), this.log, 'reading the shared store');
    this.register(watcher.onDidChange(onEvent));
    this.register(watcher.onDidCreate(onEvent));
    this.register(watcher.onDidDelete(onEvent));
    this.register(
      vscode.window.onDidChangeWindowState((state) => {
        background(this.store.beat({ focused: state.focused }), this.log, 'sharing the window focus');
        this.changeEmitter.fire();
      }),
    );
    // The heartbeat keeps the lease; the fallback read bounds the delay when the watcher is silent.
    const beat = setInterval(() => background(this.store.beat(), this.log, 'the heartbeat'), BEAT_MS);
    const fallback = setInterval(() => {
      if (Date.now() - this.lastRead >= FALLBACK_READ_MS) background(this.read(), this.log, 'reading the shared store');
    }, FALLBACK_READ_MS / 2);
    this.register({ dispose: () => (clearInterval(beat), clearInterval(fallback)) });
    await this.read();
    // `ready` never rejects: a folder that cannot be written leaves this window working on its own.
    try {
      await this.store.beat();
    } catch (error) {
      this.log.warn(`could not write the shared store: ${String(error)}`);
    }
    try {
      await this.followSalt();
    } catch (error) {
      this.log.warn(`could not name the analytics bucket: ${String(error)}`);
    }
  }

  /** Reads every window's file now: resolves once a read that began after this call has ended. */
  refresh(): Promise<void> {
    return this.read();
  }

  /** Reads every window's file (one read at a time; a read asked for meanwhile runs after it). */
  private read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        this.lastRead = Date.now();
        const wasLeaderOf = this.leaders();
        this.followApiBaseUrl();
        try {
          const changed = await this.store.refresh();
          // Another window's lower salt: the one every window converges on.
          if (this.salt !== undefined && this.store.state.salt !== this.salt) await this.followSalt();
          if (changed || this.leaders() !== wasLeaderOf) this.changeEmitter.fire();
        } catch (error) {
          this.log.warn(`could not read the shared store: ${String(error)}`);
        }
      } while (this.readAgain && !this.isDisposed);
      this.reading = undefined;
    })();
    return this.reading;
  }

  /** Who leads this window's project and whether it is focused: a change is news. */
  private leaders(): string {
    const project = this.store.presence.project;
    return project ? `${this.store.lease.leaderOf(project, this.store.presence)}|${String(this.projectFocused(project))}` : '';
  }
}

function randomId(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16);
}
