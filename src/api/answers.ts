// What an answer of the API means: a 2xx body parsed with its entry's schema (the first field that
// breaks the contract named), a body read under the request's deadline, and every failure (an HTTP
// status, a stalled or dropped connection, a TLS refusal, a redirect) turned into an ApiError that
// says whether the request can have reached the server. The client (client.ts) sends; this reads.
import { HTTPError } from 'ky';
import * as z from 'zod/mini';
import { ApiError, parseRetryAfter, type Reached } from './errors';
import { ErrorBody } from './schemas';

/** Parses a 2xx body; the message names the first field that breaks the contract. */
export function parseBody<T>(schema: z.ZodMiniType<T>, text: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ApiError('invalidResponse', 'The Mintlify API sent an answer that is not valid JSON.', { cause });
  }
  const result = z.safeParse(schema, json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length
    ? issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    : 'the body';
  throw new ApiError('invalidResponse', `The Mintlify API sent an unexpected answer: ${field} ${describeIssue(issue)}.`, {
    subject: field,
    details: [z.prettifyError(result.error)],
  });
}

/**
 * A body, ended by `signal` itself. ky hands fetch a Request of its own, and only that Request
 * carries the signal on to the body; once ky has returned the response nothing holds it, and after
 * a garbage collection the abort no longer arrives (nodejs/node#55428): a body that stalled was
 * read for ever. Cancelling our own reader ends the read and closes the connection.
 */
export async function readText(response: Response, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  const reader = response.body?.getReader();
  if (!reader) return '';
  const stop = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      signal.throwIfAborted();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
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

/** Socket errors that happen before the request can have left: sending again is safe. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

export async function toApiError(
  cause: unknown,
  base: string,
  state: { timedOut: boolean; answered: number | undefined; signal: AbortSignal },
): Promise<ApiError> {
  if (cause instanceof ApiError) return cause;
  if (cause instanceof HTTPError) return fromResponse(cause.response, cause, state.signal);
  // Past the connect, an unfinished answer leaves the request's fate open.
  const status = state.answered;
  if (state.timedOut) {
    return new ApiError('timeout', 'The Mintlify API did not answer in time.', { cause, status, reached: 'maybe' });
  }
  if (cause instanceof Error && cause.name === 'AbortError') {
    return new ApiError('cancelled', 'The request was cancelled.', { cause, status, reached: 'maybe' });
  }
  if (status !== undefined) {
    return new ApiError('network', 'The connection closed before the answer was complete.', { cause, status, reached: 'maybe' });
  }
  const code = networkCode(cause);
  const reached: Reached = code && (NOT_SENT_CODES.has(code) || TLS_CODE.test(code)) ? 'no' : 'maybe';
  return new ApiError('network', `Could not reach ${new URL(base).host}${code ? ` (${code})` : ''}. Check your connection.`, {
    cause,
    reached,
    ...(code && { code }),
  });
}

/** node's fetch reports `TypeError: fetch failed` with the socket error as its cause. */
function networkCode(cause: unknown): string | undefined {
  const inner = cause instanceof Error ? (cause.cause as { code?: unknown } | undefined) : undefined;
  return typeof inner?.code === 'string' ? inner.code : undefined;
}

/** `signal` ends the error's body too: the attempt's deadline still runs while it is read. */
async function fromResponse(response: Response, cause: unknown, signal: AbortSignal): Promise<ApiError> {
  const status = response.status;
  const body = z.safeParse(
    ErrorBody,
    await readText(response, signal)
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => undefined),
  );
  const serverMessage = body.success ? body.data.error : undefined;
  const details = body.success ? (body.data.details ?? []).map((d) => d.message) : [];
  const init = { status, details, cause, ...(serverMessage && { serverMessage }) };
  const said = serverMessage ? `: ${serverMessage}` : '';
  if (status >= 300 && status < 400) {
    const location = response.headers.get('Location');
    const where = location ? ` to ${safeHost(location, response.url)}` : '';
    return new ApiError(
      'redirectRefused',
      `The Mintlify API redirected the request${where} (${status}); it was not followed, so the API key was not sent on. Check the API base URL.`,
      init,
    );
  }
  if (status === 401) return new ApiError('unauthorized', 'The Mintlify API did not accept the API key (401). Set a valid admin API key.', init);
  if (status === 403) {
    return new ApiError('forbidden', 'The API key is not allowed to do this (403): it may be read-only, or this IP address is not on the allow-list.', init);
  }
  // The platform answers a missing job or project with its own error body; a 410, or a 404 without
  // that body (a router's page: the path itself is unknown), says the operation is gone.
  if (status === 410 || (status === 404 && !body.success)) {
    return new ApiError('withdrawn', `The Mintlify API no longer offers this operation (${status}).`, init);
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

/** Only the host of a redirect target: a Location may carry credentials or tokens in its query. */
function safeHost(location: string, from: string): string {
  try {
    return new URL(location, from).host;
  } catch {
    return 'another address';
  }
}
