// The one HTTP client. ky does the transport and timeouts; this module adds the key, builds safe
// URLs, parses bodies with the schemas and turns every failure into an ApiError.
import ky, { HTTPError, TimeoutError } from 'ky';
import * as z from 'zod/mini';
import { checkBaseUrl } from './baseUrl';
import { ApiError, parseRetryAfter } from './errors';
import { checkId, checkPrompt, checkVisitorsQuery, type VisitorsQuery } from './inputs';
import { AgentJob, ErrorBody, type PromptBody, VisitorsPage } from './schemas';
import { type SignalsApi, signalsApi } from './signalsApi';

export interface RequestLogEntry {
  method: string;
  /** Path and query only: never the host's credentials, never the key. */
  path: string;
  /** HTTP status, or undefined when no response came back. */
  status: number | undefined;
  /** False when the call stopped before anything left this machine (no key, insecure base URL). */
  sent: boolean;
  /** When the request started (ms since the epoch) and how long it took. */
  startedAt: number;
  durationMs: number;
  error?: ApiError;
}

export interface ApiClientOptions {
  /** Read before every request, so a settings change applies at once. */
  baseUrl: () => string;
  /** Read before every request; undefined means no key is stored. */
  getApiKey: () => Promise<string | undefined>;
  /** Per attempt. Read before every request. */
  timeoutMs?: () => number;
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiClient extends SignalsApi {
  getJob(projectId: string, jobId: string, options?: CallOptions): Promise<AgentJob>;
  createJob(projectId: string, prompt: string, options?: CallOptions): Promise<AgentJob>;
  sendMessage(projectId: string, jobId: string, prompt: string, options?: CallOptions): Promise<AgentJob>;
  getVisitors(projectId: string, query: VisitorsQuery, options?: CallOptions): Promise<VisitorsPage>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  // No automatic retries: with 100 requests an hour, every request is one that the scheduler (with
  // its backoff) or the user (with a Retry button) chose to make. A POST is never repeated.
  // Redirects are refused: the Authorization header must never follow one to another host.
  const http = ky.create({ retry: 0, throwHttpErrors: true, redirect: 'error' });

  async function call<T>(
    method: 'get' | 'post',
    segments: readonly string[],
    schema: z.ZodMiniType<T>,
    init: { json?: unknown; searchParams?: Record<string, string>; signal?: AbortSignal },
  ): Promise<T> {
    const path = '/' + segments.map(encodeURIComponent).join('/');
    const query = init.searchParams && Object.keys(init.searchParams).length ? '?' + new URLSearchParams(init.searchParams).toString() : '';
    const startedAt = Date.now();
    const started = performance.now();
    const log = (status: number | undefined, error?: ApiError, sent = true) =>
      options.onRequest?.({ method: method.toUpperCase(), path: path + query, status, sent, startedAt, durationMs: performance.now() - started, ...(error && { error }) });

    let base: string;
    let key: string | undefined;
    try {
      base = checkBaseUrl(options.baseUrl());
      key = await options.getApiKey();
      if (!key) throw new ApiError('noApiKey', 'No Mintlify API key is set. Run "Mintlify: Set API Key".');
    } catch (error) {
      // Logged too, so "no request" can be told apart from "no attempt".
      if (error instanceof ApiError) log(undefined, error, false);
      throw error;
    }

    let response: Response;
    try {
      response = await http(base + path + query, {
        method,
        json: init.json,
        signal: init.signal,
        timeout: options.timeoutMs?.() ?? DEFAULT_TIMEOUT_MS,
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
      });
    } catch (cause) {
      const error = await toApiError(cause, base);
      log(error.status, error);
      throw error;
    }
    try {
      const value = parseBody(schema, await response.text());
      log(response.status);
      return value;
    } catch (cause) {
      const error = cause instanceof ApiError ? cause : new ApiError('network', 'The connection closed before the answer was complete.', { cause });
      log(response.status, error);
      throw error;
    }
  }

  return {
    async getJob(projectId, jobId, { signal } = {}) {
      return call('get', ['v2', 'agent', checkId('project', projectId), 'job', checkId('job', jobId)], AgentJob, { signal });
    },
    async createJob(projectId, prompt, { signal } = {}) {
      return call('post', ['v2', 'agent', checkId('project', projectId), 'job'], AgentJob, {
        json: promptBody(prompt),
        signal,
      });
    },
    async sendMessage(projectId, jobId, prompt, { signal } = {}) {
      return call('post', ['v2', 'agent', checkId('project', projectId), 'job', checkId('job', jobId), 'message'], AgentJob, {
        json: promptBody(prompt),
        signal,
      });
    },
    async getVisitors(projectId, query, { signal } = {}) {
      const { dateFrom, dateTo, limit, offset } = checkVisitorsQuery(query);
      const searchParams: Record<string, string> = {};
      if (dateFrom !== undefined) searchParams.dateFrom = dateFrom;
      if (dateTo !== undefined) searchParams.dateTo = dateTo;
      if (limit !== undefined) searchParams.limit = String(limit);
      if (offset !== undefined) searchParams.offset = String(offset);
      return call('get', ['v1', 'analytics', checkId('project', projectId), 'visitors'], VisitorsPage, { searchParams, signal });
    },
    ...signalsApi(call),
  };
}

function promptBody(prompt: string): PromptBody {
  return { prompt: checkPrompt(prompt) };
}

/** Parses a 2xx body; the message names the first field that breaks the contract. */
function parseBody<T>(schema: z.ZodMiniType<T>, text: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ApiError('invalidResponse', 'The Mintlify API sent an answer that is not valid JSON.', { cause });
  }
  const result = z.safeParse(schema, json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : 'the body';
  throw new ApiError('invalidResponse', `The Mintlify API sent an unexpected answer: ${field} ${describeIssue(issue)}.`, {
    details: [z.prettifyError(result.error)],
  });
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  switch (issue?.code) {
    case 'invalid_type':
      return `should be ${issue.expected === 'nonoptional' ? 'present' : `a ${issue.expected}`}`;
    case 'too_small':
      return issue.origin === 'string' ? 'is empty' : 'is too small';
    default:
      return 'is not valid';
  }
}

async function toApiError(cause: unknown, base: string): Promise<ApiError> {
  if (cause instanceof ApiError) return cause;
  if (cause instanceof HTTPError) return fromResponse(cause.response, cause);
  if (cause instanceof TimeoutError) {
    return new ApiError('timeout', 'The Mintlify API did not answer in time.', { cause });
  }
  if (cause instanceof Error && cause.name === 'AbortError') {
    return new ApiError('cancelled', 'The request was cancelled.', { cause });
  }
  const code = networkCode(cause);
  return new ApiError('network', `Could not reach ${new URL(base).host}${code ? ` (${code})` : ''}. Check your connection.`, { cause });
}

/** node's fetch reports `TypeError: fetch failed` with the socket error as its cause. */
function networkCode(cause: unknown): string | undefined {
  const inner = cause instanceof Error ? (cause.cause as { code?: unknown } | undefined) : undefined;
  return typeof inner?.code === 'string' ? inner.code : undefined;
}

async function fromResponse(response: Response, cause: unknown): Promise<ApiError> {
  const status = response.status;
  const body = z.safeParse(ErrorBody, await response.json().catch(() => undefined));
  const serverMessage = body.success ? body.data.error : undefined;
  const details = body.success ? (body.data.details ?? []).map((d) => d.message) : [];
  const init = { status, details, cause };
  const said = serverMessage ? `: ${serverMessage}` : '';
  if (status === 401) return new ApiError('unauthorized', 'The Mintlify API did not accept the API key (401). Set a valid admin API key.', init);
  if (status === 403) {
    return new ApiError('forbidden', 'The API key is not allowed to do this (403): it may be read-only, or this IP address is not on the allow-list.', init);
  }
  if (status === 404) return new ApiError('notFound', `Not found (404)${said}.`, init);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
    return new ApiError('rateLimited', 'The Mintlify API rate limit is reached (429).', { ...init, retryAfterMs });
  }
  if (status >= 500) {
    const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
    return new ApiError('serverError', `The Mintlify API had a problem (${status}). Try again in a moment.`, { ...init, retryAfterMs });
  }
  const detail = details.length ? ` ${details.join(' ')}` : '';
  return new ApiError('invalidRequest', `The Mintlify API rejected the request (${status})${said}.${detail}`, init);
}
