// This window's replica of the state every window shares, with no vscode: the store over the
// folder's operations (each under a deadline), the parts each feature takes by name (the request
// ledger and the hour's account over it, the poller lease, the kept trends, one handle per area),
// the read loop, the heartbeat and the fallback read, all on one Clock. windowSync.ts puts it in
// VS Code (the folder in globalStorageUri, its watcher, the window's focus); the fault tier
// (test/faults/) and the benchmark's soak run this very class over a folder that fails, stalls and
// lies by a seeded schedule, on a fake clock. Nothing here touches the network.
import { background } from '../util/background';
import { type RetryEnd, retryWithBackoff } from '../util/writeRetry';
import { runBounded } from '../util/bounded';
import { type Clock, systemClock } from '../util/clock';
import { Disposable } from '../util/lifecycle';
import { BEAT_MS } from './lease';
import { type InstallState, RequestLedger } from './requestLedger';
import { type AreaHost, SharedArea } from './sharedArea';
import { SharedStore, type SyncFs, type SyncLog } from './sharedStore';
import { SharedTrends } from './sharedTrends';
import type { AreaName, SyncState } from './syncState';
import { WindowLease } from './windowLease';

/** The longest a change from another window waits when the file watcher stays silent. */
const FALLBACK_READ_MS = 1_000;

/**
 * Longest a file operation on the shared store may take. Reads and writes run one at a time, so a
 * call that never settled would stall every later read of this window: it fails instead, is
 * logged, and the next read or write starts afresh.
 */
const FS_DEADLINE_MS = 5_000;

/**
 * The waits before each new try of a write that failed (writeAgain): about half a minute in all,
 * then it stops. The heartbeat writes the whole file every few seconds anyway; this is the bound on
 * how hard a change the user made (a job sent) is pushed on its own.
 */
const WRITE_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 16_000];

/** The areas of the ledger: a change of one is the ledger's news. */
const LEDGER_AREAS: readonly string[] = ['ledger', 'released', 'waits'] satisfies AreaName[];

interface ReplicaOptions {
  /** The shared folder's operations; each is put under FS_DEADLINE_MS here. */
  fs: SyncFs;
  log: SyncLog;
  /** The install's globalState, where the ledger's salt is kept. */
  install: InstallState;
  /** The API address in force: what the shared state keeps for another one (the trends) is forgotten once the change lasts. */
  apiBaseUrl?: () => string | undefined;
  clock?: Clock;
  /** This window's id in the folder (a fresh random one by default). */
  window?: string;
  focused?: boolean;
}

export class WindowReplica extends Disposable {
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
  /** Ask the Agent to Fix the Build, sent from one window at a time (src/preview). */
  readonly buildFixes: SharedArea<'buildFixes'>;
  /** What the site's search returned for each term checked in the last day, and each job's searches before and after (src/search). */
  readonly searchChecks: SharedArea<'searchChecks'>;
  readonly searchJobs: SharedArea<'searchJobs'>;
  protected readonly log: SyncLog;
  private readonly clock: Clock;
  private readonly areas: readonly SharedArea<AreaName>[];
  private lastRead = Number.NEGATIVE_INFINITY;
  private reading: Promise<boolean> | undefined;
  private readAgain = false;
  private rewriting: Promise<RetryEnd> | undefined;
  /** Why the last read failed, logged once until a read succeeds. */
  private readTrouble: string | undefined;
  /** Stops a writeAgain waiting for its next try when the window closes. */
  private readonly disposal = new AbortController();

  constructor(options: ReplicaOptions) {
    super();
    const clock = (this.clock = options.clock ?? systemClock);
    const now = () => clock.now();
    const log = (this.log = options.log);
    const store = (this.store = new SharedStore(withDeadline(options.fs, clock), options.window ?? randomId(), log, now));
    store.presence.focused = options.focused ?? false;
    this.ledger = new RequestLedger({ store, update: (change) => this.update(change, []), readAll: () => this.read() }, options.install, log, now);
    this.lease = new WindowLease(store, log);
    this.trends = new SharedTrends({ store, update: (change, touched) => this.update(change, touched) }, options.apiBaseUrl ?? (() => undefined), log, now);
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
    this.buildFixes = area('buildFixes');
    this.searchChecks = area('searchChecks');
    this.searchJobs = area('searchJobs');
    this.areas = [this.jobs, this.drafts, this.links, this.reviews, this.previews, this.previewPlans, this.buildFixes, this.searchChecks, this.searchJobs];
    this.register({ dispose: () => [this.ledger, this.lease, ...this.areas].forEach((part) => part.dispose()) });
    // After the constructors (this one's subclass included) have run, and after activate() has returned.
    this.ready = Promise.resolve().then(() => this.start());
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
    this.rewriting ??= retryWithBackoff(() => this.store.write(), {
      delaysMs: WRITE_RETRY_DELAYS_MS,
      signal: this.disposal.signal,
      timers: this.clock,
    }).finally(() => (this.rewriting = undefined));
    return this.rewriting;
  }

  /** Reads every window's file now: resolves once a read that began after this call has ended. */
  async refresh(): Promise<void> {
    await this.read();
  }

  /** The folder changed (its watcher saw a file of the store change): read it. */
  protected folderChanged(): void {
    background(this.read(), this.log, 'reading the shared store');
  }

  /** Sets up what the replica needs before its first read (windowSync.ts: the folder and its watcher). */
  protected async prepare(): Promise<void> {}

  override dispose(): void {
    // Best effort: a window that cannot say goodbye is taken over when its lease expires.
    background(this.store.beat({ closed: true, focused: false }), this.log, 'saying goodbye to the other windows');
    this.disposal.abort();
    super.dispose();
  }

  private async start(): Promise<void> {
    // A window closed before it started leaves no presence behind (its heartbeat would look alive).
    if (this.isDisposed) return;
    await this.prepare();
    if (this.isDisposed) return;
    // The heartbeat keeps the lease; the fallback read bounds the delay when the watcher is silent.
    const beat = this.clock.setInterval(() => background(this.store.beat(), this.log, 'the heartbeat'), BEAT_MS);
    const fallback = this.clock.setInterval(() => {
      if (this.clock.now() - this.lastRead >= FALLBACK_READ_MS) this.folderChanged();
    }, FALLBACK_READ_MS / 2);
    this.register({ dispose: () => (this.clock.clearInterval(beat), this.clock.clearInterval(fallback)) });
    await this.read();
    // `ready` never rejects: a folder that cannot be written leaves this window working on its own
    // (its changes go with the first write that succeeds; the salt is tried again with every read).
    try {
      await this.store.beat();
    } catch (error) {
      this.log.warn(`could not write the shared store: ${String(error)}`);
    }
    await this.ledger.followRead(false);
  }

  /**
   * Reads every window's file (one read at a time; a read asked for meanwhile runs after it).
   * Resolves whether the last read was whole: every file listed and read (see sharedStore.ts).
   */
  private read(): Promise<boolean> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      let whole = false;
      do {
        this.readAgain = false;
        this.lastRead = this.clock.now();
        this.trends.followApiBaseUrl();
        try {
          const read = await this.store.refreshAreas();
          whole = read.whole;
          for (const area of this.areas) if (read.changed.includes(area.name)) area.changed();
          await this.ledger.followRead(read.changed.some((name) => LEDGER_AREAS.includes(name)));
          this.lease.followRead();
          if (this.readTrouble !== undefined) this.log.info('the shared store can be read again');
          this.readTrouble = undefined;
        } catch (error) {
          whole = false;
          const trouble = String(error);
          if (trouble !== this.readTrouble) this.log.warn(`could not read the shared store (${trouble}); trying again with every read`);
          this.readTrouble = trouble;
        }
      } while (this.readAgain && !this.isDisposed);
      this.reading = undefined;
      return whole;
    })();
    return this.reading;
  }
}

/**
 * Every operation of the folder under FS_DEADLINE_MS: one that never settles fails at the deadline,
 * and the next starts afresh. A write that passed its deadline may still land later, over a newer
 * one: until it has settled, a later write of the file is not trusted to be the one on disk (it
 * fails here, and the heartbeat's next write tries again), so nothing counts on a file that a
 * stalled write may yet turn back.
 */
function withDeadline(fs: SyncFs, clock: Clock): SyncFs {
  const bounded = <T>(what: string, operation: () => Promise<T>) => runBounded(operation, { timeoutMs: FS_DEADLINE_MS, what, timers: clock });
  const underway = new Map<string, number>();
  return {
    list: () => bounded('listing the shared store', () => fs.list()),
    read: (name) => bounded(`reading ${name}`, () => fs.read(name)),
    writeAtomic: async (name, text) => {
      const earlier = underway.get(name) ?? 0;
      underway.set(name, earlier + 1);
      const settle = () => underway.set(name, (underway.get(name) ?? 1) - 1);
      await bounded(`writing ${name}`, () => fs.writeAtomic(name, text).finally(settle));
      if (earlier > 0) throw new Error(`an earlier write of ${name} passed its deadline and may still land over this one`);
    },
    rename: (from, to) => bounded(`renaming ${from}`, () => fs.rename(from, to)),
    remove: (name) => bounded(`removing ${name}`, () => fs.remove(name)),
  };
}

function randomId(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16);
}
