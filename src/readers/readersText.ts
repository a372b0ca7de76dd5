// How the readers figures read, in one place for the status bar, the CodeLens, the Explorer and the
// tooltip. The strings are English templates; the callers pass them through vscode.l10n.t, so this
// module stays free of vscode and is unit-tested directly.
import type { PresetId } from '../shared/protocol';
import type { ReadersFigure } from '../analytics/visitorsSnapshot';

const numbers = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return numbers.format(n);
}

/** The share of a page's unique visitors who came through an AI agent, whole percent. */
export function aiPercent(ai: number, total: number): number {
  return total > 0 ? Math.round((ai / total) * 100) : 0;
}

/** "in 30 days", "this month", "yet": what follows "no readers". */
export const RANGE_PHRASES: Readonly<Record<PresetId, string>> = {
  last7: 'in 7 days',
  last30: 'in 30 days',
  last90: 'in 90 days',
  thisMonth: 'this month',
  allTime: 'yet',
};

/** A localisable template and its values, e.g. `['{0} readers · {1}% AI', '1,284', '31']`. */
type Phrase = [template: string, ...values: string[]];

/** The short figure: "1,284 readers · 31% AI", "no readers in 30 days", "not in the top 10,000 pages". */
export function readersPhrase(readers: ReadersFigure, preset: PresetId): Phrase {
  switch (readers.kind) {
    case 'read': {
      const { total, ai } = readers.row;
      return total === 1 ? ['1 reader · {0}% AI', String(aiPercent(ai, total))] : ['{0} readers · {1}% AI', formatCount(total), String(aiPercent(ai, total))];
    }
    case 'none':
      return ['no readers {0}', RANGE_PHRASES[preset]];
    case 'beyondCap':
      return ['not in the top {0} pages', formatCount(readers.covered)];
  }
}

/** Explorer badges are at most two characters: the rank for the top 99, a dot beyond. */
export function rankBadge(rank: number): string {
  return rank <= 99 ? String(rank) : '•';
}
