// The trend's one fetch of a bucket (FetchTotals): the site's is one `limit=1` request (the API's
// totals for its range); a page's is every page of 250 paths of its range, up to the readers' cap,
// and the page's row in them, found by the readers' own matching; a settled bucket's rows are kept
// (bucketRows.ts) for the next page's trend. vscode for its types only (erased): the import is how
// `npm run l10n` finds the l10n.t call. Unit-tested against the simulator.
import type * as vscode from 'vscode';
import { type ApiClient, isApiError } from '../../api';
import { addDays } from '../../util/days';
import type { BucketRows } from './bucketRows';
import { fetcherFor } from '../metric';
import { type FetchTotals, TrendCutShort } from './trendSeries';
import { fetchAllVisitors } from '../visitorsQuery';
import { readersOf } from '../visitorsSnapshot';

/** `maxPages`: the readers' cap on the pages of one range (readers.maxPages). */
export function trendTotals(api: ApiClient, rows: BucketRows, maxPages: () => number | undefined, l10n: Pick<typeof vscode.l10n, 't'>): FetchTotals {
  const fetchers = { visitors: fetcherFor(api, 'visitors'), views: fetcherFor(api, 'views') };
  return async (projectId, { metric, path }, range, { signal, grant, settled }) => {
    if (path === undefined) {
      try {
        return (await fetchers[metric](projectId, { ...range, limit: 1, offset: 0 }, { signal, grant })).totals;
      } catch (error) {
        throw isApiError(error) && error.kind === 'notGranted' ? new TrendCutShort() : error;
      }
    }
    // Every page is reserved by the grant; the paging rule ends the fetch, cut short, when it gives no more.
    const all = await fetchAllVisitors(fetchers.visitors, projectId, range, { signal, maxPages: maxPages(), grant });
    const snapshot = { key: { projectId, ...range }, totals: all.totals, rows: all.rows, fetchedAt: 0, pages: all.pages, capped: all.cutShort !== undefined };
    // A bucket the hour cut short is not whole: not kept.
    if (settled && all.cutShort?.reason !== 'notGranted') rows.keep(snapshot);
    const found = readersOf(snapshot, path);
    if (found.kind === 'read') return found.row;
    if (found.kind === 'none') return { human: 0, ai: 0, total: 0 };
    if (all.cutShort?.reason === 'notGranted') throw new TrendCutShort();
    throw new Error(
      l10n.t(
        '{0} is not among the top {1} pages read from {2} to {3}, as far as the readers.maxPages setting lets a fetch go.',
        path,
        found.covered,
        range.dateFrom,
        addDays(range.dateTo, -1),
      ),
    );
  };
}
