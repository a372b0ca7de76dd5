// A page's reader signals as Markdown, for the page's status-bar tooltip and the inbox's page
// nodes. Every value from the API (comments, questions, search terms, paths) goes in through
// appendText, which escapes it: reader text is shown, never rendered or run.
import * as vscode from 'vscode';
import { formatCount } from '../readers/readersText';
import { commandLink } from '../util/commandLink';
import { addDays } from '../util/days';
import type { PageHealth } from './signalsModel';
import type { KeptText, SignalsSnapshot } from './snapshot';
import { COMMANDS } from '../commands';
import { showInvisible } from '../util/visibleText';

const SHOWN_CHARS = 160;
const fmt = formatCount;

/** Appends the page's health; `askLink` adds "Ask the Agent to Address This" (the command must be trusted). */
export function appendPageHealth(
  md: vscode.MarkdownString,
  health: PageHealth,
  snapshot: SignalsSnapshot,
  { askLink = true, jobStatus }: { askLink?: boolean; jobStatus?: string } = {},
): void {
  const line = (text: string) => {
    md.appendText(text);
    md.appendMarkdown('  \n');
  };
  md.appendMarkdown(`**${vscode.l10n.t('Reader signals')}** · `);
  md.appendText(vscode.l10n.t('{0} to {1}', snapshot.range.dateFrom, addDays(snapshot.range.dateTo, -1)));
  md.appendMarkdown('\n\n');
  if (health.views) line(vscode.l10n.t('View events: {0} human, {1} AI', fmt(health.views.human), fmt(health.views.ai)));
  else if (health.viewsBelow !== undefined)
    line(vscode.l10n.t('View events: fewer than {0} (not among the {1} most viewed pages)', fmt(health.viewsBelow), fmt(snapshot.views.length)));
  else line(vscode.l10n.t('View events: none'));
  if (health.feedback)
    line(
      vscode.l10n.t(
        'Feedback: {0} helpful, {1} not helpful · code snippet reports {2}',
        fmt(health.feedback.thumbsUp),
        fmt(health.feedback.thumbsDown),
        fmt(health.feedback.code),
      ),
    );
  else if (health.feedbackUnknown) line(vscode.l10n.t('Feedback: not among the 100 pages with the most feedback (the API returns no more)'));
  else line(vscode.l10n.t('Feedback: none'));
  line(vscode.l10n.t('Pending comments: {0}', fmt(health.pendingComments.count)));
  for (const comment of health.pendingComments.newest) quoteLine(md, comment.comment);
  if (health.codeFeedback.count) line(vscode.l10n.t('Feedback on code blocks: {0} (shown at the blocks in the editor)', fmt(health.codeFeedback.count)));
  line(vscode.l10n.t('Unanswered assistant questions: {0}', fmt(health.unanswered.count)));
  for (const question of health.unanswered.newest) quoteLine(md, question.query);
  if (health.lowCtrSearches.length) {
    line(vscode.l10n.t('Searches that lead here but are rarely clicked:'));
    for (const search of health.lowCtrSearches.slice(0, 3)) {
      md.appendMarkdown('- ');
      md.appendText(vscode.l10n.t('"{0}": {1} searches, {2}% clicked', search.searchQuery, fmt(search.hits), Math.round(search.ctr * 100)));
      md.appendMarkdown('\n');
    }
    md.appendMarkdown('\n');
  }
  if (jobStatus) line(jobStatus);
  if (askLink) {
    md.appendMarkdown(`\n${commandLink(vscode.l10n.t('Ask the Agent to Address This'), COMMANDS.askToAddress, [{ kind: 'page', path: health.path }])}`);
  }
}

/** A reader's text as an escaped block quote line, shortened for a tooltip. */
function quoteLine(md: vscode.MarkdownString, kept: KeptText): void {
  // Bidirectional controls would reorder the tooltip around the quote: they are shown escaped.
  const flat = showInvisible(kept.text.replace(/\s+/g, ' ').trim());
  const full = kept.fullLength ?? kept.text.length;
  md.appendMarkdown('> ');
  md.appendText(flat.length > SHOWN_CHARS || full > kept.text.length ? `${flat.slice(0, SHOWN_CHARS)}… ${vscode.l10n.t('({0} characters)', fmt(full))}` : flat);
  md.appendMarkdown('\n\n');
}
