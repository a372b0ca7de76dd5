// Every endpoint of the platform this extension uses, once. From this table follow the typed
// client (client.ts: one method per entry), the shared-429 gate (by `family`), the query checks
// (inputs.ts: what each paging kind may send) and the paging rule (paging.ts: how deep a fetch
// may read and when it stops). Adding an endpoint is one entry here, its schema, and the code
// that uses it.
//
// `path`: `{projectId}`, `{jobId}`, `{threadId}` are the method's leading arguments, in order,
//   checked (inputs.ts) and encoded one segment each.
// `family`: the platform's rate-limit bucket. agent: 100 an hour per project, counting creating a
//   job and sending a follow-up; analytics: 100 requests an hour for the whole organisation, every
//   analytics endpoint together; preview: 5 preview deployments a minute for the organisation;
//   search: the site's own search, 10,000 an hour for the organisation, never the analytics hour
//   (FAMILIES says each family's limit and deadline). A 429 holds back the whole family (every window).
// `key: 'assistant'`: sent with the assistant API key (its own slot), not the admin key.
// `counted: false`: the platform does not count the endpoint in its family's hour (reading a job's
//   status: its limit is on the two sends), so neither does the shared ledger; the poller's own
//   rules bound it (poll/statusPoller.ts).
// `paging`: cursor (`cursor` → `nextCursor`), offset (`offset` → `hasMore`), none (one request).
// `pageSize`: the largest `limit` the OpenAPI allows, which is what every fetch asks for (the
//   fewest requests for the same rows).
// `maxPages`: the depth cap, the most pages one fetch may read; reaching it is not an error, the
//   result says it was cut short (paging.ts). Each cap is above what the simulator's large site
//   (10,000 paths, 20,000 assistant turns over 121 days) needs for the ranges the views read, so
//   the cap never costs a real site a request; and none is above 100, the organisation's whole
//   analytics hour, which no single fetch could spend past anyway.
// `rowId`: what makes a row the same row, so a page that brings nothing new ends the fetch.
import type * as z from 'zod/mini';
import { AgentJob, VisitorsPage } from './schemas';
import { PreviewDeployment, UpdateStatus } from './previewSchemas';
import { AssistantPage, AssistantThread, FeedbackByPage, FeedbackPage, SearchesPage, ViewsPage } from './signalsSchemas';
import { SearchResults } from './searchSchemas';

export type Family = 'agent' | 'analytics' | 'preview' | 'search';

/**
 * Each family's own limit (what the platform allows, per `perMs`) and, where it has one, its own
 * deadline per request. A preview's status is a small answer read again and again while a build
 * runs: one that takes longer than 15 s is retried by the poller's backoff rather than waited for.
 * A search answers in well under a second: one that takes 15 s is reported, not waited for.
 */
export const FAMILIES: Record<Family, { limit: number; perMs: number; deadlineMs?: number }> = {
  agent: { limit: 100, perMs: 3_600_000 },
  analytics: { limit: 100, perMs: 3_600_000 },
  preview: { limit: 5, perMs: 60_000, deadlineMs: 15_000 },
  search: { limit: 10_000, perMs: 3_600_000, deadlineMs: 15_000 },
};
export type Paging = 'cursor' | 'offset' | 'none';

interface Common<S extends z.ZodMiniType> {
  method: 'GET' | 'POST';
  path: string;
  schema: S;
  family: Family;
  /** False: not counted in the family's hour (the table's head says why). */
  counted?: false;
  /** POSTs whose body is `{ prompt }`, `{ branch }` or a search (`{ query, pageSize }`): the method takes it after the path's ids. */
  body?: 'prompt' | 'branch' | 'search';
  /** Sent with the assistant API key instead of the admin key. */
  key?: 'assistant';
}

/** One request answers everything (a job, a thread, the top feedback pages). */
interface Single<S extends z.ZodMiniType> extends Common<S> {
  paging: 'none';
}

/**
 * A list read page after page; its method takes a query after the path's ids (dates, limit, and
 * what its paging kind allows). `rows` picks a page's rows, `rowId` names a row.
 */
interface List<S extends z.ZodMiniType, R> extends Common<S> {
  paging: Paging;
  /** Takes `status` and `source`. */
  filters?: true;
  pageSize: number;
  maxPages: number;
  rows(page: z.output<S>): readonly R[];
  rowId(row: R): string;
}

export type Endpoint = Single<z.ZodMiniType> | List<z.ZodMiniType, unknown>;

/** Types a list entry's `rows` and `rowId` by its schema (and keeps its path's ids for the method's type). */
const list = <S extends z.ZodMiniType, R, const P extends string>(entry: List<S, R> & { path: P }) => entry;

export const ENDPOINTS = {
  getJob: { method: 'GET', path: '/v2/agent/{projectId}/job/{jobId}', schema: AgentJob, family: 'agent', counted: false, paging: 'none' },
  createJob: { method: 'POST', path: '/v2/agent/{projectId}/job', body: 'prompt', schema: AgentJob, family: 'agent', paging: 'none' },
  sendMessage: { method: 'POST', path: '/v2/agent/{projectId}/job/{jobId}/message', body: 'prompt', schema: AgentJob, family: 'agent', paging: 'none' },
  // The External API: deploys a branch as a preview (or redeploys it), and the status of that deployment.
  createPreview: { method: 'POST', path: '/v1/project/preview/{projectId}', body: 'branch', schema: PreviewDeployment, family: 'preview', paging: 'none' },
  getUpdateStatus: { method: 'GET', path: '/v1/project/update-status/{statusId}', schema: UpdateStatus, family: 'preview', counted: false, paging: 'none' },
  // The discovery API (server `<base>/discovery`): the live site's search, as readers search it. Not
  // counted in the ledger: its limit is 100 times the analytics hour, and each search is one a writer
  // asked for (a check, a replay of a job's terms), so only a 429's wait is shared.
  searchSite: {
    method: 'POST',
    path: '/discovery/v1/search/{domain}',
    body: 'search',
    key: 'assistant',
    schema: SearchResults,
    family: 'search',
    counted: false,
    paging: 'none',
  },
  // 100 pages of 250 is 25,000 paths: the readers' default is 40 (10,000 paths), the large site needs 40.
  getVisitors: list({
    method: 'GET',
    path: '/v1/analytics/{projectId}/visitors',
    schema: VisitorsPage,
    family: 'analytics',
    paging: 'offset',
    pageSize: 250,
    maxPages: 100,
    rows: (page) => page.visitors,
    rowId: (row) => row.path,
  }),
  getViews: list({
    method: 'GET',
    path: '/v1/analytics/{projectId}/views',
    schema: ViewsPage,
    family: 'analytics',
    paging: 'offset',
    pageSize: 250,
    maxPages: 100,
    rows: (page) => page.views,
    rowId: (row) => row.path,
  }),
  // No paging: the 100 pages with the most feedback, `hasMore` says there were more.
  getFeedbackByPage: list({
    method: 'GET',
    path: '/v1/analytics/{projectId}/feedback/by-page',
    schema: FeedbackByPage,
    family: 'analytics',
    filters: true,
    paging: 'none',
    pageSize: 100,
    maxPages: 1,
    rows: (page) => page.feedback,
    rowId: (row) => row.path,
  }),
  // 20 pages of 100 is 2,000 items in a range; the large site has 264 pending in 30 days (3 pages), 460 votes in 28 (5),
  // and the host tests' busy page about 1,000 votes in 28 days (11).
  getFeedback: list({
    method: 'GET',
    path: '/v1/analytics/{projectId}/feedback',
    schema: FeedbackPage,
    family: 'analytics',
    filters: true,
    paging: 'cursor',
    pageSize: 100,
    maxPages: 20,
    rows: (page) => page.feedback,
    rowId: (row) => row.id,
  }),
  // 10 pages of 1,000 is 10,000 turns; the large site has about 5,000 in 30 days (5 pages).
  getAssistant: list({
    method: 'GET',
    path: '/v1/analytics/{projectId}/assistant',
    schema: AssistantPage,
    family: 'analytics',
    paging: 'cursor',
    pageSize: 1000,
    maxPages: 10,
    rows: (page) => page.conversations,
    rowId: (row) => row.id,
  }),
  getAssistantThread: {
    method: 'GET',
    path: '/v1/analytics/{projectId}/assistant/threads/{threadId}',
    schema: AssistantThread,
    family: 'analytics',
    paging: 'none',
  },
  // 5 pages of 100: the 500 most searched terms (gaps worth a writer's time are at the top).
  getSearches: list({
    method: 'GET',
    path: '/v1/analytics/{projectId}/searches',
    schema: SearchesPage,
    family: 'analytics',
    paging: 'cursor',
    pageSize: 100,
    maxPages: 5,
    rows: (page) => page.searches,
    rowId: (row) => row.searchQuery,
  }),
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
/** The entry a request was sent to, by its method and its path (the query ignored); undefined for none. */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  const bare = path.split('?')[0];
  return Object.values<Endpoint>(ENDPOINTS).find((e) => e.method === method.toUpperCase() && pathPattern(e.path).test(bare));
}

function pathPattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
}

/** The query of an endpoint that takes one; inputs.ts checks it against the endpoint's paging kind. */
export interface ListQuery {
  /** Inclusive lower bound, `YYYY-MM-DD` or an ISO 8601 date-time. */
  dateFrom?: string;
  /** Exclusive upper bound, `YYYY-MM-DD` or an ISO 8601 date-time. */
  dateTo?: string;
  /** Rows per page, 1..the endpoint's pageSize. */
  limit?: number;
  /** Offset paging only: rows to skip, >= 0. */
  offset?: number;
  /** Cursor paging only: the `nextCursor` of the page before. */
  cursor?: string;
  /** feedback and feedback/by-page: comma-separated statuses, e.g. `pending`. */
  status?: string;
  /** feedback and feedback/by-page */
  source?: 'code_snippet' | 'contextual' | 'agent' | 'thumbs_only';
}
