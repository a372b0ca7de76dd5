// What to tell the user about a failure, and which buttons to offer. One place, so the tree, the
// commands and the analytics panel say the same thing about the same error.
import { ApiError, formatWait } from './api';

export const Action = {
  retry: 'Retry',
  setApiKey: 'Set API Key',
  setProjectId: 'Set Project ID',
  stopTracking: 'Stop Tracking',
  showLog: 'Show Log',
} as const;

/** "Try again in 42 s." or a hint about the hourly limit when the server gave no wait. */
export function whenToRetry(retryAfterMs: number | undefined): string {
  if (retryAfterMs !== undefined) return `Try again ${formatWait(retryAfterMs)}.`;
  return 'The platform allows 100 requests per hour; try again in a few minutes.';
}

/** A one-sentence account of the error, prefixed with what we were doing. */
export function describeFailure(doing: string, error: unknown): string {
  if (!(error instanceof ApiError)) return `${doing} failed: ${error instanceof Error ? error.message : String(error)}`;
  if (error.kind === 'rateLimited') return `${doing} failed: ${error.message} ${whenToRetry(error.retryAfterMs)}`;
  return `${doing} failed: ${error.message}`;
}
