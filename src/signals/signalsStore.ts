// The one signals snapshot of a project in this window: read from a file every window of the
// profile shares (globalStorageUri/signals), so it survives reloads and a fetch in one window
// serves them all; fetched when the writer asks, or in the background at most once an hour and
// only inside the shared ledger's background ceiling and this window's share of it.
import * as vscode from 'vscode';
import { type ApiClient, DEFAULT_BASE_URL, type Grant } from '../api';
import type { Logger } from '../log';
import type { HourGate } from '../hour/hourGate';
import { HOUR_MS } from '../util/clock';
import { writeUriAtomically } from '../util/safeWrite';
import { background } from '../util/background';
import { Disposable } from '../util/lifecycle';
import { currentRange, fetchSnapshot, parseStoredSnapshot, type SignalsSnapshot } from './snapshot';

/**
 * The background refresh runs at most once a day: the last 30 days change little in an hour, and a team of
 * ten refreshing hourly would spend the organisation's hour (Fetch Reader Signals fetches whenever asked).
 */
export const BACKGROUND_EVERY_MS = 24 * HOUR_MS;
/** What a snapshot is assumed to cost before one has been fetched (the default site takes 10). */
const FIRST_ESTIMATE = 12;

interface SignalsStoreDeps {
  api: ApiClient;
  projectId: () => string | undefined;
  storageDir: vscode.Uri;
  /** The organisation's analytics hour: a background refresh is held to its ceiling and to `windowShare`. */
  gate: Pick<HourGate, 'background'>;
  /** This window's share of the background ceiling, from the setting. */
  windowShare: () => number;
  log: Logger;
  now?: () => number;
  /** The path the docs site is served under (the setting), read off the paths the API reports. */
  basePath?: () => string;
  /** The API address in force: a snapshot kept from another one is not this one's (it is never shown, and the next fetch replaces it). */
  apiBaseUrl?: () => string;
}

type RefreshOutcome = { kind: 'fetched'; snapshot: SignalsSnapshot } | { kind: 'skipped'; reason: 'noProject' | 'fresh' | 'notGranted' | 'busy' };

export class SignalsStore extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  private snapshot: SignalsSnapshot | undefined;
  private loadedFor: string | undefined;
  private inFlight: Promise<RefreshOutcome> | undefined;
  /** The fetch on its way is background work: a writer's ask does not join it. */
  private inFlightBackground = false;
  private readonly lifetime = new AbortController();
  /** What load() last found shown, so it can tell when that changed without a new read (another API address). */
  private shown: SignalsSnapshot | undefined;
  /** Bumped by forget() and each fetch, so a read that started before cannot bring back what they replaced. */
  private generation = 0;

  constructor(private readonly deps: SignalsStoreDeps) {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(deps.storageDir, '*.json')));
    const reread = () => background(this.load(true), deps.log, 'reading the kept signals');
    this.register(watcher.onDidChange(reread));
    this.register(watcher.onDidCreate(reread));
    this.register(vscode.window.onDidChangeWindowState((state) => state.focused && reread()));
    this.register({ dispose: () => this.lifetime.abort() });
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The kept snapshot of the configured project from the API in force, however old; never a request. */
  current(): SignalsSnapshot | undefined {
    const projectId = this.deps.projectId();
    return projectId && this.snapshot?.projectId === projectId && this.fromThisApi(this.snapshot) ? this.snapshot : undefined;
  }

  /** A snapshot kept without its address (earlier versions) counts as the default address's. */
  private fromThisApi(snapshot: SignalsSnapshot): boolean {
    const apiBaseUrl = this.deps.apiBaseUrl?.();
    return apiBaseUrl === undefined || (snapshot.apiBaseUrl ?? DEFAULT_BASE_URL) === apiBaseUrl;
  }

  /** Reads the shared file (once per project unless `again`); no request. */
  async load(again = false): Promise<SignalsSnapshot | undefined> {
    const projectId = this.deps.projectId();
    if (!projectId) return undefined;
    if (!again && this.loadedFor === projectId) return this.current();
    // Another project: what is shown changes even when it has nothing kept.
    if (this.loadedFor !== projectId) queueMicrotask(() => this.emitter.fire());
    this.loadedFor = projectId;
    const generation = this.generation;
    try {
      const bytes = await vscode.workspace.fs.readFile(this.fileOf(projectId));
      const stored = parseStoredSnapshot(JSON.parse(new TextDecoder().decode(bytes)));
      if (
        generation === this.generation &&
        stored &&
        stored.projectId === projectId &&
        this.fromThisApi(stored) &&
        stored.fetchedAt !== this.snapshot?.fetchedAt
      ) {
        this.snapshot = stored;
        this.emitter.fire();
      }
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound'))
        this.deps.log.warn(`signals: could not read the kept snapshot: ${String(error)}`);
    }
    // Another API address hides what was shown, though nothing new was read.
    if (this.current() !== this.shown) this.emitter.fire();
    this.shown = this.current();
    return this.current();
  }

  /**
   * Fetches a snapshot: with the `grant` the writer's ask got from the hour's gate (what it did not
   * reach is cut short), or `background`: held to the gate's ceiling and this window's share, and
   * only when the kept one is an hour old. One fetch at a time: a second ask joins the one on its
   * way, except that a writer's never joins background work (held to the background's limits, it
   * could end cut short): it waits for it, takes what it fetched, and else fetches with its own grant.
   */
  refresh(how: { grant: Grant } | 'background'): Promise<RefreshOutcome> {
    const pending = this.inFlight;
    if (pending && how !== 'background' && this.inFlightBackground) {
      const own = () => this.refresh(how);
      return pending.then((outcome) => (outcome.kind === 'fetched' ? outcome : own()), own);
    }
    if (!pending) {
      this.inFlightBackground = how === 'background';
      this.inFlight = this.fetch(how).finally(() => (this.inFlight = undefined));
    }
    return this.inFlight!;
  }

  /** Whether a background refresh is due: no snapshot, or one older than a day. */
  isStale(): boolean {
    const snapshot = this.current();
    return !snapshot || this.now() - Date.parse(snapshot.fetchedAt) >= BACKGROUND_EVERY_MS;
  }

  private async fetch(how: { grant: Grant } | 'background'): Promise<RefreshOutcome> {
    const projectId = this.deps.projectId();
    if (!projectId) return { kind: 'skipped', reason: 'noProject' };
    await this.load();
    const background = how === 'background';
    if (background && !this.isStale()) return { kind: 'skipped', reason: 'fresh' };
    const estimate = this.current()?.requests ?? FIRST_ESTIMATE;
    const grant = background ? this.deps.gate.background('signals', estimate, this.deps.windowShare()) : how.grant;
    if (!grant) {
      this.deps.log.info(`signals: background refresh skipped, ${estimate} request(s) would pass the background ceiling or this window's share`);
      return { kind: 'skipped', reason: 'notGranted' };
    }
    const range = currentRange();
    this.deps.log.info(`signals: fetching ${range.dateFrom}..${range.dateTo} (${background ? 'background' : 'asked'})`);
    const snapshot = await fetchSnapshot(this.deps.api, projectId, range, {
      signal: this.lifetime.signal,
      now: () => this.now(),
      grant,
      // A background refresh stops rather than pass the ceiling half-way (nothing is kept then);
      // the writer's keeps what fit in its grant, the rest cut short.
      partial: !background,
      basePath: this.deps.basePath?.(),
    });
    this.deps.log.info(`signals: ${snapshot.requests} request(s) (the page sizes allow no fewer than ${snapshot.minimum})`);
    // A grant that gave nothing read nothing: the kept snapshot, if any, stays.
    if (snapshot.requests === 0) return { kind: 'skipped', reason: 'notGranted' };
    const apiBaseUrl = this.deps.apiBaseUrl?.();
    if (apiBaseUrl !== undefined) snapshot.apiBaseUrl = apiBaseUrl;
    this.generation++;
    this.snapshot = snapshot;
    this.loadedFor = projectId;
    await this.save(snapshot);
    this.emitter.fire();
    return { kind: 'fetched', snapshot };
  }

  private async save(snapshot: SignalsSnapshot): Promise<void> {
    try {
      await vscode.workspace.fs.createDirectory(this.deps.storageDir);
      // Every window writes this file: safely (util/atomicWrite.ts), so another window reading it meanwhile sees the old snapshot or the new one, whole.
      await writeUriAtomically(this.fileOf(snapshot.projectId), JSON.stringify(snapshot));
    } catch (error) {
      this.deps.log.warn(`signals: could not keep the snapshot: ${String(error)}`);
    }
  }

  /** Forgets the kept snapshot of the configured project, here and on disk (tests, and a reset). */
  async forget(): Promise<void> {
    const projectId = this.deps.projectId();
    this.generation++;
    this.snapshot = undefined;
    this.loadedFor = undefined;
    if (projectId) await vscode.workspace.fs.delete(this.fileOf(projectId)).then(undefined, () => undefined); // nothing kept: nothing to delete
    this.emitter.fire();
  }

  get storageDir(): vscode.Uri {
    return this.deps.storageDir;
  }

  private fileNameOf(projectId: string): string {
    return `${encodeURIComponent(projectId).replace(/\./g, '%2E')}.json`;
  }

  private fileOf(projectId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.deps.storageDir, this.fileNameOf(projectId));
  }
}
