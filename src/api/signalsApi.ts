// The reader-signals calls (issue 15), on the client's one `call` so they share its key handling,
// deadlines, error mapping and request log. Inputs are checked before anything is sent.
import type * as z from 'zod/mini';
import { ApiError } from './errors';
import { checkId, parseApiDate } from './inputs';
import { AssistantPage, AssistantThread, FeedbackByPage, FeedbackPage, SearchesPage, ViewsPage } from './signalsSchemas';

/** The client's request function, as signalsApi needs it: a GET of an encoded path and query. */
export type ApiCall = <T>(request: { method: 'get'; target: string; signal?: AbortSignal }, schema: z.ZodMiniType<T>) => Promise<T>;

export interface SignalsQuery {
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  /** views only */
  offset?: number;
  /** feedback, searches, assistant */
  cursor?: string;
  /** feedback and feedback/by-page: comma-separated statuses, e.g. `pending`. */
  status?: string;
  /** feedback and feedback/by-page */
  source?: 'code_snippet' | 'contextual' | 'agent' | 'thumbs_only';
}

/** The largest page each endpoint allows (the OpenAPI's `limit` maximum). */
export const SIGNALS_MAX_LIMIT = { feedbackByPage: 100, feedback: 100, assistant: 1000, searches: 100, views: 250 } as const;
type Endpoint = keyof typeof SIGNALS_MAX_LIMIT;

export interface SignalsApi {
  getFeedbackByPage(projectId: string, query: SignalsQuery, options?: { signal?: AbortSignal }): Promise<FeedbackByPage>;
  getFeedback(projectId: string, query: SignalsQuery, options?: { signal?: AbortSignal }): Promise<FeedbackPage>;
  getAssistant(projectId: string, query: SignalsQuery, options?: { signal?: AbortSignal }): Promise<AssistantPage>;
  getAssistantThread(projectId: string, threadId: string, options?: { signal?: AbortSignal }): Promise<AssistantThread>;
  getSearches(projectId: string, query: SignalsQuery, options?: { signal?: AbortSignal }): Promise<SearchesPage>;
  getViews(projectId: string, query: SignalsQuery, options?: { signal?: AbortSignal }): Promise<ViewsPage>;
}

export function signalsApi(call: ApiCall): SignalsApi {
  const list = <T>(endpoint: Endpoint, resource: string[], schema: z.ZodMiniType<T>) =>
    (projectId: string, query: SignalsQuery, { signal }: { signal?: AbortSignal } = {}) => {
      const params = searchParamsOf(endpoint, query);
      const search = Object.keys(params).length ? `?${new URLSearchParams(params).toString()}` : '';
      return call({ method: 'get', target: pathOf('v1', 'analytics', checkId('project', projectId), ...resource) + search, signal }, schema);
    };
  return {
    getFeedbackByPage: list('feedbackByPage', ['feedback', 'by-page'], FeedbackByPage),
    getFeedback: list('feedback', ['feedback'], FeedbackPage),
    getAssistant: list('assistant', ['assistant'], AssistantPage),
    getSearches: list('searches', ['searches'], SearchesPage),
    getViews: list('views', ['views'], ViewsPage),
    getAssistantThread: (projectId, threadId, { signal } = {}) =>
      call({ method: 'get', target: pathOf('v1', 'analytics', checkId('project', projectId), 'assistant', 'threads', checkThreadId(threadId)), signal }, AssistantThread),
  };
}

/** Each segment encoded, so an id stays inside its segment. */
function pathOf(...segments: string[]): string {
  return '/' + segments.map(encodeURIComponent).join('/');
}

function invalid(message: string): ApiError {
  return new ApiError('invalidInput', message, { details: [message] });
}

function checkThreadId(id: string): string {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(id.trim())) throw invalid(`"${id.slice(0, 40)}" is not an assistant thread ID.`);
  return id.trim();
}

/** Checks a query and turns it into search parameters, sending only what was given. */
function searchParamsOf(endpoint: Endpoint, query: SignalsQuery): Record<string, string> {
  const max = SIGNALS_MAX_LIMIT[endpoint];
  const { dateFrom, dateTo, limit, offset, cursor, status, source } = query;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > max)) throw invalid(`Page size must be a whole number from 1 to ${max} (got ${limit}).`);
  if (offset !== undefined && (endpoint !== 'views' || !Number.isSafeInteger(offset) || offset < 0)) throw invalid(`Offset must be a whole number of 0 or more (got ${offset}).`);
  const from = dateFrom === undefined ? undefined : parseApiDate(dateFrom);
  const to = dateTo === undefined ? undefined : parseApiDate(dateTo);
  if (dateFrom !== undefined && from === undefined) throw invalid(`"${dateFrom}" is not a valid start date (use YYYY-MM-DD).`);
  if (dateTo !== undefined && to === undefined) throw invalid(`"${dateTo}" is not a valid end date (use YYYY-MM-DD).`);
  if (from !== undefined && to !== undefined && from >= to) throw invalid(`The start date ${dateFrom} must be before the end date ${dateTo}.`);
  const params: Record<string, string> = {};
  if (dateFrom !== undefined) params.dateFrom = dateFrom;
  if (dateTo !== undefined) params.dateTo = dateTo;
  if (limit !== undefined) params.limit = String(limit);
  if (offset !== undefined) params.offset = String(offset);
  if (cursor !== undefined) params.cursor = cursor;
  if (status !== undefined) params.status = status;
  if (source !== undefined) params.source = source;
  return params;
}
