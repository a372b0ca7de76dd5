// The readers figures' one source in a window: the chosen range (kept per workspace), the snapshot
// store, and the rules for when a request may leave: only with a key and a project, only when a
// docs page is being shown (never at activation), at most once an hour per range, and after a
// failure not again on its own until the wait is over (Refresh still asks at once).
import * as vscode from 'vscode';
import { isApiError, type ApiClient } from '../api';
import type { Settings } from '../config';
import { localToday, resolvePreset, type ResolvedRange } from '../analytics/dateRange';
import type { Logger } from '../log';
import { PRESETS, type PresetId } from '../shared/protocol';
import { Disposable } from '../util/lifecycle';
import { readersSettings } from './readersSettings';
import { fetchSnapshot, SnapshotStore, snapshotId, type SnapshotKey, type VisitorsSnapshot } from './visitorsSnapshot';

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

  constructor(private readonly deps: PageReadersDeps) {
    super();
    this.store = new SnapshotStore({
      fetch: (key) => this.fetchRange(key),
      storage: deps.storage,
    });
    this.register(this.store.onDidFetch(() => this.changeEmitter.fire()));
    // Another key, project or API address may well succeed where the last request failed.
    const retryable = () => {
      this.pausedUntil.clear();
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
   */
  async load(now: RangeNow, { refresh = false }: { refresh?: boolean } = {}): Promise<VisitorsSnapshot> {
    const id = snapshotId(now.key);
    const kept = this.store.cached(now.key);
    const paused = (this.pausedUntil.get(id) ?? 0) > Date.now();
    if (paused && !refresh) {
      if (kept) return kept;
      throw new PausedError(this.pausedUntil.get(id)!);
    }
    try {
      const snapshot = await this.store.get(now.key, { refresh });
      this.pausedUntil.delete(id);
      return snapshot;
    } catch (error) {
      const wait = isApiError(error) && error.kind === 'rateLimited' && error.retryAfterMs !== undefined ? error.retryAfterMs : FAILURE_PAUSE_MS;
      this.pausedUntil.set(id, Date.now() + wait);
      throw error;
    }
  }

  /** The one place the readers spend analytics requests (a ledger gate of issue 9 wraps this). */
  private async fetchRange(key: SnapshotKey): Promise<VisitorsSnapshot> {
    const maxPages = readersSettings.maxPages;
    this.deps.log.info(`readers: fetching ${key.dateFrom ?? 'all time'}..${key.dateTo ?? ''} (at most ${maxPages} pages of 250)`);
    const snapshot = await fetchSnapshot((projectId, query, options) => this.deps.api.getVisitors(projectId, query, options), key, {
      maxPages,
      signal: this.lifetime.signal,
    });
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
