// "Compare with previous period": the same-length period just before a range, and how each total
// changed against it. The previous period's rows come from a readers snapshot of that range (one
// full-range fetch, src/analytics/visitorsSnapshot.ts), so a path absent there had no visitors then.
// No vscode import: unit-tested directly (the panel's Comparison, comparison.ts, uses it).
import { addDays, type Day, daysBetween } from '../util/days';

type Change =
  /** No visitors in the previous period: nothing to compare with. */
  { kind: 'new' } | { kind: 'change'; previous: number; percent: number };

/**
 * The period of the same length that ends where `range` starts. `dateTo` is exclusive, as the
 * API's. Undefined for all time (nothing comes before it) or a range without both ends.
 */
export function previousPeriod(range: { dateFrom: string | undefined; dateTo: string | undefined }): { dateFrom: Day; dateTo: Day } | undefined {
  const { dateFrom, dateTo } = range;
  if (!dateFrom || !dateTo) return undefined;
  const days = daysBetween(dateFrom, dateTo);
  if (!(days > 0)) return undefined;
  return { dateFrom: addDays(dateFrom, -days), dateTo: dateFrom };
}

export function changeOf(current: number, previous: number | undefined): Change {
  if (!previous) return { kind: 'new' };
  return { kind: 'change', previous, percent: Math.round(((current - previous) / previous) * 100) };
}

/** "▲ 12%", "▼ 5%", "0%", "new". */
export function changeLabel(change: Change): string {
  if (change.kind === 'new') return 'new';
  if (change.percent > 0) return `▲ ${change.percent}%`;
  if (change.percent < 0) return `▼ ${-change.percent}%`;
  return '0%';
}

/** Sort key for "sort by change": new rows above every growth, then the largest rise first. */
export function changeRank(change: Change): number {
  return change.kind === 'new' ? Number.MAX_SAFE_INTEGER : change.percent; // finite: it crosses postMessage
}

/** Each row's change of `total` against the previous period's rows (by path). */
export function compareRows<T extends { path: string; total: number }>(
  rows: readonly T[],
  previous: readonly { path: string; total: number }[],
): (T & { change: Change })[] {
  const before = new Map<string, number>();
  for (const row of previous) if (!before.has(row.path)) before.set(row.path, row.total);
  return rows.map((row) => ({ ...row, change: changeOf(row.total, before.get(row.path)) }));
}

/** The change of each total (the cards above the table). */
export function compareTotals(
  current: { human: number; ai: number; total: number },
  previous: { human: number; ai: number; total: number },
): Record<'human' | 'ai' | 'total', Change> {
  return { human: changeOf(current.human, previous.human), ai: changeOf(current.ai, previous.ai), total: changeOf(current.total, previous.total) };
}
