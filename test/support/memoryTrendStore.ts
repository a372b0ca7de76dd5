// The trend's kept buckets as every window shares them, in one process: the shared state's own
// keepTrends (src/sync/syncState.ts) on a state in memory, so what one series keeps another finds,
// merged as WindowSync merges it. For the unit tests and the bench.
import type { KeptTrendStore } from '../../src/analytics/trend/trendSeries';
import { emptyState, keepTrends, type OpenTrendFigures, type TrendFigures, useTrends } from '../../src/sync/syncState';

export class MemoryTrendStore implements KeptTrendStore {
  readonly state = emptyState();

  constructor(private readonly now: () => number = Date.now) {}

  keptTrends(project: string): Readonly<Record<string, TrendFigures>> {
    return this.state.trends[project] ?? {};
  }

  openTrends(project: string): Readonly<Record<string, OpenTrendFigures>> {
    return this.state.openTrends[project] ?? {};
  }

  keepTrends(project: string, settled: Record<string, TrendFigures>, open: Record<string, OpenTrendFigures>): void {
    keepTrends(this.state, project, settled, open, this.now());
  }

  useTrends(project: string, keys: readonly string[]): void {
    useTrends(this.state, project, keys, this.now());
  }
}
