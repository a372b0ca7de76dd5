// The trend buckets every window keeps (the `trends`, `trendUse` and `openTrends` areas): settled
// ones for good within their kind's bound, open ones with their fetch time, each under the scope of
// the project and the API address in force (trendBounds.ts), so what one window fetched another
// draws without asking the API again. What was kept for another API address is forgotten once the
// change of address lasts: a remote window may read a machine setting differently for a moment
// after a reload, and one passing read must never wipe what every window kept. No vscode import.
import { background } from '../util/background';
import { HOUR_MS } from '../util/clock';
import type { SharedStore, SyncLog } from './sharedStore';
import { type AreaName, keepTrends, type OpenTrendFigures, pruneState, type SyncState, type TrendFigures, useTrends } from './syncState';
import { trendScope } from './trendBounds';

/** A draw's use of a kept trend bucket is written at most this often (it orders what goes first past a bound). */
const TREND_USE_EVERY_MS = HOUR_MS;

/** How long an API address must stay the one in force before what was kept for another is forgotten. */
export const ADDRESS_LASTS_MS = 10 * 60_000;

/** How the trends reach the shared store: through the window's glue. */
interface TrendsHost {
  readonly store: SharedStore;
  /** Applies the change; `touched` names the areas with a handle it may change (all when undefined). */
  update(change: (state: SyncState) => void, touched?: readonly AreaName[]): Promise<void>;
}

export class SharedTrends {
  /** The address this window last read, and since when it has read it. */
  private seen: { apiBaseUrl: string | undefined; since: number } | undefined;

  constructor(
    private readonly host: TrendsHost,
    /** The API address in force: what the shared state keeps for another one is forgotten once the change lasts. */
    private readonly apiBaseUrl: () => string | undefined,
    private readonly log: SyncLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** The settled trend buckets every window has kept for the project, from the API in force (trendBuckets.ts). */
  keptTrends(project: string): Readonly<Record<string, TrendFigures>> {
    return this.host.store.state.trends[this.scope(project)] ?? {};
  }

  /** The buckets that include today, as the last window to fetch each found them, with when. */
  openTrends(project: string): Readonly<Record<string, OpenTrendFigures>> {
    return this.host.store.state.openTrends[this.scope(project)] ?? {};
  }

  /** Keeps trend buckets for every window, settled and open; a failed write leaves them in this window and is logged. */
  keepTrends(project: string, settled: Record<string, TrendFigures>, open?: Record<string, OpenTrendFigures>): void {
    const scope = this.scope(project);
    background(
      this.host.update((state) => keepTrends(state, scope, settled, open), []),
      this.log,
      "keeping the trend's buckets",
    );
  }

  /** Notes that a draw took these kept buckets: of the kinds bounded by use, the least recently used go first (trendBounds.ts). */
  useTrends(project: string, keys: readonly string[]): void {
    const scope = this.scope(project);
    if (!useTrends(this.host.store.state, scope, keys, this.now(), TREND_USE_EVERY_MS)) return;
    background(this.host.store.write(), this.log, 'noting the trend buckets drawn');
  }

  /**
   * The API address in force. Once it has been the one in force for ADDRESS_LASTS_MS (on this
   * window's reads), what the shared state kept for another one is forgotten, and every read forgets
   * it again; until then nothing is forgotten by address.
   */
  followApiBaseUrl(): string | undefined {
    const apiBaseUrl = this.apiBaseUrl();
    const now = this.now();
    if (!this.seen || this.seen.apiBaseUrl !== apiBaseUrl) this.seen = { apiBaseUrl, since: now };
    const store = this.host.store;
    if (apiBaseUrl !== undefined && apiBaseUrl !== store.apiBaseUrl && now - this.seen.since >= ADDRESS_LASTS_MS) {
      store.apiBaseUrl = apiBaseUrl;
      this.log.info(`the API address ${apiBaseUrl} has lasted: what was kept for another address is forgotten`);
      background(
        // Pruned whole, as a read prunes: any area may lose what outlived its bound.
        this.host.update((state) => pruneState(state, { now, apiBaseUrl })),
        this.log,
        'forgetting the trends of the other API address',
      );
    }
    return apiBaseUrl;
  }

  /** The trend areas' key for the project at the API in force. */
  private scope(project: string): string {
    return trendScope(project, this.followApiBaseUrl());
  }
}
