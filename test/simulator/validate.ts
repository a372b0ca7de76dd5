// Input checks of the simulated API. Each failure becomes one entry of the 400 body's `details`.

export const DAY_MS = 86_400_000;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 extended date-time: minutes required, seconds and fraction optional, offset optional.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Midnight UTC of a calendar day, or undefined if that day does not exist (2025-02-30). */
function utcDay(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.getTime();
}

/**
 * The instant (ms since epoch, possibly fractional) a date bound stands for, or undefined if it is
 * not a real `YYYY-MM-DD` day or ISO 8601 date-time. A day means its 00:00 UTC; a date-time without
 * offset is read as UTC (never as the machine's local time, so answers do not depend on the host).
 */
export function parseDateBound(text: string): number | undefined {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return utcDay(Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]));
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const day = utcDay(Number(m[1]), Number(m[2]), Number(m[3]));
  const hours = Number(m[4]);
  const minutes = Number(m[5]);
  const seconds = m[6] === undefined ? 0 : Number(m[6]);
  if (day === undefined || hours > 23 || minutes > 59 || seconds > 59) return undefined;
  // Keep sub-millisecond digits: 00:00:00.0001Z is after the day's start and must exclude that day.
  const fractionMs = m[7] === undefined ? 0 : Number(`0.${m[7]}`) * 1000;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMins = zone.length > 3 ? Number(zone.slice(-2)) : 0;
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  return day + ((hours * 60 + minutes) * 60 + seconds) * 1000 + fractionMs - offsetMinutes * 60_000;
}

/** An integer written in decimal digits (optionally negative), within the safe range; else undefined. */
function parseInteger(text: string): number | undefined {
  if (!/^-?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** Checks a POST body: a JSON object with a non-blank string `prompt`. */
export function checkPromptBody(contentType: string | undefined, text: string): Checked<string> {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') return { ok: false, errors: ['Content-Type must be application/json'] };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, errors: ['Request body must be valid JSON'] };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: ['Request body must be a JSON object'] };
  }
  const prompt: unknown = (body as Record<string, unknown>).prompt;
  if (prompt === undefined) return { ok: false, errors: ['prompt is required'] };
  if (typeof prompt !== 'string') return { ok: false, errors: ['prompt must be a string'] };
  if (prompt.trim() === '') return { ok: false, errors: ['prompt must not be empty'] };
  return { ok: true, value: prompt };
}

export interface VisitorsQuery {
  fromMs?: number;
  toMs?: number;
  limit: number;
  offset: number;
}

/** Checks the visitors query string; reports every problem at once. Unknown parameters are ignored. */
export function checkVisitorsQuery(params: URLSearchParams): Checked<VisitorsQuery> {
  const errors: string[] = [];
  const single = (name: string): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) errors.push(`${name} must be given at most once`);
    return values.length === 1 ? values[0] : undefined;
  };
  const query: VisitorsQuery = { limit: 50, offset: 0 };

  const limit = single('limit');
  if (limit !== undefined) {
    const value = parseInteger(limit);
    if (value === undefined || value < 1 || value > 250) errors.push('limit must be an integer between 1 and 250');
    else query.limit = value;
  }
  const offset = single('offset');
  if (offset !== undefined) {
    const value = parseInteger(offset);
    if (value === undefined || value < 0) errors.push('offset must be a non-negative integer');
    else query.offset = value;
  }
  const range = checkRange({ dateFrom: single('dateFrom'), dateTo: single('dateTo') });
  if (range.ok) Object.assign(query, range.value);
  else errors.push(...range.errors);

  return errors.length ? { ok: false, errors } : { ok: true, value: query };
}

/** Checks dateFrom/dateTo: each a valid date, and dateFrom strictly before dateTo when both are given. */
export function checkRange(range: { dateFrom?: string; dateTo?: string }): Checked<{ fromMs?: number; toMs?: number }> {
  const errors: string[] = [];
  const value: { fromMs?: number; toMs?: number } = {};
  for (const [name, key] of [
    ['dateFrom', 'fromMs'],
    ['dateTo', 'toMs'],
  ] as const) {
    const text = range[name];
    if (text === undefined) continue;
    const instant = parseDateBound(text);
    if (instant === undefined) errors.push(`${name} must be a date in YYYY-MM-DD or ISO 8601 date-time format`);
    else value[key] = instant;
  }
  if (value.fromMs !== undefined && value.toMs !== undefined && value.fromMs >= value.toMs) {
    errors.push('dateFrom must be before dateTo');
  }
  return errors.length ? { ok: false, errors } : { ok: true, value };
}

/** How one analytics endpoint pages and filters (from the OpenAPI document). */
export interface AnalyticsQuerySpec {
  defaultLimit: number;
  maxLimit: number;
  /** `offset` (views), an opaque or ULID `cursor` (feedback, searches, assistant), or none (feedback/by-page). */
  paging: 'offset' | 'cursor' | 'ulidCursor' | 'none';
  /** `source` and `status` filters (feedback and feedback/by-page). */
  filters?: boolean;
}

export interface AnalyticsQuery {
  fromMs?: number;
  toMs?: number;
  limit: number;
  offset: number;
  cursor?: string;
  source?: string;
  statuses?: string[];
}

const SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'];
const STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'];
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Checks the query of a reader-signals endpoint; reports every problem at once. Unknown parameters are ignored. */
export function checkAnalyticsQuery(params: URLSearchParams, spec: AnalyticsQuerySpec): Checked<AnalyticsQuery> {
  const errors: string[] = [];
  const single = (name: string): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) errors.push(`${name} must be given at most once`);
    return values.length === 1 ? values[0] : undefined;
  };
  const query: AnalyticsQuery = { limit: spec.defaultLimit, offset: 0 };
  const limit = single('limit');
  if (limit !== undefined) {
    const value = parseInteger(limit);
    if (value === undefined || value < 1 || value > spec.maxLimit) errors.push(`limit must be an integer between 1 and ${spec.maxLimit}`);
    else query.limit = value;
  }
  if (spec.paging === 'offset') {
    const offset = single('offset');
    if (offset !== undefined) {
      const value = parseInteger(offset);
      if (value === undefined || value < 0) errors.push('offset must be a non-negative integer');
      else query.offset = value;
    }
  }
  if (spec.paging === 'cursor' || spec.paging === 'ulidCursor') {
    const cursor = single('cursor');
    if (cursor !== undefined) {
      if (spec.paging === 'ulidCursor' && !ULID.test(cursor)) errors.push('cursor must be a ULID');
      else query.cursor = cursor;
    }
  }
  if (spec.filters) {
    const source = single('source');
    if (source !== undefined && !SOURCES.includes(source)) errors.push(`source must be one of ${SOURCES.join(', ')}`);
    else if (source !== undefined) query.source = source;
    const status = single('status');
    if (status !== undefined) {
      const statuses = status.split(',').map((s) => s.trim());
      const unknown = statuses.filter((s) => !STATUSES.includes(s));
      if (unknown.length) errors.push(`status must be a comma-separated list of ${STATUSES.join(', ')}`);
      else query.statuses = statuses;
    }
  }
  const range = checkRange({ dateFrom: single('dateFrom'), dateTo: single('dateTo') });
  if (range.ok) Object.assign(query, range.value);
  else errors.push(...range.errors);
  return errors.length ? { ok: false, errors } : { ok: true, value: query };
}
