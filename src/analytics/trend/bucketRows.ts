// One page's trend (Show Trend) reads every path of each bucket to find the page's row. A settled
// bucket's rows never change (trendBuckets.ts), so they are kept in this window's memory: the next
// page's trend over the same days finds its row here, and costs only the buckets still open. Kept
// as the range's snapshot, so the page's row is found by the readers' own matching (readersOf).
// Bounded by rows, the least recently used bucket first. No vscode import: unit-tested.
import type { TrendFigures } from '../../sync/syncState';
import { daysBetween } from '../../util/days';
import { readersOf, snapshotId, type SnapshotKey, type VisitorsSnapshot } from '../visitorsSnapshot';

/** About 10 MB of paths at most: a 90-day trend's days and their previous period, at 500 paths a day. */
const BUCKET_ROWS_KEPT = 100_000;

export class BucketRows {
  private readonly kept = new Map<string, VisitorsSnapshot>();
  private rows = 0;

  constructor(private readonly maxRows = BUCKET_ROWS_KEPT) {}

  /** Keeps a settled bucket's rows (a snapshot cut short by the hour is not whole: not kept). */
  keep(snapshot: VisitorsSnapshot): void {
    const id = snapshotId(snapshot.key);
    this.forget(id);
    this.kept.set(id, snapshot);
    this.rows += snapshot.rows.length;
    // Oldest first in the map; the bucket just kept stays even when it alone is over the bound.
    for (const [oldest] of this.kept) {
      if (this.rows <= this.maxRows || oldest === id) break;
      this.forget(oldest);
    }
  }

  /**
   * The page's figures in a kept bucket: its row, or nothing read (no row in rows that end where
   * the API's do). Undefined when the bucket is not kept, or its rows stop before the page's.
   */
  figures(key: SnapshotKey, path: string): TrendFigures | undefined {
    const id = snapshotId(key);
    const snapshot = this.kept.get(id);
    if (!snapshot) return undefined;
    this.kept.delete(id);
    this.kept.set(id, snapshot);
    const found = readersOf(snapshot, path);
    if (found.kind === 'read') return [found.row.human, found.row.ai, found.row.total];
    return found.kind === 'none' ? [0, 0, 0] : undefined;
  }

  /**
   * About how many pages a bucket of this length takes: the most any kept bucket of the same
   * number of days took (a day of the site is read like another day); undefined when none is kept.
   */
  pagesLike(bucket: { dateFrom: string; dateTo: string }): number | undefined {
    const days = daysBetween(bucket.dateFrom, bucket.dateTo);
    let most: number | undefined;
    for (const snapshot of this.kept.values()) {
      const { dateFrom, dateTo } = snapshot.key;
      if (dateFrom && dateTo && daysBetween(dateFrom, dateTo) === days) most = Math.max(most ?? 0, snapshot.pages);
    }
    return most;
  }

  private forget(id: string): void {
    const snapshot = this.kept.get(id);
    if (!snapshot) return;
    this.rows -= snapshot.rows.length;
    this.kept.delete(id);
  }
}
