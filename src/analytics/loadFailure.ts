// What the analytics panel shows when loading a page of visitors failed: the one place that turns
// an error into the panel's message, its buttons, or the setup hint. Kept apart from the view state
// so the shared failure table (src/errorMessages.ts) can take it over in one edit.
import { isApiError } from '../api';
import { whenToRetry } from '../errorMessages';
import type { ErrorView, ViewState } from '../shared/protocol';

export interface LoadFailureView {
  /** Set when nothing can be asked for until the user fixes the cause (no key). */
  setup?: ViewState['setup'];
  error?: ErrorView;
  /** After a 429: how long no request may leave (ms). */
  retryAfterMs?: number;
  /** Nothing to show: the load was cancelled on purpose. */
  silent?: true;
}

export function loadFailureView(error: unknown): LoadFailureView {
  if (!isApiError(error)) return { error: { message: 'Loading visitors failed unexpectedly. The log has the details.', actions: ['retry'] } };
  switch (error.kind) {
    case 'cancelled':
      return { silent: true };
    case 'noApiKey':
      return { setup: { message: 'Set your Mintlify admin API key to load visitor analytics.', action: 'setApiKey' } };
    case 'unauthorized':
      return { error: { message: error.message, actions: ['setApiKey'] } };
    case 'forbidden':
      // A read-only key needs replacing; an IP allow-list may be fixed on the dashboard, then Retry.
      return { error: { message: error.message, actions: ['setApiKey', 'retry'] } };
    case 'rateLimited':
      return { retryAfterMs: error.retryAfterMs ?? 0, error: { message: rateLimitMessage(error.retryAfterMs), actions: ['retry'] } };
    case 'notFound':
      return { error: { message: `${error.message} Check the project ID.`, actions: ['setProjectId', 'retry'] } };
    case 'invalidInput':
    case 'insecureBaseUrl':
    case 'invalidRequest':
      // Sending the same request again cannot succeed.
      return { error: { message: error.message, actions: [] } };
    default:
      return { error: { message: error.message, actions: ['retry'] } };
  }
}

export function rateLimitMessage(retryAfterMs: number | undefined): string {
  return `The Mintlify API rate limit for analytics is reached (429). ${whenToRetry(retryAfterMs)} Pages already loaded still work.`;
}
