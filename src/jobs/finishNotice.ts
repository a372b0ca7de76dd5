// The buttons of the notification that says a tracked job finished (JobTracker): each a command
// that takes the job id, labelled in the user's language.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';

/** Commands the finish notification offers; they take the job id. */
export const NOTIFICATION_ACTIONS = {
  reviewChanges: COMMANDS.reviewChanges,
  openPullRequest: COMMANDS.openPullRequest,
  sendFollowUp: COMMANDS.sendFollowUp,
} as const;

export type NotificationAction = keyof typeof NOTIFICATION_ACTIONS;

/** The buttons' labels, in the user's language; the choice is matched against these, never English. */
export function notificationLabels(): Record<NotificationAction, string> {
  return {
    reviewChanges: vscode.l10n.t('Review Changes'),
    openPullRequest: vscode.l10n.t('Open Pull Request'),
    sendFollowUp: vscode.l10n.t('Send Follow-up'),
  };
}
