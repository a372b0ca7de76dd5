// Checks on what we are about to send. A bad input is a clear ApiError('invalidInput') and no
// request: the platform's rate limits are too tight to spend a request learning that a limit is 0.
import { ApiError, type InputProblem } from './errors';

export interface VisitorsQuery {
  /** Inclusive lower bound, `YYYY-MM-DD` or an ISO 8601 date-time. */
  dateFrom?: string;
  /** Exclusive upper bound, `YYYY-MM-DD` or an ISO 8601 date-time. */
  dateTo?: string;
  /** Rows per page, 1..250; the API's default is 50. */
  limit?: number;
  /** Rows to skip, >= 0. */
  offset?: number;
}

export const MAX_PAGE_SIZE = 250;

/** `message` is English, for the log; the failure table words `problem` (with `subject`) for the user. */
function invalid(message: string, problem: InputProblem, subject?: string | number): ApiError {
  return new ApiError('invalidInput', message, { details: [message], problem, ...(subject !== undefined && { subject: String(subject) }) });
}

/**
 * Project and job ids go into the URL path. Encoding keeps `a/b` or `a?b` inside one segment, but
 * URL parsers resolve `.` and `..` segments (even percent-encoded), so those can never be sent.
 */
export function checkId(what: 'project' | 'job', id: string): string {
  const trimmed = id.trim();
  if (!trimmed) throw invalid(`The ${what} ID is empty.`, what === 'project' ? 'emptyProjectId' : 'emptyJobId');
  if (trimmed === '.' || trimmed === '..') throw invalid(`"${trimmed}" is not a valid ${what} ID.`, what === 'project' ? 'badProjectId' : 'badJobId', trimmed);
  return trimmed;
}

export function checkPrompt(prompt: string): string {
  if (!prompt.trim()) throw invalid('The prompt is empty. Type an instruction for the agent.', 'emptyPrompt');
  return prompt;
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

export function checkVisitorsQuery(query: VisitorsQuery): VisitorsQuery {
  const { dateFrom, dateTo, limit, offset } = query;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)) {
    throw invalid(`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE} (got ${limit}).`, 'pageSize', limit);
  }
  if (offset !== undefined && (!Number.isSafeInteger(offset) || offset < 0)) {
    throw invalid(`Offset must be a whole number of 0 or more (got ${offset}).`, 'offset', offset);
  }
  const from = dateFrom === undefined ? undefined : parseApiDate(dateFrom);
  if (dateFrom !== undefined && from === undefined) throw invalid(`"${dateFrom}" is not a valid start date (use YYYY-MM-DD).`, 'startDate', dateFrom);
  const to = dateTo === undefined ? undefined : parseApiDate(dateTo);
  if (dateTo !== undefined && to === undefined) throw invalid(`"${dateTo}" is not a valid end date (use YYYY-MM-DD).`, 'endDate', dateTo);
  if (from !== undefined && to !== undefined && from >= to) {
    throw invalid(`The start date ${dateFrom} must be before the end date ${dateTo}.`, 'dateOrder', dateFrom);
  }
  return query;
}
