// This window's end of the shared store, and the composition root of its parts: the folder in
// globalStorageUri (shared by every window of the profile, on the machine that runs the extension
// hosts: desktop, remote and code-server alike), a file watcher on it with a bounded fallback
// re-read, and the heartbeat. Each feature takes the part it uses, by name: the request ledger
// (`ledger`, and the hour's account over it), the poller lease and focus (`lease`), the kept trends
// (`trends`), and one handle per area a feature owns (`jobs`, `drafts`, `links`, `reviews`,
// `previews`, `previewPlans`: sharedArea.ts), each with an event that fires only when its area
// changed (and `searchChecks`, `searchJobs`: src/search). Nothing here touches the network, and nothing runs during activate() but setting up: the
// first read starts right after.
import * as vscode from 'vscode';
import { background } from '../util/background';
import { type RetryEnd, retryWithBackoff } from '../util/backoff';
import { Disposable } from '../util/lifecycle';
import { BEAT_MS } from './lease';
import { RequestLedger } from './requestLedger';
import { type AreaHost, SharedArea } from './sharedArea';
import { SharedStore, type SyncFs, type SyncLog } from './sharedStore';
import { SharedTrends } from './sharedTrends';
import type { AreaName, SyncState } from './syncState';
import { vscodeSyncFs } from './vscodeSyncFs';
import { WindowLease } from './windowLease';

/** The longest a change from another window waits when the file watcher stays silent. */
export const FALLBACK_READ_MS = 1_000;

/**
 * The waits before each new try of a write that failed (writeAgain): about half a minute in all,
 * then it stops. The heartbeat writes the whole file every few seconds anyway; this is the bound on
 * how hard a change the user made (a job sent) is pushed on its own.
 */
export const WRITE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 16_000];

/** The areas of the ledger: a change of one is the ledger's news. */
const LEDGER_AREAS: readonly string[] = ['ledger', 'released', 'waits'] satisfies AreaName[];

export class WindowSync extends Disposable {
  /** The store itself: the tests break or read its file through it; features take the parts below. */
  readonly store: SharedStore;
  /** Resolves once the first read of every window's file is done. */
  readonly ready: Promise<void>;
  /** The request ledger: counts, 429 waits, and the analytics hour's account (requestLedger.ts). */
  readonly ledger: RequestLedger;
  /** Which project this window shows, its focus, and who polls each project (windowLease.ts). */
  readonly lease: WindowLease;
  /** The trend buckets every window keeps (sharedTrends.ts). */
  readonly trends: SharedTrends;
  /** The tracked jobs (src/jobs). */
  readonly jobs: SharedArea<'jobs'>;
  /** What the user typed and has not sent (src/jobs). */
  readonly drafts: SharedArea<'drafts'>;
  /** Which signals each agent job addresses (src/signals). */
  readonly links: SharedArea<'links'>;
  /** The pending reviews of the agent's branches (src/review). */
  readonly reviews: SharedArea<'reviews'>;
  /** The preview deployments of the agent's branches, and the plans that have none (src/preview). */
  readonly previews: SharedArea<'previews'>;
  readonly previewPlans: SharedArea<'previewPlans'>;
  /** What the site's search returned for each term checked in the last day, and each job's searches before and after (src/search). */
  readonly searchChecks: SharedArea<'searchChecks'>;
  readonly searchJobs: SharedArea<'searchJobs'>;
  private readonly areas: readonly SharedArea<AreaName>[];
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
    /** The install's globalState, where the ledger's salt is kept. */
    install: vscode.Memento,
    /** The API address in force: what the shared state keeps for another one (the trends) is forgotten. */
    apiBaseUrl: () => string | undefined = () => undefined,
    fs: SyncFs = vscodeSyncFs(dir),
  ) {
    super();
    const store = (this.store = new SharedStore(fs, randomId(), log));
    store.presence.focused = vscode.window.state.focused;
    this.ledger = new RequestLedger({ store, update: (change) => this.update(change, []), readAll: () => this.read() }, install, log);
    this.lease = new WindowLease(store, log);
    this.trends = new SharedTrends({ store, update: (change, touched) => this.update(change, touched) }, apiBaseUrl, log);
    const host: AreaHost = {
      get state() {
        return store.state;
      },
      clock: store.clock,
      update: (change) => store.update(change),
    };
    const area = <N extends AreaName>(name: N) => new SharedArea(name, host, (error) => log.warn(`a listener of the shared ${name} failed: ${String(error)}`));
    this.jobs = area('jobs');
    this.drafts = area('drafts');
    this.links = area('links');
    this.reviews = area('reviews');
    this.previews = area('previews');
    this.previewPlans = area('previewPlans');
    this.searchChecks = area('searchChecks');
    this.searchJobs = area('searchJobs');
    this.areas = [this.jobs, this.drafts, this.links, this.reviews, this.previews, this.previewPlans, this.searchChecks, this.searchJobs];
    this.register({ dispose: () => [this.ledger, this.lease, ...this.areas].forEach((part) => part.dispose()) });
    // Built in start(), after activate() has returned: the folder, the watcher and the first read are not on its path.
    this.ready = this.start();
  }

  get windowId(): string {
    return this.store.window;
  }

  /** Every area, as this window knows it: read it; each feature changes its own area through its handle. */
  get state(): SyncState {
    return this.store.state;
  }

  /** How many writes of this window's file have succeeded: a caller can tell whether one did since it last looked. */
  get writes(): number {
    return this.store.writes;
  }

  /**
   * Applies a change and tells the listeners of the areas it `touched` (all when undefined: a change
   * made around the handles, the tests' or forgetting another API address's trends; none for the
   * ledger and the trends, whose areas have no handle), both before this returns. The promise is
   * the write, which may still fail (this window keeps the change either way).
   */
  async update(change: (state: SyncState) => void, touched?: readonly AreaName[]): Promise<void> {
    const written = this.store.update(change);
    for (const area of this.areas) if (!touched || touched.includes(area.name)) area.changed();
    if (!touched) this.ledger.changed();
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
    this.register(vscode.window.onDidChangeWindowState((state) => this.lease.setFocused(state.focused)));
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
      await this.ledger.followSalt();
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
        this.trends.followApiBaseUrl();
        try {
          const changed = await this.store.refreshAreas();
          for (const area of this.areas) if (changed.includes(area.name)) area.changed();
          await this.ledger.followRead(changed.some((name) => LEDGER_AREAS.includes(name)));
          this.lease.followRead();
        } catch (error) {
          this.log.warn(`could not read the shared store: ${String(error)}`);
        }
      } while (this.readAgain && !this.isDisposed);
      this.reading = undefined;
    })();
    return this.reading;
  }
}

function randomId(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16);
}
