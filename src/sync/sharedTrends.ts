// The trend buckets every window keeps (the `trends`, `trendUse` and `openTrends` areas): settled
// ones for good within their kind's bound, open ones with their fetch time, each under the scope of
// the project and the API address in force (trendBounds.ts), so what one window fetched another
// draws without asking the API again. What was kept for another API address is forgotten. No vscode
// import.
import { background } from '../util/background';
import { HOUR_MS } from '../util/clock';
import type { SharedStore, SyncLog } from './sharedStore';
import { type AreaName, keepTrends, type OpenTrendFigures, pruneState, type SyncState, type TrendFigures, useTrends } from './syncState';
import { trendScope } from './trendBounds';

/** A draw's use of a kept trend bucket is written at most this often (it orders what goes first past a bound). */
const TREND_USE_EVERY_MS = HOUR_MS;

/** How the trends reach the shared store: through the window's glue. */
export interface TrendsHost {
  readonly store: SharedStore;
  /** Applies the change; `touched` names the areas with a handle it may change (all when undefined). */
  update(change: (state: SyncState) => void, touched?: readonly AreaName[]): Promise<void>;
}

export class SharedTrends {
  constructor(
    private readonly host: TrendsHost,
    /** The API address in force: what the shared state keeps for another one is forgotten. */
    private readonly apiBaseUrl: () => string | undefined,
    private readonly log: SyncLog,
  ) {
    host.store.apiBaseUrl = apiBaseUrl();
  }

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
    if (!useTrends(this.host.store.state, scope, keys, Date.now(), TREND_USE_EVERY_MS)) return;
    background(this.host.store.write(), this.log, 'noting the trend buckets drawn');
  }

  /** The API address in force; when it changed, what the shared state kept for the other one is forgotten (and every read forgets it again). */
  followApiBaseUrl(): string | undefined {
    const apiBaseUrl = this.apiBaseUrl();
    const store = this.host.store;
    if (apiBaseUrl !== store.apiBaseUrl) {
      store.apiBaseUrl = apiBaseUrl;
      background(
        // Pruned whole, as a read prunes: any area may lose what outlived its bound.
        this.host.update((state) => pruneState(state, { now: Date.now(), apiBaseUrl })),
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
