// The panel's "Compare with previous period": whether it is on, the previous period's rows once
// fetched (a full-range fetch through the readers' snapshot cache), and the CompareView the webview
// shows for the rows on screen. No vscode import.
import type { CompareView, LoadedData } from '../shared/protocol';
import { addDays } from '../util/days';
import { changeLabel, changeRank, compareRows, compareTotals, previousPeriod } from './periodCompare';
import { errorText } from '../util/errorText';

interface PreviousRows {
  rows: readonly { path: string; total: number }[];
  totals: { human: number; ai: number; total: number };
  /** What the fetch left out (the hour allowed fewer pages than the range has), said beside the comparison. */
  leftOut?: string;
}

/** Fetches a whole range (with the user told the cost first when it is large); rejects when declined. */
export type FetchPrevious = (projectId: string, range: { dateFrom: string; dateTo: string }, label: string) => Promise<PreviousRows>;

export class Comparison {
  private on = false;
  private previous: { id: string; rows?: PreviousRows; error?: string } | undefined;

  constructor(private readonly fetchPrevious: FetchPrevious | undefined) {}

  get enabled(): boolean {
    return this.on;
  }

  set(on: boolean): void {
    this.on = on;
  }

  /** Fetches the previous period of this range if it is on and not yet fetched; resolves when done. */
  async load(projectId: string | undefined, range: { dateFrom: string | undefined; dateTo: string | undefined } | undefined): Promise<void> {
    const period = range && previousPeriod(range);
    if (!this.on || !projectId || !period || !this.fetchPrevious) return;
    const id = JSON.stringify([projectId, period.dateFrom, period.dateTo]);
    if (this.previous?.id === id && !this.previous.error) return;
    this.previous = { id };
    try {
      const rows = await this.fetchPrevious(projectId, period, label(period));
      if (this.previous.id === id) this.previous = { id, rows };
    } catch (error) {
      if (this.previous.id === id) this.previous = { id, error: errorText(error) };
    }
  }

  view(
    projectId: string | undefined,
    range: { dateFrom: string | undefined; dateTo: string | undefined } | undefined,
    data: Pick<LoadedData, 'rows' | 'totals'> | undefined,
  ): CompareView | undefined {
    if (!this.on) return undefined;
    const none = { previousLabel: undefined, totals: undefined, rows: undefined };
    const period = range && previousPeriod(range);
    if (!this.fetchPrevious) return { status: 'unavailable', message: 'Comparing is not available in this window.', ...none };
    if (!period || !projectId) return { status: 'unavailable', message: 'All time has no previous period to compare with.', ...none };
    const id = JSON.stringify([projectId, period.dateFrom, period.dateTo]);
    const previousLabel = label(period);
    if (this.previous?.id !== id || (!this.previous.rows && !this.previous.error))
      return { status: 'loading', message: `Fetching ${previousLabel}…`, ...none, previousLabel };
    if (this.previous.error || !this.previous.rows) return { status: 'failed', message: this.previous.error, ...none, previousLabel };
    const before = this.previous.rows;
    const rows = data ? compareRows(data.rows, before.rows).map((row) => ({ label: changeLabel(row.change), rank: changeRank(row.change) })) : undefined;
    const totals = data ? compareTotals(data.totals, before.totals) : undefined;
    return {
      status: 'ready',
      message: before.leftOut,
      previousLabel,
      totals: totals && { human: changeLabel(totals.human), ai: changeLabel(totals.ai), total: changeLabel(totals.total) },
      rows,
    };
  }
}

function label(period: { dateFrom: string; dateTo: string }): string {
  return `${period.dateFrom} to ${addDays(period.dateTo, -1)}`;
}
