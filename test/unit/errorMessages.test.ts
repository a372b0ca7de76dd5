// The one table from failure to what the user sees: every ApiError kind in every context, and the
// failures that are not the API's (git, review comments, start-up).
import { sharedWaitMessage } from '../../src/waitWords';
import assert from 'node:assert/strict';
import { ApiError, checkBaseUrl, checkId, checkQuery, ENDPOINTS, type ApiErrorKind, type Reached } from '../../src/api';
import { FAILURE_CONTEXTS, FAILURE_KINDS, type FailureContext, failureView, SENDING_CONTEXTS, WordedFailure } from '../../src/errorMessages';
import { FAILURE_ACTIONS } from '../../src/failureActions';
import { l10n } from '../support/l10n';

/** A realistic error of each kind, as the client makes it. */
function sample(kind: ApiErrorKind, reached?: Reached): ApiError {
  const status: Partial<Record<ApiErrorKind, number>> = {
    redirectRefused: 302,
    unauthorized: 401,
    forbidden: 403,
    notFound: 404,
    withdrawn: 410,
    rateLimited: 429,
    invalidRequest: 400,
    serverError: 502,
    invalidResponse: 200,
  };
  return new ApiError(kind, `the client's own words for ${kind}`, {
    status: status[kind],
    ...(kind === 'rateLimited' && { retryAfterMs: 20_000 }),
    ...(kind === 'notFound' && { serverMessage: 'Job not found' }),
    ...(kind === 'invalidRequest' && { serverMessage: 'Invalid request', details: ['prompt: too long'] }),
    ...((kind === 'timeout' || kind === 'cancelled') && { reached: reached ?? 'maybe' }),
    ...(kind === 'network' && { reached: reached ?? 'maybe', code: reached === 'no' ? 'ECONNREFUSED' : undefined }),
  });
}

/** Where the caller can run the step again; the review comments, the export and start-up cannot. */
const canRetry = (context: FailureContext) => ['readJob', 'send', 'create', 'analytics', 'preview', 'previewStatus', 'git'].includes(context);

describe('failure table', () => {
  for (const context of FAILURE_CONTEXTS) {
    for (const kind of FAILURE_KINDS) {
      it(`${kind} while ${context}`, () => {
        const view = failureView(sample(kind), context, l10n, { tracked: true });
        const sending = SENDING_CONTEXTS.includes(context);
        const previews = context === 'preview' || context === 'previewStatus';
        for (const action of view.actions) assert.ok(FAILURE_ACTIONS.includes(action), action);
        if (kind === 'cancelled' && !sending) {
          assert.equal(view.severity, 'none', 'a cancel the user asked for needs no message');
          return;
        }
        assert.notEqual(view.severity, 'none');
        assert.ok(view.message.length > 20, view.message);
        assert.doesNotMatch(view.message, /undefined|\{\d\}/);
        if (context === 'startUp') {
          assert.deepEqual(view.actions, [], 'after a failed start no button of ours would work');
          return;
        }
        const unknown = sending && ['timeout', 'network', 'serverError', 'invalidResponse', 'cancelled'].includes(kind);
        if (unknown) {
          // The server may have acted on it: never a plain Retry.
          assert.ok(!view.actions.includes('retry'), `no Retry: ${view.actions.join(',')}`);
          assert.equal(view.severity, 'warning');
          if (context === 'send') {
            assert.deepEqual(view.actions, ['openJob', 'sendAgain']);
            assert.match(view.message, /may have arrived/);
          } else if (context === 'preview') {
            assert.deepEqual(view.actions, ['showLog']);
            assert.match(view.message, /may have started/);
          } else {
            assert.ok(view.actions.includes('trackJob'));
            assert.match(view.message, /may have been created/);
          }
          return;
        }
        assert.ok(view.actions.includes('showLog'), 'every shown failure offers the log');
        if (context === 'search' && ['noApiKey', 'unauthorized', 'forbidden', 'notFound', 'rateLimited'].includes(kind)) {
          // The site's search: the assistant key and the site's domain, never the admin key or the project.
          const fixes: Partial<Record<ApiErrorKind, string[]>> = {
            noApiKey: ['setAssistantKey'],
            unauthorized: ['setAssistantKey'],
            forbidden: ['setAssistantKey', 'setSiteDomain'],
            notFound: ['setSiteDomain'],
            rateLimited: [],
          };
          assert.deepEqual(view.actions, [...(fixes[kind] ?? []), 'showLog']);
          assert.match(view.message, /^Searching the site failed: /);
          if (kind === 'unauthorized') assert.match(view.message, /assistant API key \(401\)/);
          if (kind === 'forbidden') assert.match(view.message, /\(403\)/);
          if (kind === 'rateLimited') assert.equal(view.retryAfterMs, 20_000);
          return;
        }
        switch (kind) {
          case 'noApiKey':
          case 'unauthorized':
            assert.ok(view.actions.includes('setApiKey'));
            break;
          case 'noProjectId':
            assert.ok(view.actions.includes('setProjectId'));
            break;
          case 'redirectRefused':
            assert.match(view.message, /redirected/);
            assert.match(view.message, /key was not sent on/);
            assert.doesNotMatch(view.message, /Could not reach/);
            assert.ok(!view.actions.includes('retry'));
            break;
          case 'rateLimited':
            assert.equal(view.retryAfterMs, 20_000);
            assert.equal(view.severity, 'warning');
            assert.match(view.message, /in 20 s/);
            assert.equal(view.actions.includes('retry'), canRetry(context));
            break;
          case 'notFound':
            assert.match(view.message, /Job not found/);
            if (context === 'previewStatus') assert.match(view.message, /Deploy the preview again/);
            else assert.ok(view.actions.includes(context === 'readJob' || context === 'send' ? 'stopTracking' : 'setProjectId'));
            break;
          case 'withdrawn':
            // Calm, and nothing to retry: the operation is gone, not failing.
            assert.equal(view.severity, 'info');
            assert.deepEqual(view.actions, ['showLog']);
            assert.match(view.message, /no longer offers this \(410\)\. It is not offered again in this window/);
            break;
          case 'forbidden':
            if (previews) assert.match(view.message, /not available on this organisation’s plan \(403\)/);
            break;
          case 'invalidRequest':
          case 'invalidInput':
          case 'insecureBaseUrl':
            assert.ok(!view.actions.includes('retry'), 'the same request cannot succeed');
            if (kind === 'invalidRequest') assert.match(view.message, /prompt: too long/);
            if (kind === 'invalidRequest' && previews) assert.match(view.message, /Git repository is connected/);
            break;
          case 'timeout':
          case 'network':
          case 'serverError':
            assert.equal(view.actions.includes('retry'), canRetry(context));
            break;
        }
      });
    }
  }

  it('a send that never left this machine offers a plain Retry', () => {
    for (const context of ['send', 'create', 'preview'] as const) {
      const view = failureView(sample('network', 'no'), context, l10n);
      assert.deepEqual(view.actions, ['retry', 'showLog']);
      assert.match(view.message, /ECONNREFUSED/);
    }
  });

  it('a 404 for a job that is not tracked offers the project, not Stop Tracking', () => {
    assert.deepEqual(failureView(sample('notFound'), 'readJob', l10n, { tracked: false }).actions, ['setProjectId', 'showLog']);
  });

  // The API layer's own messages are English, for the log; what the user reads is the table's wording
  // (l10n.t), built from the value the error names. `vscode.l10n` would translate exactly these words.
  const refusal = (check: () => unknown): ApiError => {
    try {
      check();
    } catch (error) {
      if (error instanceof ApiError) return error;
    }
    throw new Error('the check did not refuse');
  };
  it('words our own input checks from what they refused, not from the English message', () => {
    assert.equal(
      failureView(
        refusal(() => checkId('project', '..')),
        'analytics',
        l10n,
      ).message,
      'Loading visitors failed: ".." is not a valid project ID.',
    );
    assert.equal(
      failureView(
        refusal(() => checkQuery(ENDPOINTS.getVisitors, { limit: 0 })),
        'analytics',
        l10n,
      ).message,
      'Loading visitors failed: Page size must be a whole number from 1 to 250 (got 0).',
    );
    const worded = failureView(new ApiError('invalidInput', 'Already worded by the caller.'), 'send', l10n).message;
    assert.equal(worded, 'Sending the follow-up failed: Already worded by the caller.');
  });
  it('words a refused base URL and a broken answer around the value they name', () => {
    const url = failureView(
      refusal(() => checkBaseUrl('http://example.com')),
      'readJob',
      l10n,
    ).message;
    assert.match(
      url,
      /^Reading the job failed: The API base URL "http:\/\/example\.com" cannot be used: .* Fix "mintlifyAgent\.apiBaseUrl" in your user settings\. Nothing was sent\.$/,
    );
    const broken = failureView(
      new ApiError('invalidResponse', 'english for the log', { status: 200, subject: 'visitors[3].human' }),
      'analytics',
      l10n,
    ).message;
    assert.match(broken, /unexpected answer: visitors\[3\]\.human is not what the API promises/);
  });

  it('a 429 held for every window says so, with the wait worded as the table words it', () => {
    assert.equal(
      sharedWaitMessage(42_000, l10n),
      'The Mintlify API asked to wait (429): no request is sent from any window before the wait is over. Try again in 42 s.',
    );
    // An hour's wait reads in hours, not as 3600 seconds.
    assert.match(sharedWaitMessage(3_600_000, l10n), /from any window .* Try again in 1 h\.$/);
    assert.match(
      failureView(new ApiError('rateLimited', sharedWaitMessage(42_000, l10n), { retryAfterMs: 42_000 }), 'readJob', l10n).message,
      /Try again in 42 s\./,
    );
  });

  it('something that is not an ApiError still reads as a failure with the log', () => {
    const view = failureView(new Error('disk full'), 'export', l10n);
    assert.match(view.message, /Exporting visitors failed unexpectedly: disk full/);
    assert.deepEqual(view.actions, ['showLog']);
  });

  it('a failure worded where it happened keeps its words, severity and buttons, and adds Show Log', () => {
    const worded = new WordedFailure('The branch mintlify/x is gone from origin (merged or deleted).', ['openPullRequest']);
    for (const context of FAILURE_CONTEXTS.filter((c) => c !== 'startUp')) {
      assert.deepEqual(failureView(worded, context, l10n), { message: worded.message, severity: 'error', actions: ['openPullRequest', 'showLog'] });
    }
    const waiting = failureView(new WordedFailure('The agent is still working on it.', ['waitForJob'], 'info'), 'git', l10n);
    assert.equal(waiting.severity, 'info');
    assert.deepEqual(waiting.actions, ['waitForJob', 'showLog']);
  });

  it('git, review comment and start-up failures nobody worded say what was being done', () => {
    const broken = new Error('EACCES: permission denied');
    assert.deepEqual(failureView(broken, 'git', l10n), { message: 'Git failed: EACCES: permission denied', severity: 'error', actions: ['showLog'] });
    assert.equal(failureView(broken, 'addComment', l10n).message, 'Adding the review comment failed unexpectedly: EACCES: permission denied');
    assert.equal(failureView(broken, 'editComment', l10n).message, 'Saving the review comment failed unexpectedly: EACCES: permission denied');
    assert.equal(failureView(broken, 'deleteComment', l10n).message, 'Deleting the review comment failed unexpectedly: EACCES: permission denied');
    assert.deepEqual(failureView(broken, 'sendReview', l10n).actions, ['showLog']);
    assert.deepEqual(failureView('a thrown string', 'startUp', l10n), {
      message: 'Mintlify Agent & Analytics could not start: a thrown string',
      severity: 'error',
      actions: [],
    });
  });

  it("a server's message that ends its sentence gets no second period, in any context", () => {
    const plan = new ApiError('forbidden', 'Forbidden', { status: 403, serverMessage: 'Preview deployments are not available on your current plan.' });
    const view = failureView(plan, 'preview', l10n);
    assert.match(view.message, /\(403\): Preview deployments are not available on your current plan\. Pro and Enterprise plans have them\./);
    for (const context of FAILURE_CONTEXTS)
      for (const kind of FAILURE_KINDS) {
        const error = sample(kind);
        const said = new ApiError(kind, error.message, { status: error.status, reached: error.reached, serverMessage: 'The server says so.' });
        assert.doesNotMatch(failureView(said, context, l10n, { tracked: true }).message, /\.\./, `${kind} while ${context}`);
      }
  });
});
