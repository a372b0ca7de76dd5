// What the analytics panel shows when loading a page of visitors failed: the shared failure table
// (src/errorMessages.ts) words it, as in notifications; this module only maps the table's view to
// the panel's (a setup hint instead of an error when no key is stored, the buttons the panel has).
// vscode for its types only (erased, nothing at run time): the import is also how `npm run l10n`
// knows the l10n.t calls below are vscode's and puts their strings in the bundle.
import type * as vscode from 'vscode';
import { ApiError, isApiError } from '../api';
import { failureView } from '../errorMessages';
import { EXTENSION_COMMANDS, type CommandAction, type ErrorView, type ViewState } from '../shared/protocol';

type L10n = Pick<typeof vscode.l10n, 't'>;

interface LoadFailureView {
  /** Set when nothing can be asked for until the user fixes the cause (no key). */
  setup?: ViewState['setup'];
  error?: ErrorView;
  /** After a 429: how long no request may leave (ms). */
  retryAfterMs?: number;
  /** Nothing to show: the load was cancelled on purpose. */
  silent?: true;
}

export function loadFailureView(error: unknown, l10n: L10n): LoadFailureView {
  if (isApiError(error) && error.kind === 'noApiKey') {
    return { setup: { message: l10n.t('Set your Mintlify admin API key to load visitor analytics.'), action: 'setApiKey' } };
  }
  const view = failureView(error, 'analytics', l10n);
  if (view.severity === 'none') return { silent: true };
  const actions = view.actions.filter((a): a is 'retry' | CommandAction => a === 'retry' || a in EXTENSION_COMMANDS);
  return { error: { message: view.message, actions }, ...(view.retryAfterMs !== undefined && { retryAfterMs: view.retryAfterMs }) };
}

/** No project ID yet: the panel asks for one before anything else. */
export function noProjectSetup(l10n: L10n): ViewState['setup'] {
  return { message: l10n.t('Set the Mintlify project ID to see who reads your docs.'), action: 'setProjectId' };
}

/** Still inside a 429's Retry-After: worded by the failure table, as the 429 itself was. */
export function rateLimitMessage(retryAfterMs: number, l10n: L10n): string {
  return failureView(new ApiError('rateLimited', '', { status: 429, retryAfterMs }), 'analytics', l10n).message;
}
