// The panel's two metrics on the one paging code: unique visitors (`GET …/visitors`) and view events
// (`GET …/views`). Both answer totals, rows of {path, human, ai, total} and `hasMore`, paged by
// limit/offset up to 250, so a views page is read as a visitors page and everything downstream
// (memory, paging, export) is shared. vscode for its types only (erased): the import is how
// `npm run l10n` knows the l10n.t call below is vscode's. Unit-tested directly.
import type * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { Metric } from '../shared/protocol';
import type { FetchVisitors } from './visitorsQuery';

/** The API calls a metric needs (the client, or a fake of it). */
export type MetricApi = Pick<ApiClient, 'getVisitors' | 'getViews'>;

/** The page request of a metric, answered in the visitors shape. */
export function fetcherFor(api: MetricApi, metric: Metric): FetchVisitors {
  if (metric === 'visitors') return (projectId, query, options) => api.getVisitors(projectId, query, options);
  return async (projectId, query, options) => {
    const page = await api.getViews(projectId, { dateFrom: query.dateFrom, dateTo: query.dateTo, limit: query.limit, offset: query.offset }, options);
    return { totals: page.totals, visitors: page.views, hasMore: page.hasMore };
  };
}

/** The file an export of a metric is saved as by default. */
export function exportFileStem(metric: Metric): string {
  return metric === 'visitors' ? 'visitors' : 'views';
}

/** Compare reads the readers' visitors snapshots: there is no previous period of view events. */
export function compareUnavailableFor(metric: Metric, l10n: Pick<typeof vscode.l10n, 't'>): string | undefined {
  return metric === 'views' ? l10n.t('Comparing covers unique visitors only.') : undefined;
}
