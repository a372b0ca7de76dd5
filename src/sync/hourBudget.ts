// What a fetch the user asked for may spend of the organisation's analytics hour (100 requests,
// every window and every analytics endpoint together): asked before it starts when it may need
// more than is left, and held to it request by request (ledger.ts withinHour, the paging rule's `mayRequest`), so no
// fetch can overspend the hour even when other windows spend at the same time.
import * as vscode from 'vscode';
import { tryAgainIn } from '../errorMessages';
import type { Ui } from '../ui';

/** The shared ledger's view of the hour (WindowSync). */
export interface HourBudget {
  analyticsLeftThisHour(): number;
  analyticsFreesInMs(needed?: number): number;
}

/**
 * The most requests a fetch of up to `atMost` may send: all of them when they fit; else, asked
 * first, what is left (the user chose "Fetch N"); undefined when nothing is left or the user said no.
 */
export async function askHourBudget(ui: Ui, budget: HourBudget, what: string, atMost: number): Promise<number | undefined> {
  const left = budget.analyticsLeftThisHour();
  if (atMost <= left) return atMost;
  const frees = tryAgainIn(Math.max(1, budget.analyticsFreesInMs()), vscode.l10n);
  if (left === 0) {
    void ui.showMessage('warning', vscode.l10n.t('{0} needs up to {1} analytics requests, and the organisation has none left this hour. {2}', what, atMost, frees));
    return undefined;
  }
  const fetch = vscode.l10n.t('Fetch {0}', left);
  const message = vscode.l10n.t('{0} needs up to {1} analytics requests; the organisation has {2} left this hour (shared by every window and teammate); the rest frees up as the hour slides. {3} Or fetch what fits now, and see what was left out.', what, atMost, left, frees);
  return (await ui.showMessage('warning', message, fetch)) === fetch ? left : undefined;
}
