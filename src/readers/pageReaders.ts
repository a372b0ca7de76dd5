// The readers figures' one source in a window: the chosen range (kept per workspace), the snapshot
// store, and the rules for when a request may leave: only with a key and a project, only when a
// docs page is being shown (never at activation), at most once an hour per range, and after a
// failure not again on its own until the wait is over (Refresh still asks at once). A fetch the
// user did not ask for (a page was just opened) stays under the shared ledger's background ceiling,
// so the hour's last analytics requests are kept for what someone asks; one the user asked for
// (Refresh, Change Range, the click to load) is never held back by the ledger, only by a 429.
import * as vscode from 'vscode';
import { isApiError, type ApiClient } from '../api';
import type { Settings } from '../config';
import { resolvePreset, type ResolvedRange } from '../analytics/dateRange';
import { localToday } from '../util/days';
import type { Logger } from '../log';
import { PRESETS, type PresetId } from '../shared/protocol';
import { BACKGROUND_CEILING, fitsUnderCeiling } from '../sync/ledger';
import { Disposable } from '../util/lifecycle';
import { fetchSnapshot, SnapshotStore, snapshotId, type SnapshotKey, type VisitorsSnapshot } from '../analytics/visitorsSnapshot';

const RANGE_KEY = 'mintlifyAgent.readers.range';
const DEFAULT_PRESET: PresetId = 'last30';
/** After a failure without a Retry-After, background fetches wait this long. */
const FAILURE_PAUSE_MS = 5 * 60 * 1000;

export interface PageReadersDeps {
  api: ApiClient;
  settings: Settings;
  keys: { readonly hasKey: boolean; onDidChange: vscode.Event<void> };
  /** Where the range and the snapshots are kept across reloads (workspaceState). */
  storage: vscode.Memento;
  /** Every window's analytics requests this hour (the shared ledger); undefined while not known (counted as full); absent: no ceiling. */
  analyticsThisHour?: () => number | undefined;
  log: Logger;
}

export interface RangeNow {
  preset: PresetId;
  range: ResolvedRange;
  key: SnapshotKey;
}

export class PageReaders extends Disposable {
  readonly store: SnapshotStore;
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** The range, the project, the key or a snapshot changed: figures may read differently. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly lifetime = new AbortController();
  private readonly pausedUntil = new Map<string, number>();
  /**
   * Whether the fetch under way is background work (a page just shown): then the ledger's ceiling
   * applies, checked before each page. Anything else (the user's Refresh, the panel) is asked for,
   * and one asked for that joins a background fetch under way makes it asked too.
   */
  private background = false;
  private fetching = 0;

  constructor(private readonly deps: PageReadersDeps) {
    super();
    this.store = new SnapshotStore({
      fetch: (key) => this.fetchRange(key),
      storage: deps.storage,
    });
    this.register(this.store.onDidFetch(() => this.changeEmitter.fire()));
    // Another key, project or API address may well succeed where the last request failed.
    let apiBaseUrl = deps.settings.apiBaseUrl;
    const retryable = () => {
      this.pausedUntil.clear();
      // Figures kept from another server are not this one's: forget them (the next page shown fetches).
      if (deps.settings.apiBaseUrl !== apiBaseUrl) {
        apiBaseUrl = deps.settings.apiBaseUrl;
        void this.store.clear(); // a workspaceState write: failures are VS Code's to log
      }
      this.changeEmitter.fire();
    };
    this.register(deps.settings.onDidChange(retryable));
    this.register(deps.keys.onDidChange(retryable));
    this.register({ dispose: () => this.lifetime.abort() });
  }

  get preset(): PresetId {
    const stored = this.deps.storage.get<string>(RANGE_KEY);
    return (PRESETS as readonly string[]).includes(stored ?? '') ? (stored as PresetId) : DEFAULT_PRESET;
  }

  async setPreset(preset: PresetId): Promise<void> {
    await this.deps.storage.update(RANGE_KEY, preset);
    this.changeEmitter.fire();
  }

  /** The current range for the configured project; undefined without a project or a key. */
  current(): RangeNow | undefined {
    const projectId = this.deps.settings.projectId;
    if (!projectId || !this.deps.keys.hasKey) return undefined;
    const preset = this.preset;
    const range = resolvePreset(preset, localToday(), vscode.l10n);
    return { preset, range, key: { projectId, dateFrom: range.dateFrom, dateTo: range.dateTo } };
  }

  /** The current range's snapshot if one is kept, however old; never a request. */
  cached(): VisitorsSnapshot | undefined {
    const now = this.current();
    return now && this.store.cached(now.key);
  }

  /**
   * The current range's snapshot for a page being shown: the kept one while fresh, else a fetch,
   * unless a recent failure asked for a pause (then the kept one, possibly stale, or the failure).
   * `asked`: the user asked (Refresh implies it); otherwise a fetch that would take the analytics
   * ledger past its background ceiling is held back (the kept one, possibly stale, or HeldBackError).
   */
  async load(now: RangeNow, { refresh = false, asked = refresh }: { refresh?: boolean; asked?: boolean } = {}): Promise<VisitorsSnapshot> {
    const id = snapshotId(now.key);
    const kept = this.store.cached(now.key);
    const paused = (this.pausedUntil.get(id) ?? 0) > Date.now();
    if (paused && !refresh) {
      if (kept) return kept;
      throw new PausedError(this.pausedUntil.get(id)!);
    }
    const wouldFetch = refresh || !kept || !this.store.isFresh(kept);
    // As many requests as the kept snapshot took (the site's size), else at least one.
    if (wouldFetch && !asked && !this.backgroundFits(kept?.pages ?? 1)) {
      this.deps.log.info(`readers: background fetch held back, ${this.deps.analyticsThisHour?.() ?? 'an unknown number of'} analytics requests in the last hour (ceiling ${BACKGROUND_CEILING})`);
      if (kept) return kept;
      throw new HeldBackError(this.deps.analyticsThisHour?.());
    }
    try {
      if (asked) this.background = false;
      else if (this.fetching === 0) this.background = true;
      const snapshot = await this.store.get(now.key, { refresh });
      this.pausedUntil.delete(id);
      return snapshot;
    } catch (error) {
      if (error instanceof HeldBackError) throw error; // not a failure: the next page shown may go
      const wait = isApiError(error) && error.kind === 'rateLimited' && error.retryAfterMs !== undefined ? error.retryAfterMs : FAILURE_PAUSE_MS;
      this.pausedUntil.set(id, Date.now() + wait);
      throw error;
    }
  }

  /** A range someone asked for (the panel: Compare, a page's row, an export): never held back by the ledger. */
  fetchForUser(key: SnapshotKey, options: { refresh?: boolean } = {}): Promise<VisitorsSnapshot> {
    this.background = false;
    return this.store.get(key, options);
  }

  /** Whether `requests` more fit under the ledger's background ceiling (every window's analytics requests this hour). */
  private backgroundFits(requests: number): boolean {
    return !this.deps.analyticsThisHour || fitsUnderCeiling(this.deps.analyticsThisHour(), requests);
  }

  /** The one place the readers spend analytics requests. */
  private async fetchRange(key: SnapshotKey): Promise<VisitorsSnapshot> {
    const maxPages = this.deps.settings.readers.maxPages;
    this.deps.log.info(`readers: fetching ${key.dateFrom ?? 'all time'}..${key.dateTo ?? ''} (at most ${maxPages} pages of 250${this.background ? ', background' : ''})`);
    let sent = 0;
    const fetchPage: typeof this.deps.api.getVisitors = (projectId, query, options) => {
      // A background fetch of a site larger than the estimate stops at the ceiling rather than pass it (nothing is kept then).
      if (this.background && sent > 0 && !this.backgroundFits(1)) return Promise.reject(new HeldBackError(this.deps.analyticsThisHour?.()));
      sent++;
      return this.deps.api.getVisitors(projectId, query, options);
    };
    this.fetching++;
    let snapshot: VisitorsSnapshot;
    try {
      snapshot = await fetchSnapshot(fetchPage, key, { maxPages, signal: this.lifetime.signal });
    } finally {
      if (--this.fetching === 0) this.background = false;
    }
    this.deps.log.info(`readers: ${snapshot.rows.length} paths in ${snapshot.pages} request(s)${snapshot.capped ? ' (capped)' : ''}`);
    return snapshot;
  }
}

/** No background fetch until `until` (epoch ms), after a failure. */
export class PausedError extends Error {
  override readonly name = 'PausedError';
  constructor(readonly until: number) {
    super('Paused after a failed request.');
  }
}

/** A background fetch not sent (or stopped) because the hour's analytics requests reached the ledger's background ceiling. */
export class HeldBackError extends Error {
  override readonly name = 'HeldBackError';
  /** `thisHour`: the analytics requests of the hour, undefined when not known yet. */
  constructor(readonly thisHour: number | undefined) {
    super('Held back: the hourly analytics requests are kept for what the user asks.');
  }
}
