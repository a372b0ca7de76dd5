// The panel and the readers status item share the whole-range snapshots (visitorsSnapshot.ts), so
// the same rows are not fetched twice in a window: the panel pages and exports from a snapshot that
// covers its range, and a whole range the panel fetched anyway (an export, or a first page that
// holds every row) becomes the snapshot the status item reads. No vscode import: unit-tested.
//
// A snapshot stands in for the API only when it gives what the API would: visitors (not view
// events), every row of the range (not capped by readers.maxPages), under an hour old, and fetched
// after the user last pressed Refresh on that range (Refresh means "ask the API").
import type { VisitorsPage } from '../api/schemas';
import type { Metric } from '../shared/protocol';
import type { LoadedPage, PageKey } from './visitorsQuery';
import { offsetOf } from './visitorsQuery';
import { snapshotId, type SnapshotKey, type SnapshotSource, type VisitorsSnapshot } from './visitorsSnapshot';

/** A page key with its metric; without one it counts visitors. */
export type MetricPageKey = PageKey & { metric?: Metric };

export const snapshotKeyOf = (key: { projectId: string; dateFrom: string | undefined; dateTo: string | undefined }): SnapshotKey => ({
  projectId: key.projectId,
  dateFrom: key.dateFrom,
  dateTo: key.dateTo,
});

/** Rows `offset .. offset + limit` of a whole range, as the API would page them. */
export function pageOfSnapshot(snapshot: Pick<VisitorsSnapshot, 'rows' | 'totals'>, offset: number, limit: number): VisitorsPage {
  const visitors = snapshot.rows.slice(offset, offset + limit);
  return { totals: snapshot.totals, visitors, hasMore: offset + limit < snapshot.rows.length };
}

export class SnapshotReuse {
  /** When the user last pressed Refresh on a range (epoch ms): older snapshots do not stand in. */
  private readonly refreshedAt = new Map<string, number>();

  constructor(
    /** The kept snapshots; the reuse never fetches one itself. */
    private readonly port: Pick<SnapshotSource, 'cached' | 'isFresh' | 'put' | 'maxPages'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The snapshot that may answer for the API on this range and metric, or undefined. */
  usable(key: SnapshotKey, metric: Metric = 'visitors'): VisitorsSnapshot | undefined {
    if (metric !== 'visitors') return undefined;
    const kept = this.current(key);
    return kept && !kept.capped ? kept : undefined;
  }

  /** The range's snapshot while fresh and newer than the last Refresh, capped or not. */
  current(key: SnapshotKey): VisitorsSnapshot | undefined {
    const kept = this.port.cached(key);
    if (!kept || !this.port.isFresh(kept)) return undefined;
    // Strictly after: one fetched in the very millisecond of the Refresh may have been asked before it.
    return kept.fetchedAt > (this.refreshedAt.get(snapshotId(key)) ?? -Infinity) ? kept : undefined;
  }

  /** The user asked for fresh figures on this range. */
  markRefreshed(key: SnapshotKey): void {
    this.refreshedAt.set(snapshotId(key), this.now());
  }

  /** Every row of a range, fetched by the panel: kept as the range's snapshot unless a newer one is. */
  offer(snapshot: VisitorsSnapshot): void {
    if (snapshot.capped || snapshot.pages > this.port.maxPages()) return; // storage stays bounded
    const kept = this.port.cached(snapshot.key);
    if (kept && kept.fetchedAt >= snapshot.fetchedAt) return;
    this.port.put(snapshot);
  }
}

/** The part of VisitorsPager the panel pages with. */
interface PagesPort {
  cached(key: PageKey, page: number): LoadedPage | undefined;
  load(key: PageKey, page: number, options: { refresh?: boolean; signal?: AbortSignal }): Promise<LoadedPage>;
}

/**
 * The panel's pages: one pager per metric (memory, shared requests), with the range's snapshot
 * in front of the API for visitors. A first page that says there is no more holds the whole range,
 * so it is offered back as the snapshot.
 */
export class PanelPages {
  constructor(
    private readonly pagers: Record<Metric, PagesPort>,
    private readonly reuse: SnapshotReuse | undefined,
  ) {}

  /**
   * One source answers every page of a range, so paging never joins rows of two fetches (a path
   * on two pages, or on none): the snapshot when it is newer than the pager's first page (a page
   * seen an hour ago does not hide the status item's newer rows), else the pager (and the API for
   * the pages it lacks, even where an older snapshot has them).
   */
  cached(key: MetricPageKey, page: number): LoadedPage | undefined {
    const metric = key.metric ?? 'visitors';
    const pager = this.pagers[metric];
    const snapshot = this.reuse?.usable(snapshotKeyOf(key), metric);
    const first = snapshot && pager.cached(key, 1);
    if (!snapshot || (first && first.fetchedAt >= snapshot.fetchedAt)) return pager.cached(key, page);
    return { page: pageOfSnapshot(snapshot, offsetOf(page, key.pageSize), key.pageSize), fetchedAt: snapshot.fetchedAt, fromCache: true };
  }

  async load(key: MetricPageKey, page: number, options: { refresh?: boolean; signal?: AbortSignal }): Promise<LoadedPage> {
    const metric = key.metric ?? 'visitors';
    if (options.refresh) this.reuse?.markRefreshed(snapshotKeyOf(key));
    else {
      const hit = this.cached(key, page);
      if (hit) return hit;
    }
    const loaded = await this.pagers[metric].load(key, page, options);
    if (metric === 'visitors' && page === 1 && !loaded.fromCache && !loaded.page.hasMore) {
      const { totals, visitors } = loaded.page;
      this.reuse?.offer({ key: snapshotKeyOf(key), totals, rows: visitors, fetchedAt: loaded.fetchedAt, pages: 1, capped: false });
    }
    return loaded;
  }
}
