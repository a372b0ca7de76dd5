// "Open Visitor Analytics" from a docs page opens the panel on that page: its row among every row
// of the range (the readers' whole-range snapshot), with its rank, instead of whichever page of 50
// it happens to fall on. No vscode import: unit-tested directly.
import * as z from 'zod/mini';
import type { VisitorRow } from '../api/schemas';
import { type FocusView, MAX_PATH_LENGTH, PRESETS } from '../shared/protocol';
import type { LoadedPage } from './visitorsQuery';
import { readersOf, type SnapshotKey, type VisitorsSnapshot } from './visitorsSnapshot';

/** Every row of a range: the kept snapshot when it may stand in, else one fetch (shown, confirmed when large). */
export type WholeRange = (key: SnapshotKey, options: { refresh: boolean }) => Promise<VisitorsSnapshot>;

export function focusOn(snapshot: VisitorsSnapshot, path: string): { view: FocusView; rows: VisitorRow[] } {
  const readers = readersOf(snapshot, path);
  switch (readers.kind) {
    case 'read':
      return { view: { path, status: 'found', rank: readers.rank, covered: snapshot.rows.length }, rows: [readers.row] };
    case 'none':
      return { view: { path, status: 'none', rank: undefined, covered: snapshot.rows.length }, rows: [] };
    case 'beyondCap':
      return { view: { path, status: 'beyondCap', rank: undefined, covered: readers.covered }, rows: [] };
  }
}

/** The focused page's row among every row of the range (`wholeRange`), or else among the first page's rows only. */
export async function loadFocused(
  key: SnapshotKey,
  path: string,
  { wholeRange, firstPage, refresh, now }: { wholeRange: WholeRange | undefined; firstPage: () => Promise<LoadedPage>; refresh: boolean; now: () => number },
): Promise<LoadedPage & { focus: FocusView }> {
  const started = now();
  const snapshot = wholeRange ? await wholeRange({ projectId: key.projectId, dateFrom: key.dateFrom, dateTo: key.dateTo }, { refresh }) : undefined;
  if (!snapshot) {
    const loaded = await firstPage();
    const rows = loaded.page.visitors.filter((row) => row.path === path);
    return { ...loaded, page: { ...loaded.page, visitors: rows, hasMore: false }, focus: { ...pendingFocus(path), status: rows.length ? 'found' : 'pending' } };
  }
  const found = focusOn(snapshot, path);
  return {
    page: { totals: snapshot.totals, visitors: found.rows, hasMore: false },
    fetchedAt: snapshot.fetchedAt,
    fromCache: snapshot.fetchedAt < started,
    focus: found.view,
  };
}

export const pendingFocus = (path: string): FocusView => ({ path, status: 'pending', rank: undefined, covered: undefined });

// The command's argument: the page's site path and the readers' range. Any extension can run the
// command with anything, so the argument is parsed; one that is not a target opens the panel as it is.
// `trend`: Show Trend, the page's trend drawn (its cost asked first when it is more than a few requests).
const OpenTarget = z.object({
  path: z.string().check(z.minLength(1), z.maxLength(MAX_PATH_LENGTH)),
  preset: z.optional(z.enum(PRESETS)),
  trend: z.optional(z.boolean()),
});
type OpenTarget = z.infer<typeof OpenTarget>;

export function parseOpenTarget(raw: unknown): OpenTarget | undefined {
  const result = z.safeParse(OpenTarget, raw);
  return result.success ? result.data : undefined;
}
