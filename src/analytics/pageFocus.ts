// "Open Visitor Analytics" from a docs page opens the panel on that page: its row among every row
// of the range (the readers' whole-range snapshot), with its rank, instead of whichever page of 50
// it happens to fall on. No vscode import: unit-tested directly.
import type { VisitorRow } from '../api/schemas';
import type { FocusView } from '../shared/protocol';
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

export const pendingFocus = (path: string): FocusView => ({ path, status: 'pending', rank: undefined, covered: undefined });
