// How a wait is worded: the sentence of a 429 every window holds to, "Try again in 42 s.", and a
// duration ("12 min"). The failure table, the hour's gate and the tools all word waits through here.
// vscode for its types only (erased): the import is how `npm run l10n` finds the l10n.t calls.
import type * as vscode from 'vscode';
import { splitWait } from './api';

type L10n = Pick<typeof vscode.l10n, 't'>;

/**
 * A 429 one window received holds every window back (the client's gate, src/api/client.ts): the call fails
 * unsent, and this says why, with the wait worded as the failure table words it.
 */
export function sharedWaitMessage(ms: number, l10n: L10n): string {
  return l10n.t('The Mintlify API asked to wait (429): no request is sent from any window before the wait is over. {0}', tryAgainIn(ms, l10n));
}

/** "Try again in 42 s.": one whole sentence per unit, so a translation can order it freely. */
export function tryAgainIn(ms: number, l10n: L10n): string {
  const wait = splitWait(ms);
  if ('seconds' in wait) return l10n.t('Try again in {0} s.', wait.seconds);
  if (!('hours' in wait)) return l10n.t('Try again in {0} min.', wait.minutes);
  return wait.minutes ? l10n.t('Try again in {0} h {1} min.', wait.hours, wait.minutes) : l10n.t('Try again in {0} h.', wait.hours);
}

/** A wait as a duration: "40 s", "12 min", "1 h 5 min". */
export function waitText(ms: number, l10n: L10n): string {
  const wait = splitWait(ms);
  if ('seconds' in wait) return l10n.t('{0} s', wait.seconds);
  if (!('hours' in wait)) return l10n.t('{0} min', wait.minutes);
  return wait.minutes ? l10n.t('{0} h {1} min', wait.hours, wait.minutes) : l10n.t('{0} h', wait.hours);
}
