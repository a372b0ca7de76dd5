// The status item's Markdown tooltip: the figures, the range, when they were fetched, and links.
// Values that come from files or the API are escaped; only our own commands may run from it.
import * as vscode from 'vscode';
import type { DocPage } from '../docs/docsLocator';
import { presetLabels } from '../analytics/dateRange';
import type { PresetId } from '../shared/protocol';
import { aiPercent, formatCount } from './readersText';
import { commandLink } from '../util/commandLink';
import type { ReadersFigure } from '../analytics/visitorsSnapshot';
import { COMMANDS } from '../commands';
import { showInvisible } from '../util/visibleText';

interface TooltipInput {
  page: DocPage;
  readers: ReadersFigure;
  preset: PresetId;
  /** "2025-02-06 to 2025-03-07", or undefined for all time. */
  days: string | undefined;
  fetchedAt: number;
  requests: number;
  /** More about the page from another feature (the reader signals), appended before the links. */
  section?: TooltipSection;
}

/** A part another feature adds to the page's tooltip; it escapes its own values. */
export interface TooltipSection {
  /** Commands its links may run. */
  readonly commands: readonly string[];
  append(md: vscode.MarkdownString, page: DocPage): void;
}

export function readersTooltip(input: TooltipInput): vscode.MarkdownString {
  const { page, readers, preset } = input;
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = {
    enabledCommands: [COMMANDS.openAnalytics, COMMANDS.askAboutThis, COMMANDS.changeReadersRange, COMMANDS.refreshReaders, ...(input.section?.commands ?? [])],
  };
  md.appendMarkdown('**');
  md.appendText(showInvisible(page.sitePath));
  md.appendMarkdown('** · ');
  const label = presetLabels(vscode.l10n)[preset];
  md.appendText(input.days ? `${label} (${input.days})` : label);
  md.appendMarkdown('\n\n');
  if (readers.kind === 'read') {
    const { human, ai, total } = readers.row;
    md.appendMarkdown(`| ${vscode.l10n.t('Human')} | ${vscode.l10n.t('AI')} | ${vscode.l10n.t('Total')} |\n|---:|---:|---:|\n`);
    md.appendMarkdown(`| ${formatCount(human)} | ${formatCount(ai)} | ${formatCount(total)} |\n\n`);
    md.appendText(vscode.l10n.t('{0}% of readers came through AI agents. Rank {1} of the site’s pages.', aiPercent(ai, total), formatCount(readers.rank)));
  } else if (readers.kind === 'none') {
    md.appendText(vscode.l10n.t('No readers in this range: no human and no AI visitor opened this page.'));
  } else {
    md.appendText(
      vscode.l10n.t('Not among the top {0} pages the figures cover (the readers.maxPages setting caps a background fetch).', formatCount(readers.covered)),
    );
  }
  md.appendMarkdown('\n\n');
  if (input.section) {
    input.section.append(md, page);
    md.appendMarkdown('\n\n');
  }
  const time = new Date(input.fetchedAt).toLocaleString();
  md.appendText(vscode.l10n.t('Fetched {0} with {1} request(s).', time, input.requests));
  md.appendMarkdown('\n\n');
  // The panel opens on this page's row for the range shown here.
  const links = [
    commandLink(vscode.l10n.t('Open Visitor Analytics'), COMMANDS.openAnalytics, [{ path: page.sitePath, preset }]),
    commandLink(vscode.l10n.t('Show Trend'), COMMANDS.openAnalytics, [{ path: page.sitePath, preset, trend: true }]),
  ];
  links.push(commandLink(vscode.l10n.t('Ask the Agent About This Page'), COMMANDS.askAboutThis, [page.uri]));
  links.push(commandLink(vscode.l10n.t('Change Range'), COMMANDS.changeReadersRange), commandLink(vscode.l10n.t('Refresh'), COMMANDS.refreshReaders));
  md.appendMarkdown(links.join(' · '));
  return md;
}

/**
 * The tooltip while a background fetch is not granted (the hour has no room for background work):
 * why, the other feature's part (it costs no request), and the click that loads the figures now.
 */
export function notGrantedTooltip(page: DocPage, why: string, section: TooltipSection | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = { enabledCommands: [COMMANDS.refreshReaders, ...(section?.commands ?? [])] };
  md.appendMarkdown('**');
  md.appendText(showInvisible(page.sitePath));
  md.appendMarkdown('**\n\n');
  md.appendText(why);
  md.appendMarkdown('\n\n');
  if (section) {
    section.append(md, page);
    md.appendMarkdown('\n\n');
  }
  md.appendMarkdown(commandLink(vscode.l10n.t('Load Readers Now'), COMMANDS.refreshReaders));
  return md;
}
