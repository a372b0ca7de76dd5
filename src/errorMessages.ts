// The one table from a failure to what the user sees: for every ApiError kind and every context
// (reading a job, sending a follow-up, creating a job, loading analytics, exporting, and the
// failures that are not the API's: git, review comments, start-up) the message, its severity and
// its buttons, Show Log among them. A failure worded where it happened (a WordedFailure: git's
// reasons, a comment put where none goes) keeps its words and buttons. Commands, the jobs tree, the
// analytics panel, the export, Review Changes and review comments all ask here, so the same failure
// reads the same everywhere. vscode is imported for its types only
// (nothing at run time, so the unit tier loads this module): the caller passes `vscode.l10n`, and
// `npm run l10n` finds the `l10n.t(...)` strings below. The unit test covers every kind in every context.
import type * as vscode from 'vscode';
import { ApiError, API_ERROR_KINDS, sendOutcome } from './api';
import { inputProblem, networkReason, serverSaid } from './apiErrorReasons';
import { errorText } from './util/errorText';
import type { FailureAction } from './failureActions';
import { tryAgainIn } from './waitWords';

/** What was being done when a failure came: each has its words in the table below. */
export const FAILURE_CONTEXTS = [
  'readJob',
  'send',
  'create',
  'analytics',
  'export',
  'preview',
  'previewStatus',
  'git',
  'addComment',
  'editComment',
  'deleteComment',
  'sendReview',
  'search',
  'startUp',
] as const;
export type FailureContext = (typeof FAILURE_CONTEXTS)[number];

/** The contexts whose request is a POST the platform may act on: a lost answer is never met with a plain Retry. */
export const SENDING_CONTEXTS: readonly FailureContext[] = ['send', 'create', 'preview'];

/** The contexts whose caller can run the failed step again (the others offer no Retry). */
const RETRYABLE: ReadonlySet<FailureContext> = new Set(['readJob', 'send', 'create', 'analytics', 'preview', 'previewStatus', 'git']);

/** The site's own search (src/search) is sent with the assistant key to the site's domain: its refusals name those. */
const SEARCH_CONTEXTS: ReadonlySet<FailureContext> = new Set(['search']);

type FailureSeverity = 'error' | 'warning' | 'info' | 'none';

/**
 * A failure worded where it happened, in the writer's terms, with the buttons that help: the table
 * shows it as it is, with Show Log. What it says is already localised by the code that throws it.
 */
export class WordedFailure extends Error {
  constructor(
    message: string,
    readonly actions: FailureAction[] = [],
    readonly severity: Exclude<FailureSeverity, 'none'> = 'error',
  ) {
    super(message);
  }
}

export interface FailureView {
  message: string;
  severity: FailureSeverity;
  actions: FailureAction[];
  /** After a 429: no request may leave before this many ms have passed (Retry waits for it). */
  retryAfterMs?: number;
}

/** `vscode.l10n` in the extension, a plain formatter in unit tests. */
export type L10n = Pick<typeof vscode.l10n, 't'>;

interface FailureOptions {
  /** The job is in the tracked list (a 404 then offers Stop Tracking). */
  tracked?: boolean;
}

/** The kinds the table knows; exported so the unit test can prove it covers each one. */
export const FAILURE_KINDS = API_ERROR_KINDS;

export function failureView(error: unknown, context: FailureContext, l10n: L10n, options: FailureOptions = {}): FailureView {
  const view = tableView(error, context, l10n, options);
  // After a failed start no command of ours runs (each fails with the same error) and the log went
  // with what was half built, so no button would work: the message says it all.
  return context === 'startUp' ? { ...view, actions: [] } : view;
}

function tableView(error: unknown, context: FailureContext, l10n: L10n, options: FailureOptions): FailureView {
  if (error instanceof WordedFailure) return { message: error.message, severity: error.severity, actions: [...error.actions, 'showLog'] };
  const doing = doingText(context, l10n);
  if (!(error instanceof ApiError)) return { message: unexpected(context, doing, errorText(error), l10n), severity: 'error', actions: ['showLog'] };
  const sending = SENDING_CONTEXTS.includes(context);
  const previews = context === 'preview' || context === 'previewStatus';
  if (SEARCH_CONTEXTS.has(context)) {
    const view = searchView(error, l10n);
    if (view) return view;
  }
  if (error.kind === 'cancelled' && !(sending && sendOutcome(error) === 'unknown')) return { message: '', severity: 'none', actions: [] };
  // A POST that may have been acted on is never offered a plain Retry: sending it again could act
  // twice (start the agent twice, deploy twice), so the writer is told what may have happened.
  if (sending && error.kind !== 'rateLimited' && sendOutcome(error) === 'unknown') return unknownOutcome(context as 'send' | 'create' | 'preview', error, l10n);

  const failed = (reason: string, actions: FailureAction[], severity: FailureSeverity = 'error'): FailureView => ({
    message: l10n.t('{0} failed: {1}', doing, reason),
    severity,
    actions: [...actions, 'showLog'],
  });
  const canRetry: FailureAction[] = RETRYABLE.has(context) ? ['retry'] : [];
  const said = serverSaid(error);

  switch (error.kind) {
    case 'invalidInput':
      // Our own check, worded for the field it names; nothing was sent.
      return failed(inputProblem(error, l10n), []);
    case 'noApiKey':
      return failed(l10n.t('No Mintlify API key is set. Nothing was sent.'), ['setApiKey']);
    case 'noProjectId':
      return failed(l10n.t('No Mintlify project ID is set for this workspace. Nothing was sent.'), ['setProjectId']);
    case 'insecureBaseUrl':
      return failed(
        l10n.t(
          'The API base URL "{0}" cannot be used: it must be a valid https URL (http only to 127.0.0.1 or localhost). Fix "{1}" in your user settings. Nothing was sent.',
          error.subject ?? '',
          'mintlifyAgent.apiBaseUrl',
        ),
        [],
      );
    case 'redirectRefused':
      return failed(
        l10n.t(
          'The server redirected the request ({0}) instead of answering. The redirect was not followed, so the API key was not sent on. Check the API base URL setting.',
          error.status ?? 3,
        ),
        [],
      );
    case 'unauthorized':
      return failed(l10n.t('The Mintlify API did not accept the API key (401). Set a valid admin API key.'), ['setApiKey']);
    case 'forbidden':
      // The External API answers 403 when the organisation's plan has no preview deployments.
      if (previews)
        return failed(
          l10n.t(
            'Preview deployments are not available on this organisation’s plan (403){0}. Pro and Enterprise plans have them. Preview Branch is no longer offered for this project; run it from the palette once the plan has them.',
            said,
          ),
          [],
        );
      // A read-only key needs replacing; an IP allow-list may be fixed on the dashboard, then Retry.
      return failed(l10n.t('The API key is not allowed to do this (403): it may be read-only, or this IP address is not on the allow-list.'), [
        'setApiKey',
        ...canRetry,
      ]);
    case 'notFound':
      if (context === 'previewStatus')
        return failed(l10n.t('The platform no longer knows this preview’s status (404){0}. Deploy the preview again to follow a new one.', said), []);
      if (context === 'preview') {
        return failed(
          l10n.t(
            'Not found (404){0}. The platform cannot see this project or branch: check the project ID, and that the project’s Git repository is connected on the dashboard and is the job’s repository.',
            said,
          ),
          ['setProjectId'],
        );
      }
      if (context === 'readJob' || context === 'send') {
        return failed(
          l10n.t('Not found (404){0}. Check the job ID and that the project ID is the job’s project.', said),
          options.tracked ? ['stopTracking'] : ['setProjectId'],
        );
      }
      return failed(l10n.t('Not found (404){0}. Check the project ID.', said), ['setProjectId', ...canRetry]);
    case 'withdrawn':
      // Not a failure to retry: the platform took the operation away (an endpoint can come and go
      // within a month). Said calmly, once offered no more in this window (the client sends no more).
      return {
        message: l10n.t(
          '{0}: the Mintlify API no longer offers this ({1}). It is not offered again in this window; an update of the extension may bring it back.',
          doing,
          error.status === undefined ? l10n.t('it said so earlier') : String(error.status),
        ),
        severity: 'info',
        actions: ['showLog'],
      };
    case 'rateLimited': {
      const when =
        error.retryAfterMs !== undefined
          ? tryAgainIn(error.retryAfterMs, l10n)
          : previews
            ? l10n.t('The platform allows 5 preview deployments a minute for the organisation; try again in a minute.')
            : l10n.t('The platform allows 100 requests per hour; try again in a few minutes.');
      const kept =
        context === 'analytics'
          ? ' ' + l10n.t('Pages already loaded still work.')
          : context === 'preview'
            ? ' ' + l10n.t('Nothing was deployed.')
            : sending
              ? ' ' + l10n.t('Nothing was sent; your prompt is kept.')
              : '';
      const view = failed(l10n.t('The Mintlify API rate limit is reached (429). {0}', when) + kept, canRetry, 'warning');
      return { ...view, retryAfterMs: error.retryAfterMs ?? 0 };
    }
    case 'invalidRequest': {
      const details = error.details.length ? ' ' + error.details.join(' ') : '';
      if (previews) {
        return failed(
          l10n.t('The platform refused the preview ({0}){1}.', error.status ?? 400, said) +
            details +
            ' ' +
            l10n.t(
              'If the branch exists, the platform may not see it: check that the project’s Git repository is connected on the dashboard and is the job’s repository.',
            ),
          [],
        );
      }
      const kept = sending ? ' ' + l10n.t('Your prompt is kept.') : '';
      return failed(l10n.t('The Mintlify API rejected the request ({0}){1}.', error.status ?? 400, said) + details + kept, []);
    }
    case 'serverError':
      return failed(l10n.t('The Mintlify API had a problem ({0}). Try again in a moment.', error.status ?? 500), canRetry);
    case 'timeout':
      return failed(l10n.t('The Mintlify API did not answer in time.'), canRetry);
    case 'network':
      // For a send this is only reached when nothing left this machine: Retry is safe.
      return failed(networkReason(error, l10n), canRetry);
    case 'invalidResponse':
      // The client's English message (with the zod issue) goes to the log; the user gets the field.
      return failed(
        error.subject !== undefined
          ? l10n.t('The Mintlify API sent an unexpected answer: {0} is not what the API promises. The log has the details.', error.subject)
          : l10n.t('The Mintlify API sent an answer that is not valid JSON.'),
        canRetry,
      );
    case 'notGranted':
      // The gate (hour/hourGate.ts) refused: asked first when a writer asked, so no Retry here.
      return failed(
        l10n.t(
          'Not granted: the organisation’s hour has no room for this request on this machine’s count (teammates on other machines also spend it). Nothing was sent; try again once the hour has room.',
        ),
        [],
        'warning',
      );
    case 'cancelled':
      return { message: '', severity: 'none', actions: [] };
  }
}

function doingText(context: FailureContext, l10n: L10n): string {
  switch (context) {
    case 'readJob':
      return l10n.t('Reading the job');
    case 'send':
      return l10n.t('Sending the follow-up');
    case 'create':
      return l10n.t('Starting the job');
    case 'analytics':
      return l10n.t('Loading visitors');
    case 'export':
      return l10n.t('Exporting visitors');
    case 'preview':
      return l10n.t('Deploying the preview');
    case 'previewStatus':
      return l10n.t('Reading the preview’s status');
    case 'git':
      return l10n.t('Git');
    case 'addComment':
      return l10n.t('Adding the review comment');
    case 'editComment':
      return l10n.t('Saving the review comment');
    case 'deleteComment':
      return l10n.t('Deleting the review comment');
    case 'sendReview':
      return l10n.t('Sending the review');
    case 'search':
      return l10n.t('Searching the site');
    case 'startUp':
      return l10n.t('Starting Mintlify Agent & Analytics');
  }
}

/** A failure nobody worded (a bug, a broken disk): what was being done, and the error's own text. */
function unexpected(context: FailureContext, doing: string, text: string, l10n: L10n): string {
  if (context === 'git') return l10n.t('Git failed: {0}', text);
  if (context === 'startUp') return l10n.t('Mintlify Agent & Analytics could not start: {0}', text);
  return l10n.t('{0} failed unexpectedly: {1}', doing, text);
}

function unknownOutcome(context: 'send' | 'create' | 'preview', error: ApiError, l10n: L10n): FailureView {
  const why = error.status !== undefined && error.status >= 500 ? l10n.t('the Mintlify API answered {0}', error.status) : l10n.t('the answer was lost');
  if (context === 'preview') {
    return {
      message: l10n.t(
        'A preview deployment may have started: {0}, so its status cannot be followed from here. Check the deployments on the dashboard before deploying again.',
        why,
      ),
      severity: 'warning',
      actions: ['showLog'],
    };
  }
  if (context === 'send') {
    return {
      message: l10n.t(
        'The follow-up may have arrived: {0}, and the job cannot tell whether it took it. Sending it again may start the agent twice on it.',
        why,
      ),
      severity: 'warning',
      actions: ['openJob', 'sendAgain'],
    };
  }
  return {
    message: l10n.t('A job may have been created: {0}. Check the dashboard; if it is there, track it by its ID or link rather than starting another.', why),
    severity: 'warning',
    actions: ['trackJob', 'showLog'],
  };
}

/**
 * The site's search's own words (the assistant key, the site's domain, its own limit); undefined for
 * a failure worded as any other request's (a timeout, a network failure, a broken answer).
 */
function searchView(error: ApiError, l10n: L10n): FailureView | undefined {
  const failed = (reason: string, actions: FailureAction[], severity: FailureSeverity = 'error'): FailureView => ({
    message: l10n.t('Searching the site failed: {0}', reason),
    severity,
    actions: [...actions, 'showLog'],
  });
  switch (error.kind) {
    case 'noApiKey':
      return failed(l10n.t('No assistant API key is set. Nothing was sent.'), ['setAssistantKey']);
    case 'unauthorized':
      return failed(l10n.t('The site’s search did not accept the assistant API key (401): it may be wrong or revoked. Set a valid assistant key.'), [
        'setAssistantKey',
      ]);
    case 'forbidden':
      return failed(l10n.t('The assistant API key may not search this site (403): it belongs to another deployment, or was turned off.'), [
        'setAssistantKey',
        'setSiteDomain',
      ]);
    case 'notFound':
      return failed(l10n.t('The platform knows no site by this domain identifier (404){0}. Check the site’s domain.', serverSaid(error)), ['setSiteDomain']);
    case 'rateLimited': {
      const when =
        error.retryAfterMs !== undefined
          ? tryAgainIn(error.retryAfterMs, l10n)
          : l10n.t('The site’s search allows 10,000 requests an hour for the organisation; try again in a few minutes.');
      return {
        ...failed(l10n.t('The site’s search asked to wait (429). {0} The checks already made are kept.', when), [], 'warning'),
        retryAfterMs: error.retryAfterMs ?? 0,
      };
    }
    default:
      return undefined;
  }
}
