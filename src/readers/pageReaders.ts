// The readers figures' one source in a window: the chosen range (kept per workspace), the snapshot
// store, and the rules for when a request may leave: only with a key and a project, only when a
// docs page is being shown (never at activation), at most once an hour per range, and after a
// failure not again on its own until the wait is over (Refresh still asks at once). Every fetch
// passes the hour's gate with its own grant: one the user did not ask for (a page was just opened)
// is background work, held to the ledger's ceiling and the machine's background share so the hour's
// last analytics requests are kept for what someone asks; one the user asked for (Refresh, Change
// Range, the click to load, the panel) is asked for, and held to what the hour has left; one the
// editor's AI makes after the writer's yes in a tool's dialog is held to what that dialog allowed
// (itself within the hour's first 60, the tool's rule).
// load() makes each of these grants; the store then fetches with the client itself. A fetch the
// hour has no room for is refused as one thing, the ApiError kind 'notGranted'.
import * as vscode from 'vscode';
import { ApiError, isApiError, type ApiClient } from '../api';
import type { Settings } from '../config';
import { resolvePreset, type ResolvedRange } from '../analytics/dateRange';
import { background } from '../util/background';
import { localToday } from '../util/days';
import type { Logger } from '../log';
import { PRESETS, type PresetId } from '../shared/protocol';
import { BACKGROUND_CEILING } from '../hour/ledger';
import type { HourGate, HourGrant } from '../hour/hourGate';
import { HOUR_MS } from '../util/clock';
import { Disposable } from '../util/lifecycle';
import { fetchRangeWith, isFreshFor, notGranted, SnapshotStore, snapshotId, type SnapshotKey, type VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import { type BackgroundPlan, planBackground, rangeLabel, settledKeys } from './settledRanges';

const RANGE_KEY = 'mintlifyAgent.readers.range';
const DEFAULT_PRESET: PresetId = 'last30';
/** After a failure without a Retry-After, background fetches wait this long. */
const FAILURE_PAUSE_MS = 5 * 60 * 1000;
/**
 * How long background work lets a writer's fetch of the open range (Refresh, a click) stand before
 * it shows the settled range's figures instead (settledRanges.ts): a day, less a spread of up to
 * three hours per window. What a writer asks for stands for an hour.
 */
const BACKGROUND_MAX_AGE_MS = 24 * HOUR_MS - Math.floor(Math.random() * 3 * HOUR_MS);

interface PageReadersDeps {
  api: ApiClient;
  settings: Settings;
  keys: { readonly hasKey: boolean; onDidChange: vscode.Event<void> };
  /** Where the range and the snapshots are kept across reloads (workspaceState). */
  storage: vscode.Memento;
  /** The organisation's analytics hour: every fetch passes it. */
  gate: HourGate;
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
    // The store fetches a range itself, with the client: the one place the readers spend analytics requests.
    this.store = new SnapshotStore({
      fetch: fetchRangeWith({ api: deps.api, maxPages: () => deps.settings.readers.maxPages, signal: this.lifetime.signal, log: deps.log }),
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
        background(this.store.clear(), deps.log, 'forgetting the figures of the other server');
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
   * `asked`: the user asked (Refresh implies it), and the gate asks them when the hour may not hold
   * it; `allowedForModel`: the writer said yes to that many requests in a language model tool's
   * dialog (the editor's AI's grant, made here); otherwise it is background work, and a fetch the
   * hour has no room for returns the kept one, possibly stale, or is not granted (ApiError 'notGranted').
   * `signal`: the caller's cancel (a tool call the chat stopped): its wait ends ('cancelled'), and the
   * fetch with it unless another caller still waits for it (SnapshotStore.get).
   */
  async load(now: RangeNow, options: { refresh?: boolean; asked?: boolean; allowedForModel?: number; signal?: AbortSignal } = {}): Promise<VisitorsSnapshot> {
    const { refresh = false, allowedForModel, asked = refresh || allowedForModel !== undefined, signal } = options;
    // Background work fetches the settled range unless a writer's fetch of the open one still stands;
    // a writer's click on a range still being gathered fetches the rest of it.
    const plan = asked ? undefined : this.backgroundPlan(now);
    if (plan && !plan.fetch) return plan.show!;
    const shown = this.shown(now);
    const key = plan?.fetch ?? (shown?.gathering ? shown.key : now.key);
    const id = snapshotId(key);
    const kept = plan ? plan.show : this.store.cached(key);
    const paused = (this.pausedUntil.get(id) ?? 0) > Date.now();
    if (paused && !refresh) {
      if (kept) return kept;
      throw new PausedError(this.pausedUntil.get(id)!);
    }
    if (!plan && !refresh && kept && !kept.gathering && this.store.isFresh(kept)) return kept;
    // This load's own grant, ended with it. Background work keeps every page it fetches (a range
    // still being gathered goes on from there next time), so it asks for one request and goes on as
    // far as its share allows.
    const grant =
      allowedForModel !== undefined
        ? this.deps.gate.granted(allowedForModel, true)
        : asked
          ? await this.askFor(key, shown?.gathering ? rangeLabel(now.preset, key, vscode.l10n) : now.range.label)
          : this.deps.gate.background('readers', 1);
    if (!grant) {
      if (!asked)
        this.deps.log.info(
          `readers: background fetch not granted, ${this.deps.gate.used() ?? 'an unknown number of'} analytics requests in the last hour (ceiling ${BACKGROUND_CEILING}, this machine's background share ${this.deps.gate.backgroundShare()})`,
        );
      if (kept) return kept;
      // Not granted (background work, or a writer's ask with nothing left), or the writer said no: nothing was fetched, and nothing failed.
      throw !asked || this.deps.gate.left() === 0 ? notGranted() : new ApiError('cancelled', 'Not fetched: the writer did not ask for it.');
    }
    try {
      const snapshot = await this.store.get(key, { refresh, grant, background: !asked, signal });
      this.pausedUntil.delete(id);
      // A whole range stays shown while the next one is gathered.
      return plan?.show && snapshot.gathering ? plan.show : snapshot;
    } catch (error) {
      // notGranted is not a failure, nor is the caller's cancel: the next page shown may go.
      if (!(isApiError(error) && (error.kind === 'notGranted' || error.kind === 'cancelled'))) {
        const wait = isApiError(error) && error.kind === 'rateLimited' && error.retryAfterMs !== undefined ? error.retryAfterMs : FAILURE_PAUSE_MS;
        this.pausedUntil.set(id, Date.now() + wait);
      }
      if (plan?.show) return plan.show;
      throw error;
    } finally {
      // The grant was this load's: a later page shown, click or tool call asks anew.
      grant.end();
    }
  }

  /**
   * The hour as background work sees it, to say why it was not granted: the requests used (undefined while
   * not known), the ceiling and this machine's share.
   */
  backgroundRoom(): { used: number | undefined; ceiling: number; share: number } {
    return { used: this.deps.gate.used(), ceiling: BACKGROUND_CEILING, share: this.deps.gate.backgroundShare() };
  }

  /** The snapshot the readers show for the current range: the open range's if kept, else background work's settled one. */
  shown(now: RangeNow): VisitorsSnapshot | undefined {
    return this.store.cached(now.key) ?? this.backgroundPlan(now).show;
  }

  /** Background work's plan for the range (settledRanges.ts); nothing to fetch while a writer's fetch of the open range stands. */
  private backgroundPlan(now: RangeNow): BackgroundPlan {
    const open = this.store.cached(now.key);
    if (open && !open.gathering && isFreshFor(open, Date.now(), BACKGROUND_MAX_AGE_MS)) return { show: open };
    const keys = settledKeys(now.key.projectId, now.preset, localToday(), vscode.l10n);
    return planBackground(
      keys,
      keys.map((key) => this.store.cached(key)),
      Date.now(),
    );
  }

  /**
   * What fetching a range may cost: about what its kept whole snapshot took (however old), else up
   * to `cap` (the readers' page cap unless said); never more than `cap`.
   */
  estimate(key: SnapshotKey, cap = this.deps.settings.readers.maxPages): { estimate: number; upTo: boolean; cap: number; perPage?: boolean } {
    const kept = this.store.cached(key);
    // The rest of a range still being gathered: what is not fetched yet, its size not known.
    if (kept?.gathering) {
      const rest = Math.max(1, cap - kept.pages);
      return { estimate: rest, upTo: true, cap: rest, perPage: true };
    }
    // A size not known yet is said as what it is: one request per 250 paths, stopping at the cap.
    return kept && !kept.capped ? { estimate: Math.min(cap, Math.max(1, kept.pages)), upTo: false, cap } : { estimate: cap, upTo: true, cap, perPage: true };
  }

  /** The writer's grant for a range, asked when the hour may not hold it. */
  private askFor(key: SnapshotKey, label: string): Promise<HourGrant | undefined> {
    return this.deps.gate.ask({ what: vscode.l10n.t('Loading the readers of {0}', label), ...this.estimate(key) });
  }
}

/** No background fetch until `until` (epoch ms), after a failure. */
export class PausedError extends Error {
  override readonly name = 'PausedError';
  constructor(readonly until: number) {
    super('Paused after a failed request.');
  }
}
