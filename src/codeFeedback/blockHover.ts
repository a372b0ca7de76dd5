// The hover on a block readers flagged, quoting each comment as text; on a page's first line, the
// feedback on blocks the page no longer has.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import { markdownEscaped } from '../util/markdownText';
import type { BlockPlaces, FlaggedPlace } from './blockPlaces';
import { goneLensTitle, hoverEntries, twinsText } from './feedbackText';
import { blockAt } from './flaggedBlock';

export function blockHovers(places: BlockPlaces, settings: Pick<Settings, 'codeFeedback'>): vscode.HoverProvider {
  return {
    provideHover(document, position) {
      if (!settings.codeFeedback.enabled) return undefined;
      const found = blockAt(places, document.uri, position.line);
      const page = places.pageOf(document.uri);
      if (found)
        return new vscode.Hover(
          hoverText(
            vscode.l10n.t('Readers’ feedback on this code block'),
            found.place.comments,
            found.place.twins ? twinsText(found.place.twins, vscode.l10n) : undefined,
          ),
          new vscode.Range(found.place.startLine, 0, found.place.endLine, 0),
        );
      if (position.line === 0 && page?.gone.length)
        return new vscode.Hover(hoverText(goneLensTitle(page.gone.length, vscode.l10n, page.generatedApi), page.gone));
      return undefined;
    },
  };
}

/**
 * A hover: the title, then each comment's date, status and author, and the comment as one escaped
 * line. Everything from the API is escaped for Markdown (markdownEscaped); nothing is trusted, no HTML.
 */
function hoverText(title: string, comments: FlaggedPlace['comments'], note?: string): vscode.MarkdownString {
  const { entries, more } = hoverEntries(comments, vscode.l10n);
  const lines = [`**${markdownEscaped(title)}**`, ''];
  if (note) lines.push(markdownEscaped(note), '');
  for (const entry of entries) lines.push(`${markdownEscaped(entry.about)}  `, `> ${markdownEscaped(entry.comment)}`, '');
  if (more) lines.push(markdownEscaped(vscode.l10n.t('({0} more not shown)', more)));
  const md = new vscode.MarkdownString(lines.join('\n'));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
