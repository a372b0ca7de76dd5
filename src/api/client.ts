// The one HTTP client, one method per entry of the endpoint table (endpoints.ts). ky does the
// transport; this module holds back a family another window was told to wait for (429), adds
// the key, builds safe URLs, bounds every attempt by one deadline, parses bodies with the schemas
// and turns every failure into an ApiError (answers.ts reads what came back).
import ky from 'ky';
import * as z from 'zod/mini';
import { checkBaseUrl } from './baseUrl';
import { type EndpointName, ENDPOINTS, type Endpoints, FAMILIES, type Family, type ListQuery } from './endpoints';
import { ApiError, formatWait } from './errors';
import { checkBranch, checkDomain, checkId, checkPrompt, checkQuery, checkSearch, checkThreadId } from './inputs';
import type { SearchQuery } from './searchSchemas';
import { type Clock, systemClock } from '../util/clock';
import { parseBody, readText, toApiError } from './answers';

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

interface ApiClientOptions {
  /** Read before every request, so a settings change applies at once. */
  baseUrl: () => string;
  /** Read before every request; undefined means no key is stored. */
  getApiKey: () => Promise<string | undefined>;
  /** The assistant API key, for the endpoints the table marks `key: 'assistant'` (the site's search); absent: none is stored. */
  getAssistantKey?: () => Promise<string | undefined>;
  /** Per attempt, covering connect, headers and the whole body. Read before every request. */
  timeoutMs?: () => number;
  /** `mintlify-agent-analytics/<version> (VS Code <version>)`, given by the host. */
  userAgent?: string;
  /** The clock the deadline runs on: the system's, or a test's fake one. */
  timers?: Clock;
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * A 429 is shared: while this says a family must still wait (every window's ledger), a call to
   * it fails at once, unsent and unlogged, with the time left. Absent: no shared wait.
   */
  familyWaitMs?: (family: Family) => number;
  /** The user's words for that refusal (the failure table's); absent: English. */
  sharedWaitMessage?: (ms: number) => string;
  /**
   * An endpoint answered that its operation is gone (ApiError 'withdrawn'): called once, and for the
   * rest of this client's life a call to it at that base URL fails at once, unsent, so nothing asks it again.
   */
  onWithdrawn?: (endpoint: EndpointName) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * The grant of the action that asked (hour/hourGate.ts): an analytics request without one, or
   * one its grant refuses a reservation, is not sent (ApiError 'notGranted').
   */
  grant?: Grant;
}

/** Leave to spend the organisation's analytics hour, given by the one gate (hour/hourGate.ts) to one action. */
export interface Grant {
  /** One more request, reserved in the shared ledger before it is sent; undefined: not sent. */
  reserve(): Promise<Reservation | undefined>;
}

/** One request's place in the organisation's hour, taken before it is sent. */
export interface Reservation {
  /** The request has ended; never sent (`sent` false): the place is released for every window. */
  end(sent: boolean): void;
}

/** `{name}` segments of a path, in order: the method's leading string arguments. */
type PathArgs<P extends string> = P extends `${string}{${string}}${infer Rest}` ? [string, ...PathArgs<Rest>] : [];
/** After the ids: a list's query, a POST's prompt, or nothing. */
type InputArgs<E> = E extends { rowId: unknown }
  ? [query: ListQuery]
  : E extends { body: 'prompt' }
    ? [prompt: string]
    : E extends { body: 'branch' }
      ? [branch: string]
      : E extends { body: 'search' }
        ? [search: SearchQuery]
        : [];
type Method<E extends Endpoints[keyof Endpoints]> = (
  ...args: [...PathArgs<E['path']>, ...InputArgs<E>, options?: CallOptions]
) => Promise<z.output<E['schema']>>;

/** The typed client: `api.getJob(projectId, jobId)`, `api.getFeedback(projectId, query, { signal })`… */
export type ApiClient = { [K in keyof Endpoints]: Method<Endpoints[K]> };

const DEFAULT_TIMEOUT_MS = 30_000;

/** Each path id's check, by its name in the table's paths. */
const ID_CHECKS: Record<string, (id: string) => string> = {
  projectId: (id) => checkId('project', id),
  jobId: (id) => checkId('job', id),
  threadId: checkThreadId,
  statusId: (id) => checkId('status', id),
  domain: checkDomain,
};

interface Request {
  method: 'get' | 'post';
  /** Path and query, already encoded. */
  target: string;
  json?: unknown;
  signal?: AbortSignal;
  /** The family's own deadline, when shorter than the setting's (endpoints.ts FAMILIES). */
  deadlineMs?: number;
  /** Sent with the assistant API key (endpoints.ts `key`). */
  key?: 'assistant';
}

/**
 * Sends one request and reads its answer: the key for its endpoint, nothing sent once cancelled,
 * one deadline over connect, headers and body, and every call logged (sent or stopped before sending).
 */
function createCall(options: ApiClientOptions) {
  // No automatic retries: with 100 requests an hour, every request is one that the scheduler (with
  // its backoff) or the user (with a Retry button) chose to make. A POST is never repeated.
  // Redirects are not followed (the Authorization header must never go to another host) but
  // answered as what they are. ky's own timeout covers only the headers: ours covers the body too.
  const http = ky.create({
    retry: 0,
    throwHttpErrors: true,
    redirect: 'manual',
    timeout: false,
    headers: { Accept: 'application/json', ...(options.userAgent && { 'User-Agent': options.userAgent }) },
  });
  const timers = options.timers ?? systemClock;

  async function call<T>(request: Request, schema: z.ZodMiniType<T>): Promise<T> {
    const startedAt = Date.now();
    const started = performance.now();
    const log = (status: number | undefined, error?: ApiError, sent = true) =>
      options.onRequest?.({
        method: request.method.toUpperCase(),
        path: request.target,
        status,
        sent,
        startedAt,
        durationMs: performance.now() - started,
        ...(error && { error }),
      });

    let base: string;
    let key: string | undefined;
    try {
      base = checkBaseUrl(options.baseUrl());
      if (request.key === 'assistant') {
        key = await options.getAssistantKey?.();
        if (!key) throw new ApiError('noApiKey', 'No assistant API key is set. Run "Mintlify: Set Assistant Key".');
      } else {
        key = await options.getApiKey();
        if (!key) throw new ApiError('noApiKey', 'No Mintlify API key is set. Run "Mintlify: Set API Key".');
      }
    } catch (error) {
      // Logged too, so "no request" can be told apart from "no attempt".
      if (error instanceof ApiError) log(undefined, error, false);
      throw error;
    }

    // Cancelled while its reservation was written (a click on another range): nothing leaves, nothing is counted.
    if (request.signal?.aborted) {
      const error = new ApiError('cancelled', 'The request was cancelled before it was sent.', { reached: 'no' });
      log(undefined, error, false);
      throw error;
    }

    try {
      const { status, value } = await attempt(base, key, request, schema);
      log(status);
      return value;
    } catch (error) {
      const apiError = error as ApiError;
      log(apiError.status, apiError);
      throw apiError;
    }
  }

  /** One attempt under one deadline: connect, headers and body all end when it fires. */
  async function attempt<T>(base: string, key: string, request: Request, schema: z.ZodMiniType<T>): Promise<{ status: number; value: T }> {
    const deadline = new AbortController();
    const timer = timers.setTimeout(
      () => deadline.abort(),
      Math.min(options.timeoutMs?.() ?? DEFAULT_TIMEOUT_MS, request.deadlineMs ?? Number.POSITIVE_INFINITY),
    );
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    let status: number | undefined;
    try {
      const response = await http(base + request.target, {
        method: request.method,
        json: request.json,
        signal,
        headers: { Authorization: `Bearer ${key}` },
      });
      status = response.status;
      return { status, value: parseBody(schema, await readText(response, signal)) };
    } catch (cause) {
      throw await toApiError(cause, base, { timedOut: deadline.signal.aborted, answered: status, signal });
    } finally {
      timers.clearTimeout(timer);
    }
  }

  return call;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const call = createCall(options);

  /** A 429 another window received holds this family back until its Retry-After has passed. */
  function gate(family: Family): void {
    const wait = options.familyWaitMs?.(family) ?? 0;
    if (wait <= 0) return;
    const message =
      options.sharedWaitMessage?.(wait) ??
      `The Mintlify API asked to wait (429): no request is sent from any window before the wait is over. Try again ${formatWait(wait)}.`;
    throw new ApiError('rateLimited', message, { retryAfterMs: wait });
  }

  /** `<base URL> <endpoint>` of each endpoint that answered its operation is gone: not asked again (another API address may still offer it). */
  const withdrawn = new Set<string>();

  /** One method from a table entry, never sent again once its operation was withdrawn. */
  function method(name: EndpointName, entry: Endpoints[keyof Endpoints]) {
    const send = request(entry);
    return async (...args: unknown[]) => {
      const key = `${options.baseUrl()} ${name}`;
      if (withdrawn.has(key)) {
        throw new ApiError('withdrawn', `Not sent: the Mintlify API said earlier in this session that it no longer offers ${entry.method} ${entry.path}.`, {
          subject: entry.path,
        });
      }
      try {
        return await send(...args);
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'withdrawn' && !withdrawn.has(key)) {
          withdrawn.add(key);
          options.onWithdrawn?.(name);
        }
        throw error;
      }
    };
  }

  /** One request from a table entry; an analytics request only with a reservation of the hour. */
  function request(entry: Endpoints[keyof Endpoints]) {
    const schema = entry.schema as z.ZodMiniType<unknown>;
    return async (...args: unknown[]) => {
      gate(entry.family);
      const { request, grant } = requestOf(entry, args);
      if (entry.family !== 'analytics') return call(request, schema);
      // The organisation's hour: no analytics request leaves without a reservation of the one gate.
      const reservation = await grant?.reserve();
      if (!reservation) {
        const error = new ApiError(
          'notGranted',
          grant ? 'Not sent: the hour has no more for this action.' : "Not sent: an analytics request must pass the hour's gate.",
        );
        options.onRequest?.({ method: 'GET', path: request.target, status: undefined, sent: false, startedAt: Date.now(), durationMs: 0, error });
        throw error;
      }
      let sent = true;
      try {
        return await call(request, schema);
      } catch (error) {
        // Stopped before anything left this machine (no key, a refused address, a connection never made).
        sent = !(error instanceof ApiError && error.reached === 'no');
        throw error;
      } finally {
        reservation.end(sent);
      }
    };
  }

  return Object.fromEntries(Object.entries(ENDPOINTS).map(([name, entry]) => [name, method(name as EndpointName, entry)])) as unknown as ApiClient;
}

/**
 * The request a method's arguments make: the path's ids (each checked, and encoded so it stays in
 * its segment), then a list's query, a POST's prompt, branch or search, then the call options.
 */
function requestOf(entry: Endpoints[keyof Endpoints], args: unknown[]): { request: Request; grant?: Grant } {
  let at = 0;
  const path = entry.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ID_CHECKS[name](String(args[at++]))));
  const takes = 'rowId' in entry ? 'query' : 'body' in entry ? entry.body : undefined;
  const input = args[at];
  const { signal, grant } = (args[at + (takes ? 1 : 0)] ?? {}) as CallOptions;
  const common = { signal, deadlineMs: FAMILIES[entry.family].deadlineMs, ...('key' in entry && { key: entry.key }) };
  if (takes === 'prompt') return { request: { method: 'post', target: path, json: { prompt: checkPrompt(input as string) }, ...common }, grant };
  if (takes === 'branch') return { request: { method: 'post', target: path, json: { branch: checkBranch(input as string) }, ...common }, grant };
  if (takes === 'search') return { request: { method: 'post', target: path, json: checkSearch(input as SearchQuery), ...common }, grant };
  const params = takes === 'query' ? checkQuery(entry, input as ListQuery) : {};
  const search = Object.keys(params).length ? `?${new URLSearchParams(params).toString()}` : '';
  return { request: { method: 'get', target: path + search, ...common }, grant };
}
