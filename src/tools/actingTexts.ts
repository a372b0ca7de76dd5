// What the acting tools (start an agent job, send a follow-up, fetch reader signals) share: the
// dialog of a call that cannot send, the prompt shown in full, and why a prompt reached no job. A failure is the tool's answer,
// not a notification waiting for a click, so the model's turn never hangs on a button.
import * as vscode from 'vscode';
import { ApiError, sendOutcome } from '../api';
import { failureView } from '../errorMessages';
import { showInvisible } from '../util/visibleText';
import type { Blocked } from './confirmation';

/** The dialog of a call that cannot send: the reason, and that Yes sends nothing. */
export function cannotSend(blocked: Blocked): string {
  return vscode.l10n.t('Nothing can be sent: {0} Yes sends nothing.', blocked.reason);
}

/**
 * The cost, then the prompt exactly as it will be sent, in a fence no backtick run inside it can
 * close; characters that are invisible or turn the text's direction (which a model that read an
 * injection can write) are shown as `\u202e` escapes, as the prompt preview marks them.
 */
export function promptMessage(cost: string, prompt: string): vscode.MarkdownString {
  const shown = showInvisible(prompt);
  const fence = '`'.repeat(Math.max(3, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  // The dialog outside a chat shows the message as plain text, where a fence disappears: the label says where the prompt starts.
  const label = vscode.l10n.t('The prompt, exactly as it will be sent (invisible and direction characters shown as \\u escapes):');
  const message = new vscode.MarkdownString(`${cost}\n\n${label}\n\n${fence}text\n${shown}\n${fence}`);
  message.supportHtml = false;
  message.isTrusted = false;
  return message;
}

/** Why a prompt reached no job, or that it is not known whether it did: never sent again from here. */
export function notSentText(error: unknown, context: 'create' | 'send'): string {
  const view = failureView(error, context, vscode.l10n);
  if (view.severity === 'none') return vscode.l10n.t('Cancelled: nothing was sent.');
  const unknown = sendOutcome(error) === 'unknown' && !(error instanceof ApiError && error.kind === 'rateLimited');
  return unknown
    ? vscode.l10n.t('{0} It was not sent again, since that could duplicate it: ask the writer to check the Agent Jobs view before trying again.', view.message)
    : vscode.l10n.t('{0} The prompt is kept for the next try.', view.message);
}
