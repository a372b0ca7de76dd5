// Checks on what we are about to send. A bad input is a clear ApiError('invalidInput') and no
// request: the platform's rate limits are too tight to spend a request learning that a limit is 0.
import { ENDPOINTS, type Endpoint, type ListQuery } from './endpoints';
import { ApiError, type InputProblem } from './errors';
import { SEARCH_MAX_PAGE_SIZE, type SearchQuery } from './searchSchemas';

/** The query of the panel's pages (visitors, views). */
export type VisitorsQuery = Pick<ListQuery, 'dateFrom' | 'dateTo' | 'limit' | 'offset'>;

/** The largest page of the panel's lists (visitors, views): what its page size setting allows. */
export const MAX_PAGE_SIZE = ENDPOINTS.getVisitors.pageSize;

/** `message` is English, for the log; the failure table words `problem` (with `subject`) for the user. */
function invalid(message: string, problem: InputProblem, subject?: string | number): ApiError {
  return new ApiError('invalidInput', message, { details: [message], problem, ...(subject !== undefined && { subject: String(subject) }) });
}

/**
 * Project and job ids go into the URL path. Encoding keeps `a/b` or `a?b` inside one segment, but
 * URL parsers resolve `.` and `..` segments (even percent-encoded), so those can never be sent.
 */
export function checkId(what: 'project' | 'job' | 'status', id: string): string {
  const trimmed = id.trim();
  if (!trimmed) throw invalid(`The ${what} ID is empty.`, what === 'project' ? 'emptyProjectId' : what === 'job' ? 'emptyJobId' : 'badStatusId');
  if (trimmed === '.' || trimmed === '..')
    throw invalid(`"${trimmed}" is not a valid ${what} ID.`, what === 'project' ? 'badProjectId' : what === 'job' ? 'badJobId' : 'badStatusId', trimmed);
  return trimmed;
}

/** A preview's branch: the platform requires one (400 otherwise); sent as named, never trimmed into another. */
export function checkBranch(branch: string): string {
  if (!branch.trim()) throw invalid('The branch name is empty.', 'emptyBranch');
  return branch;
}

export function checkPrompt(prompt: string): string {
  if (!prompt.trim()) throw invalid('The prompt is empty. Type an instruction for the agent.', 'emptyPrompt');
  return prompt;
}

/** The longest search term sent: a reader's search is a few words; a longer "term" is not one to replay. */
export const MAX_SEARCH_QUERY = 500;

/**
 * The site's domain identifier (`<domain>.mintlify.site`, the end of the dashboard's URL) goes into
 * the path: letters, digits, `-`, `_` and `.` only (never `.` or `..` alone), so it stays one segment.
 */
export function checkDomain(domain: string): string {
  const trimmed = domain.trim();
  if (!trimmed) throw invalid("The site's domain identifier is empty.", 'emptyDomain');
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(trimmed) || /^\.{1,2}$/.test(trimmed))
    throw invalid(`"${trimmed.slice(0, 100)}" is not a site domain identifier.`, 'badDomain', trimmed.slice(0, 100));
  return trimmed;
}

/** A search's body: a term of 1 to MAX_SEARCH_QUERY characters, and a page size of 1 to 50 when given. */
export function checkSearch(search: SearchQuery): SearchQuery {
  const { query, pageSize } = search;
  if (typeof query !== 'string' || !query.trim()) throw invalid('The search term is empty.', 'emptySearchQuery');
  if (query.length > MAX_SEARCH_QUERY) throw invalid(`The search term is longer than ${MAX_SEARCH_QUERY} characters.`, 'longSearchQuery', query.length);
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > SEARCH_MAX_PAGE_SIZE))
    throw invalid(`A search's page size must be a whole number from 1 to ${SEARCH_MAX_PAGE_SIZE} (got ${pageSize}).`, 'searchPageSize', pageSize);
  return { query, ...(pageSize !== undefined && { pageSize }) };
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Parses `YYYY-MM-DD` (as UTC midnight) or an ISO 8601 date-time; undefined when it is not a real date. */
export function parseApiDate(value: string): number | undefined {
  const match = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  // Date.UTC rolls 2025-02-30 over to March; a real date survives the round trip.
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return undefined;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? undefined : time;
}

/** An assistant thread ID is a ULID. */
export function checkThreadId(id: string): string {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(id.trim()))
    throw new ApiError('invalidInput', `"${id.slice(0, 40)}" is not an assistant thread ID.`, {
      details: [`"${id.slice(0, 40)}" is not an assistant thread ID.`],
    });
  return id.trim();
}

/**
 * Checks a query against its endpoint (the page size it allows, what its paging kind takes) and
 * turns it into search parameters, sending only what was given.
 */
export function checkQuery(endpoint: Endpoint, query: ListQuery): Record<string, string> {
  const { dateFrom, dateTo, limit, offset, cursor, status, source } = query;
  const max = 'pageSize' in endpoint ? endpoint.pageSize : 0;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > max)) {
    throw invalid(`Page size must be a whole number from 1 to ${max} (got ${limit}).`, 'pageSize', limit);
  }
  if (offset !== undefined && (endpoint.paging !== 'offset' || !Number.isSafeInteger(offset) || offset < 0)) {
    throw invalid(`Offset must be a whole number of 0 or more (got ${offset}).`, 'offset', offset);
  }
  if (cursor !== undefined && endpoint.paging !== 'cursor') throw new ApiError('invalidInput', `${endpoint.path} takes no cursor.`);
  if ((status !== undefined || source !== undefined) && !('filters' in endpoint))
    throw new ApiError('invalidInput', `${endpoint.path} takes no status or source.`);
  const from = dateFrom === undefined ? undefined : parseApiDate(dateFrom);
  if (dateFrom !== undefined && from === undefined) throw invalid(`"${dateFrom}" is not a valid start date (use YYYY-MM-DD).`, 'startDate', dateFrom);
  const to = dateTo === undefined ? undefined : parseApiDate(dateTo);
  if (dateTo !== undefined && to === undefined) throw invalid(`"${dateTo}" is not a valid end date (use YYYY-MM-DD).`, 'endDate', dateTo);
  if (from !== undefined && to !== undefined && from >= to) {
    throw invalid(`The start date ${dateFrom} must be before the end date ${dateTo}.`, 'dateOrder', dateFrom);
  }
  const given = { dateFrom, dateTo, limit, offset, cursor, status, source };
  return Object.fromEntries(Object.entries(given).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])));
}
