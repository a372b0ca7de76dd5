// One error type for everything that can go wrong talking to the API, with a `kind` the UI can
// act on (offer "Set API Key", say when to retry, keep the unsent prompt, …).
import { HOUR_MS } from '../util/clock';

export type ApiErrorKind =
  | 'invalidInput' //      caught before sending: nothing was sent
  | 'noApiKey' //          no key stored: nothing was sent
  | 'noProjectId' //       no project ID set for this workspace: nothing was sent
  | 'insecureBaseUrl' //   the configured base URL would leak the key: nothing was sent
  | 'redirectRefused' //   3xx: not followed, so the key went nowhere else
  | 'unauthorized' //      401
  | 'forbidden' //         403: read-only key or IP allow-list
  | 'notFound' //          404 with the platform's own error answer: what the path names is not there
  | 'withdrawn' //         410, or a 404 that is not the platform's error answer: the operation itself is gone
  | 'rateLimited' //       429
  | 'invalidRequest' //    400 (or another 4xx) from the server
  | 'serverError' //       5xx
  | 'timeout'
  | 'network'
  | 'notGranted' //     the hour's gate gave no reservation for this analytics request: nothing was sent
  | 'cancelled' //       our own AbortSignal: nobody needs to be told
  | 'invalidResponse'; //  2xx whose body is not what the contract says

/** Every kind, for tables and tests that must cover them all. */
export const API_ERROR_KINDS: readonly ApiErrorKind[] = [
  'invalidInput',
  'noApiKey',
  'noProjectId',
  'insecureBaseUrl',
  'redirectRefused',
  'unauthorized',
  'forbidden',
  'notFound',
  'withdrawn',
  'rateLimited',
  'invalidRequest',
  'serverError',
  'timeout',
  'network',
  'notGranted',
  'cancelled',
  'invalidResponse',
];

/**
 * Whether the request can have reached the server: 'no' when it stopped on this machine or the
 * connection was never made (DNS, refused, TLS), 'yes' when the server answered, 'maybe' when
 * the connection was open and then the answer never came whole (timeout, reset, cancel).
 */
export type Reached = 'no' | 'maybe' | 'yes';

/** Which of our own input checks (inputs.ts) refused: the failure table words it for the user. */
export type InputProblem =
  | 'emptyProjectId'
  | 'badProjectId'
  | 'emptyJobId'
  | 'badJobId'
  | 'badStatusId'
  | 'emptyBranch'
  | 'emptyPrompt'
  | 'emptyDomain'
  | 'badDomain'
  | 'emptySearchQuery'
  | 'longSearchQuery'
  | 'searchPageSize'
  | 'pageSize'
  | 'offset'
  | 'startDate'
  | 'endDate'
  | 'dateOrder';

interface ApiErrorInit {
  status?: number;
  /** Milliseconds to wait before trying again, from `Retry-After` (429 or 503). */
  retryAfterMs?: number;
  /** The server's `details[].message`, or the offending fields of an invalid input. */
  details?: readonly string[];
  cause?: unknown;
  /** Default: 'yes' when there is a status, else 'no'. */
  reached?: Reached;
  /** The server's own `error` text, or the socket's error code (ECONNREFUSED). */
  serverMessage?: string;
  code?: string;
  /** The value the message is about (the base URL, the response's field): the failure table words the message around it. */
  subject?: string;
  /** For 'invalidInput' from inputs.ts; without it the message was worded (and localised) by the caller. */
  problem?: InputProblem;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly details: readonly string[];
  readonly reached: Reached;
  readonly serverMessage: string | undefined;
  readonly code: string | undefined;
  readonly subject: string | undefined;
  readonly problem: InputProblem | undefined;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    init: ApiErrorInit = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.details = init.details ?? [];
    this.reached = init.reached ?? (init.status === undefined ? 'no' : 'yes');
    this.serverMessage = init.serverMessage;
    this.code = init.code;
    this.subject = init.subject;
    this.problem = init.problem;
  }
}

/**
 * What a failed POST means for the message it carried. 'notSent': it never reached the server, so
 * sending again is safe. 'refused': the server answered no (4xx) and did nothing. 'unknown': it
 * may have been acted on (the answer was lost, or a 5xx from a proxy or the service) and sending
 * again may start the agent twice.
 */
type SendOutcome = 'notSent' | 'refused' | 'unknown';

export function sendOutcome(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) return 'unknown';
  if (error.reached === 'no') return 'notSent';
  if (error.reached === 'maybe') return 'unknown';
  const status = error.status ?? 0;
  // A redirect or a 4xx did nothing; a 2xx whose body broke the contract was accepted; a 5xx may
  // come after the work started (a proxy's 502/504 certainly can).
  return status >= 300 && status < 500 ? 'refused' : 'unknown';
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The longest wait a server may impose. A `Retry-After` past it is taken as this: a proxy that sends
 * milliseconds as seconds (3600000) must not hold a family back for six weeks, in every window.
 */
export const LONGEST_WAIT_MS = HOUR_MS;

/** `Retry-After` is either delta-seconds or an HTTP date. Returns milliseconds (at most LONGEST_WAIT_MS), or undefined. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const date = /^\d+$/.test(trimmed) ? now + Number(trimmed) * 1000 : Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.min(LONGEST_WAIT_MS, Math.max(0, date - now));
}

/** A wait rounded as people say it: seconds under 90 s, else minutes, else hours and minutes. */
type Wait = { seconds: number } | { minutes: number } | { hours: number; minutes: number };

export function splitWait(ms: number): Wait {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return { seconds };
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return { minutes };
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/** "in 42 s", "in 3 min", "in 1 h 5 min": English, for the log (errorMessages.ts words it for people). */
export function formatWait(ms: number): string {
  const wait = splitWait(ms);
  if ('seconds' in wait) return `in ${wait.seconds} s`;
  if (!('hours' in wait)) return `in ${wait.minutes} min`;
  return wait.minutes ? `in ${wait.hours} h ${wait.minutes} min` : `in ${wait.hours} h`;
}
