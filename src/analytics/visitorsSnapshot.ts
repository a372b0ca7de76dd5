// The readers figures in the editor all come from one snapshot per project and date range: every
// row of the range, fetched in pages of 250 once, kept with its fetch time, persisted (bounded)
// across reloads and refreshed at most once an hour unless the user asks. With 400 paths, opening
// 50 pages in an hour costs 2 requests instead of 50. The store fetches a range itself, with the
// API client (`fetchRangeWith`): a request goes from here to the client and the hour's account,
// never back through the readers that own the store. No vscode import: unit-tested directly.
import * as z from 'zod/mini';
import type { ApiClient, Grant } from '../api/client';
import { ApiError, isApiError } from '../api/errors';
import { readPages } from '../api/paging';
import { HOUR_MS } from '../util/clock';
import { ENDPOINTS } from '../api/endpoints';
import type { VisitorRow, VisitorTotals } from '../api/schemas';
import type { Logger } from '../log';
import { JoinedGrant } from '../hour/joinedGrant';
import { type FetchVisitors, VISITORS_LIST } from './visitorsQuery';
import { normalizeSitePath } from '../docs/sitePaths';
import { isSettled } from './trend/trendBuckets';

export const SNAPSHOT_PAGE_SIZE = ENDPOINTS.getVisitors.pageSize;
export const MAX_AGE_MS = HOUR_MS;

export interface SnapshotKey {
  projectId: string;
  /** Inclusive `YYYY-MM-DD`, or undefined for all time. */
  dateFrom: string | undefined;
  /** Exclusive `YYYY-MM-DD`. */
  dateTo: string | undefined;
}

export interface VisitorsSnapshot {
  key: SnapshotKey;
  totals: VisitorTotals;
  /** In the API's order (the spec does not define it: nothing here assumes the first pages are the most read). */
  rows: VisitorRow[];
  /** Epoch ms when the first page was asked for. */
  fetchedAt: number;
  /** Requests it took. */
  pages: number;
  /** The fetch stopped before the API's last page (the page cap, or the hour): paths beyond its rows may have readers. */
  capped: boolean;
  /**
   * Still being gathered: the hour gave out first, the pages fetched are kept, and the next fetch
   * goes on from the page after them (offset paging over the same range) instead of starting again.
   * Only a range settled when its first page was fetched ({@link settledWhen}): a range that
   * includes today re-orders its rows as visits come in, so its later pages are not the same list's.
   */
  gathering?: boolean;
  /** The pages the range took when it was last fetched whole: "18 of 40 pages fetched". */
  expectedPages?: number;
}

/** What a snapshot says about one site path: its readers and rank, none, or beyond the cap. */
export type ReadersFigure =
  | { kind: 'read'; row: VisitorRow; rank: number }
  /** No visitor in the range (the snapshot has every page with one). */
  | { kind: 'none' }
  /** Not among the top pages the capped snapshot holds: it may have readers. */
  | { kind: 'beyondCap'; covered: number };

/** Under an hour old (or `maxAgeMs`) at `now`: the figures stand without a request. */
export function isFreshFor(snapshot: Pick<VisitorsSnapshot, 'fetchedAt'>, now: number, maxAgeMs = MAX_AGE_MS): boolean {
  const age = now - snapshot.fetchedAt;
  return age >= 0 && age < maxAgeMs;
}

/**
 * Whether the range's days had all ended (here and at the platform) at `at`: its rows, their order
 * and its totals no longer change, so pages fetched at different times are pages of one list.
 * All time never is.
 */
export function settledWhen(key: Pick<SnapshotKey, 'dateTo'>, at: number): boolean {
  return key.dateTo !== undefined && isSettled({ dateTo: key.dateTo }, at);
}

export function snapshotId(key: SnapshotKey): string {
  return JSON.stringify([key.projectId, key.dateFrom ?? null, key.dateTo ?? null]);
}

const indexes = new WeakMap<VisitorsSnapshot, Map<string, number>>();

export function readersOf(snapshot: VisitorsSnapshot, sitePath: string): ReadersFigure {
  let index = indexes.get(snapshot);
  if (!index) {
    const built = new Map<string, number>();
    snapshot.rows.forEach((row, rank) => {
      const path = normalizeSitePath(row.path);
      if (!built.has(path)) built.set(path, rank);
    });
    indexes.set(snapshot, built);
    index = built;
  }
  const rank = index.get(normalizeSitePath(sitePath));
  if (rank !== undefined) return { kind: 'read', row: snapshot.rows[rank], rank: rank + 1 };
  return snapshot.capped ? { kind: 'beyondCap', covered: snapshot.rows.length } : { kind: 'none' };
}

/**
 * The one function that spends requests on a snapshot: pages of 250 by the paging rule, until the
 * API has no more or `maxPages` is reached. Its caller (the store's fetch, {@link fetchRangeWith})
 * hands it the client's page read and a grant, and each request is reserved by the grant
 * (src/hour/hourGate.ts) before it is sent.
 */
export async function fetchSnapshot(
  fetchPage: FetchVisitors,
  key: SnapshotKey,
  { maxPages, signal, now = Date.now, grant, from }: { maxPages: number; signal?: AbortSignal; now?: () => number; grant?: Grant; from?: VisitorsSnapshot },
): Promise<VisitorsSnapshot> {
  // Going on from a snapshot still being gathered: its pages stand, the next one is asked by offset.
  const start = from?.gathering && settledWhen(key, from.fetchedAt) ? from : undefined;
  const skip = start ? start.pages * SNAPSHOT_PAGE_SIZE : 0;
  const fetchedAt = start?.fetchedAt ?? now();
  // Totals that moved since the kept pages were fetched mean their rows moved too: nothing more is
  // asked after the first page that says so, and the range starts again from its first page.
  let moved = false;
  const all = await readPages(
    VISITORS_LIST,
    async (page, signal) => {
      const answer = await fetchPage(
        key.projectId,
        { dateFrom: key.dateFrom, dateTo: key.dateTo, ...page, offset: (page.offset ?? 0) + skip },
        { signal, grant },
      );
      if (start && !sameTotals(answer.totals, start.totals)) moved = true;
      return answer;
    },
    { maxPages: Math.max(1, maxPages - (start?.pages ?? 0)), signal, enough: () => moved },
  );
  if (moved) return fetchSnapshot(fetchPage, key, { maxPages, signal, now, grant, ...(from && { from: { ...from, gathering: undefined } }) });
  const seen = new Set(start?.rows.map((row) => row.path));
  const rows = start ? [...start.rows, ...all.rows.filter((row) => !seen.has(row.path))] : all.rows;
  const pages = (start?.pages ?? 0) + all.pages;
  // Only a settled range is gathered: one that includes today is kept as what it is, cut short (its paths beyond may have readers).
  const gathering = all.cutShort?.reason === 'notGranted' && pages < maxPages && settledWhen(key, fetchedAt);
  const expectedPages = from && !from.capped ? from.pages : from?.expectedPages;
  // Any stop before the API's end leaves paths beyond it unread: they may have readers.
  return {
    key,
    totals: all.first?.totals ?? start?.totals ?? { human: 0, ai: 0, total: 0 },
    rows,
    fetchedAt,
    pages,
    capped: all.cutShort !== undefined,
    ...(gathering && { gathering }),
    ...(expectedPages !== undefined && { expectedPages }),
  };
}

function sameTotals(a: VisitorTotals, b: VisitorTotals): boolean {
  return a.human === b.human && a.ai === b.ai && a.total === b.total;
}

/** What the store's fetch of a range goes with: the client, the page cap (readers.maxPages, read at each fetch), the window's lifetime, the log. */
interface RangeFetchPorts {
  api: Pick<ApiClient, 'getVisitors'>;
  maxPages: () => number;
  signal?: AbortSignal;
  log: Pick<Logger, 'info'>;
}

/**
 * The store's fetch of a whole range ({@link SnapshotStoreOptions.fetch}): {@link fetchSnapshot} with
 * the client, each request reserved by `joined` (the grants of all who asked). Cut short by the
 * hour, every page fetched is kept: a settled range is still being gathered, and the next fetch goes
 * on from it (or starts again if its totals moved); a range that includes today is kept cut short,
 * and fetched again from its first page. Only a fetch that got no page at all keeps nothing (not
 * granted, or the 429).
 */
export function fetchRangeWith(ports: RangeFetchPorts): SnapshotStoreOptions['fetch'] {
  return async (key, joined, kept) => {
    const maxPages = ports.maxPages();
    const from = kept?.gathering ? ` from page ${kept.pages + 1}` : '';
    ports.log.info(
      `readers: fetching ${key.dateFrom ?? 'all time'}..${key.dateTo ?? ''}${from} (at most ${maxPages} pages of 250${joined.background ? ', background' : ''})`,
    );
    let limited: ApiError | undefined;
    const fetchPage: FetchVisitors = (projectId, query, options) =>
      ports.api.getVisitors(projectId, query, options).catch((error: unknown) => {
        // A 429 part way through background work keeps the pages before it (the shared wait holds the next).
        if (!joined.background || !isApiError(error) || error.kind !== 'rateLimited') throw error;
        limited = error;
        throw new ApiError('notGranted', error.message);
      });
    // Stopped with the window, or once everyone who waited for it has cancelled (JoinedGrant.wait).
    const signal = ports.signal ? AbortSignal.any([ports.signal, joined.signal]) : joined.signal;
    const snapshot = await fetchSnapshot(fetchPage, key, { maxPages, signal, grant: joined, from: kept });
    // Pages fetched now: a range gone on with keeps its first fetch time; one started again (its totals moved) has a new one.
    const fetched = kept?.gathering && snapshot.fetchedAt === kept.fetchedAt ? snapshot.pages - kept.pages : snapshot.pages;
    if (limited && fetched === 0) throw limited;
    if (joined.refused && fetched === 0) throw notGranted();
    ports.log.info(`readers: ${snapshot.rows.length} paths in ${snapshot.pages} request(s)${snapshot.capped ? ' (capped)' : ''}`);
    return snapshot;
  };
}

/** A readers fetch the hour had no room for: not a failure (the next page shown may go). */
export function notGranted(): ApiError {
  return new ApiError('notGranted', 'Not granted: the organisation’s hour has no room for this fetch now.');
}

// ---- The store: memory, persistence, freshness, one fetch at a time per range --------------------

/** A Memento, or a fake of it. */
interface SnapshotStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/** The workspaceState key the snapshots are kept under. */
const STORAGE_KEY = 'mintlifyAgent.readers.snapshots';
/** Persisted ranges, most recent first; with the default cap that is at most ~2.5 MB. */
const MAX_STORED = 4;

const Count = z.number().check(z.nonnegative());
const StoredSnapshot = z.object({
  key: z.object({ projectId: z.string(), dateFrom: z.nullable(z.string()), dateTo: z.nullable(z.string()) }),
  totals: z.object({ human: Count, ai: Count, total: Count }),
  /** [path, human, ai, total]: a third of the size of objects. */
  rows: z.array(z.tuple([z.string(), Count, Count, Count])),
  fetchedAt: z.number(),
  pages: z.number(),
  capped: z.boolean(),
  gathering: z.optional(z.boolean()),
  expectedPages: z.optional(z.number()),
});
type StoredSnapshot = z.infer<typeof StoredSnapshot>;

function toStored(s: VisitorsSnapshot): StoredSnapshot {
  return {
    key: { projectId: s.key.projectId, dateFrom: s.key.dateFrom ?? null, dateTo: s.key.dateTo ?? null },
    totals: s.totals,
    rows: s.rows.map((r) => [r.path, r.human, r.ai, r.total]),
    fetchedAt: s.fetchedAt,
    pages: s.pages,
    capped: s.capped,
    ...(s.gathering && { gathering: true }),
    ...(s.expectedPages !== undefined && { expectedPages: s.expectedPages }),
  };
}

function fromStored(s: StoredSnapshot): VisitorsSnapshot {
  const key = { projectId: s.key.projectId, dateFrom: s.key.dateFrom ?? undefined, dateTo: s.key.dateTo ?? undefined };
  return {
    key,
    totals: s.totals,
    rows: s.rows.map(([path, human, ai, total]) => ({ path, human, ai, total })),
    fetchedAt: s.fetchedAt,
    pages: s.pages,
    capped: s.capped,
    // An older version gathered ranges that included today: such pages are kept as cut short, never gone on from.
    ...(s.gathering && settledWhen(key, s.fetchedAt) && { gathering: true }),
    ...(s.expectedPages !== undefined && { expectedPages: s.expectedPages }),
  };
}

interface SnapshotStoreOptions {
  /**
   * Fetches a whole range (normally {@link fetchRangeWith}), each request reserved by `joined`;
   * `kept`: what is kept of it (going on from it while still being gathered).
   */
  fetch: (key: SnapshotKey, joined: JoinedGrant, kept?: VisitorsSnapshot) => Promise<VisitorsSnapshot>;
  storage: SnapshotStorage;
  now?: () => number;
  maxAgeMs?: number;
}

/**
 * The one shape of the kept whole-range snapshots as other features use them: the readers own
 * them (registerReaders.ts), the panel's Compare, pages and exports read and fill them.
 */
export interface SnapshotSource {
  cached(key: SnapshotKey): VisitorsSnapshot | undefined;
  isFresh(snapshot: VisitorsSnapshot): boolean;
  /** The range's snapshot, fetched with `grant` (the hour's gate) if none fresh is kept (or `refresh`). */
  get(key: SnapshotKey, options: { grant: Grant; refresh?: boolean; background?: boolean }): Promise<VisitorsSnapshot>;
  /** Keeps a whole range fetched elsewhere, for the status item too. */
  put(snapshot: VisitorsSnapshot): void;
  /** The most pages one snapshot may hold (readers.maxPages): bigger ranges are not kept. */
  maxPages(): number;
  /** What fetching a range may cost, for the hour's gate: about what its kept whole snapshot took, else up to `cap` (maxPages unless said). */
  estimate(key: SnapshotKey, cap?: number): { estimate: number; upTo: boolean; cap: number; perPage?: boolean };
}

export class SnapshotStore {
  private readonly memory = new Map<string, VisitorsSnapshot>();
  private readonly inFlight = new Map<string, { fetching: Promise<VisitorsSnapshot>; joined: JoinedGrant }>();
  private readonly listeners = new Set<(snapshot: VisitorsSnapshot) => void>();
  private loaded = false;
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(private readonly options: SnapshotStoreOptions) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS;
  }

  /** Called with every snapshot that arrives from the API. */
  onDidFetch(listener: (snapshot: VisitorsSnapshot) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The snapshot of a range if there is one, however old; never a request. */
  cached(key: SnapshotKey): VisitorsSnapshot | undefined {
    this.loadStored();
    return this.memory.get(snapshotId(key));
  }

  isFresh(snapshot: VisitorsSnapshot): boolean {
    return !snapshot.gathering && isFreshFor(snapshot, this.now(), this.maxAgeMs);
  }

  /**
   * The range's snapshot: the kept one while under an hour old (unless `refresh`), else one fetch
   * with `grant`, shared by everyone who asks while it is on its way: who joins it lends it their
   * grant (a writer who joins a background fetch is not held to the background's ceiling).
   * `background`: nobody asked (a page shown). `signal`: this caller's cancel, which ends its own wait
   * only; the fetch stops when all who wait for it have cancelled (a later caller then starts anew).
   */
  get(
    key: SnapshotKey,
    { refresh = false, grant, background = false, signal }: { refresh?: boolean; grant: Grant; background?: boolean; signal?: AbortSignal },
  ): Promise<VisitorsSnapshot> {
    const id = snapshotId(key);
    const pending = this.inFlight.get(id);
    if (pending && !pending.joined.signal.aborted) {
      pending.joined.join(grant, background);
      return pending.joined.wait(pending.fetching, signal);
    }
    const kept = this.cached(key);
    if (kept && !refresh && this.isFresh(kept)) return Promise.resolve(kept);
    const joined = new JoinedGrant(grant, background);
    // A range still being gathered goes on from its pages, Refresh too ("fetch the rest now").
    const fetching = this.options.fetch(key, joined, kept).then((snapshot) => {
      this.keep(id, snapshot);
      for (const listener of this.listeners) listener(snapshot);
      return snapshot;
    });
    this.inFlight.set(id, { fetching, joined });
    const forget = () => this.inFlight.get(id)?.fetching === fetching && this.inFlight.delete(id);
    void fetching.then(forget, forget);
    return joined.wait(fetching, signal);
  }

  /**
   * Keeps a whole range fetched elsewhere (the panel's export or a one-page range), as if fetched
   * here: the status item reads it, and listeners hear of it. A fetch on its way still wins after.
   */
  put(snapshot: VisitorsSnapshot): void {
    this.loadStored();
    this.keep(snapshotId(snapshot.key), snapshot);
    for (const listener of this.listeners) listener(snapshot);
  }

  /** Forgets every kept snapshot, in memory and in storage. */
  async clear(): Promise<void> {
    this.memory.clear();
    this.loaded = true;
    await this.options.storage.update(STORAGE_KEY, undefined);
  }

  /** Drops what is in memory so the next read comes from storage, as after a window reload. */
  forgetMemory(): void {
    this.memory.clear();
    this.loaded = false;
  }

  private keep(id: string, snapshot: VisitorsSnapshot): void {
    this.memory.delete(id);
    this.memory.set(id, snapshot);
    // Most recent last in the map; drop the oldest beyond the bound.
    for (const oldest of this.memory.keys()) {
      if (this.memory.size <= MAX_STORED) break;
      this.memory.delete(oldest);
    }
    const stored = [...this.memory.values()].reverse().map(toStored);
    void Promise.resolve(this.options.storage.update(STORAGE_KEY, stored)).catch(() => {
      // Storage full or gone: the figures still show; the next reload fetches again.
    });
  }

  private loadStored(): void {
    if (this.loaded) return;
    this.loaded = true;
    const parsed = z.array(StoredSnapshot).safeParse(this.options.storage.get(STORAGE_KEY));
    if (!parsed.success) return; // nothing stored yet, or an older shape: fetch when asked
    for (const stored of parsed.data.slice(0, MAX_STORED).reverse()) {
      const snapshot = fromStored(stored);
      const id = snapshotId(snapshot.key);
      if (!this.memory.has(id)) this.memory.set(id, snapshot);
    }
  }
}
