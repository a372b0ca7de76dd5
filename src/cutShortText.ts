// What the user reads when a list was cut short by the paging rule (src/api/paging.ts): one
// sentence per reason, the same in the Reader Signals view, an export, Did It Help? and the
// readers. A cut is not a failure: what was read is shown, and this says what it leaves out.
// vscode for its types only (the caller passes `vscode.l10n`, and the import is how `npm run l10n`
// finds the strings), so the unit tier loads it.
import type * as vscode from 'vscode';
import type { CutShort } from './api/paging';

type L10n = Pick<typeof vscode.l10n, 't'>;

/** `what` names the list as the sentence starts ("Searches", "Votes"); `pages` in the cut are the requests it took. */
export function cutShortText(what: string, cut: CutShort, l10n: L10n): string {
  switch (cut.reason) {
    case 'cap':
      return l10n.t('{0}: the first {1} pages only, the most one fetch reads.', what, cut.pages);
    case 'repeatedCursor':
      return l10n.t('{0}: stopped after {1} pages: the API sent a page cursor it had sent before, so there may be more.', what, cut.pages);
    case 'emptyPage':
      return l10n.t('{0}: stopped after {1} pages: the API said there was more but sent an empty page.', what, cut.pages);
    case 'noNewRows':
      return l10n.t('{0}: stopped after {1} pages: the API sent only rows it had already sent, so there may be more.', what, cut.pages);
    case 'notGranted':
      return l10n.t('{0}: stopped after {1} pages: that is what the organisation’s analytics hour allowed it.', what, cut.pages);
  }
}
