// The buttons a failure message can carry: what each does, by its id, and its label. The table from a
// failure to its words (errorMessages.ts) picks them; reportFailure.ts shows them and runs them.
// vscode is imported for its types only, as in errorMessages.ts: the caller passes `vscode.l10n`.
import type * as vscode from 'vscode';

/**
 * What a button does. `sendAgain` sends a follow-up whose outcome is unknown once more (its label
 * says it may duplicate); `openJob` shows the job; `trackJob` tracks a job that may have been created;
 * `waitForJob` says when a job that is still running finishes (Review Changes, Check Out Branch).
 */
export const FAILURE_ACTIONS = [
  'retry',
  'sendAgain',
  'openJob',
  'trackJob',
  'setApiKey',
  'setProjectId',
  'stopTracking',
  'openPullRequest',
  'gitSettings',
  'waitForJob',
  'manageTrust',
  'setAssistantKey',
  'setSiteDomain',
  'showLog',
] as const;
export type FailureAction = (typeof FAILURE_ACTIONS)[number];

/** `vscode.l10n` in the extension, a plain formatter in unit tests. */
type L10n = Pick<typeof vscode.l10n, 't'>;

/** Labels of the buttons, localised; `sendAgain`'s says that it may duplicate. */
export function actionLabel(action: FailureAction, l10n: L10n): string {
  switch (action) {
    case 'retry':
      return l10n.t('Retry');
    case 'sendAgain':
      return l10n.t('Send Again (may duplicate)');
    case 'openJob':
      return l10n.t('Open Job');
    case 'trackJob':
      return l10n.t('Track Job…');
    case 'setApiKey':
      return l10n.t('Set API Key');
    case 'setProjectId':
      return l10n.t('Set Project ID');
    case 'stopTracking':
      return l10n.t('Stop Tracking');
    case 'openPullRequest':
      return l10n.t('Open Pull Request');
    case 'gitSettings':
      return l10n.t('Open Git Settings');
    case 'waitForJob':
      return l10n.t('Tell Me When It Finishes');
    case 'manageTrust':
      return l10n.t('Manage Workspace Trust');
    case 'setAssistantKey':
      return l10n.t('Set Assistant Key');
    case 'setSiteDomain':
      return l10n.t('Set Site Domain');
    case 'showLog':
      return l10n.t('Show Log');
  }
}
