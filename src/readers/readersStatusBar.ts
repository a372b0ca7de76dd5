// The status-bar item for the active docs page: "1,284 readers · 31% AI". Shown only while the
// active editor is a page of the docs; the first time a figure shows, the walkthrough's context key
// `mintlifyAgent.pageReadersShown` turns true.
import * as vscode from 'vscode';
import type { DocPage, DocsLocator } from '../docs/docsLocator';
import { isApiError } from '../api';
import { failureView } from '../errorMessages';
import type { Logger } from '../log';
import { HOURLY_LIMIT } from '../hour/ledger';
import { background } from '../util/background';
import { Disposable } from '../util/lifecycle';
import { PausedError, type PageReaders } from './pageReaders';
import { readersPhrase } from './readersText';
import { daysOf, rangeLabel } from './settledRanges';
import { notGrantedTooltip, readersTooltip, type TooltipSection } from './readersTooltip';
import { commandLink } from '../util/commandLink';
import { readersOf, type ReadersFigure, type VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import { COMMANDS, type CommandId } from '../commands';
import { showInvisible } from '../util/visibleText';

const PAGE_READERS_SHOWN_KEY = 'mintlifyAgent.pageReadersShown';

/** What the item shows now, kept beside it for the host tests and the bench, which read it through the parts. */
interface ReadersItemState {
  page: DocPage;
  text: string;
  figures: ReadersFigure | undefined;
  tooltip: vscode.MarkdownString | string;
}

export class ReadersStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('mintlifyAgent.readers', vscode.StatusBarAlignment.Right, 90));
  private seq = 0;
  private shownOnce = false;
  private state: ReadersItemState | undefined;
  private section: TooltipSection | undefined;

  constructor(
    private readonly readers: PageReaders,
    private readonly docs: DocsLocator,
    private readonly log: Logger,
  ) {
    super();
    this.item.name = vscode.l10n.t('Page Readers');
    this.register(
      vscode.window.onDidChangeActiveTextEditor(() => {
        background(this.update(), this.log, 'showing the page readers');
      }),
    );
    // A key read at start-up or a settings change is not the user showing a page: it shows what is
    // kept (or a click to load) and fetches only when the user switches editors or asks.
    const again = () => background(this.update({ fetch: false }), this.log, 'showing the page readers');
    this.register(readers.onDidChange(again));
    this.register(docs.onDidChange(again));
    // At activation only what is kept is shown: nothing is fetched until the user switches to a
    // page or asks (the item then offers a click to load).
    background(this.update({ fetch: false }), this.log, 'showing the page readers');
  }

  /** Adds another feature's part to the tooltip (the reader signals); `changed` redraws it, no request. */
  addSection(section: TooltipSection, changed: vscode.Event<void>): void {
    this.section = section;
    this.register(changed(() => background(this.update({ fetch: false }), this.log, 'showing the page readers')));
  }

  /** The item's current content; undefined while hidden. */
  get shown(): ReadersItemState | undefined {
    return this.state;
  }

  /**
   * Looks at the active editor again; `refresh` fetches the range anew. `asked`: the user asked
   * (Refresh implies it); a fetch for a page just shown is background work (the ledger's ceiling and the machine's share).
   */
  update({ refresh = false, fetch = true, asked = refresh }: { refresh?: boolean; fetch?: boolean; asked?: boolean } = {}): Promise<void> {
    const seq = ++this.seq;
    return this.render(seq, refresh, fetch, asked).catch((error: unknown) => this.log.error(error));
  }

  private async render(seq: number, refresh: boolean, fetch: boolean, asked: boolean): Promise<void> {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const page = uri && (await this.docs.pageOf(uri));
    const now = this.readers.current();
    if (seq !== this.seq) return;
    if (!page || !now) {
      this.hide();
      return;
    }
    if (!fetch && !this.readers.shown(now)) {
      this.show(page, `$(eye) ${vscode.l10n.t('readers')}`, undefined, vscode.l10n.t('Click to load this page’s readers.'), COMMANDS.refreshReaders);
      return;
    }
    if (!this.readers.shown(now) || refresh) this.show(page, `$(loading~spin) ${vscode.l10n.t('readers')}`, undefined, vscode.l10n.t('Loading readers…'));
    let snapshot: VisitorsSnapshot | undefined;
    try {
      snapshot = fetch ? await this.readers.load(now, { refresh, asked }) : this.readers.shown(now);
    } catch (error) {
      if (seq !== this.seq) return;
      // Background work the hour had no room for: nothing was sent, and the click asks for it.
      if (!asked && isApiError(error) && error.kind === 'notGranted') {
        const room = this.readers.backgroundRoom();
        const why =
          room.used === undefined
            ? vscode.l10n.t(
                'Readers not loaded in the background: this window does not know yet how many of the organisation’s {0} analytics requests this hour are used, and background work waits until it does. Click to load them now.',
                HOURLY_LIMIT,
              )
            : vscode.l10n.t(
                'Readers not loaded in the background: the organisation’s hour has no room for background work now. {0} of the organisation’s {1} analytics requests this hour are used on this machine’s count (teammates on other machines also spend it), and background work stops at {2} and at this machine’s share of {3} an hour, so the rest is kept for what you ask. Click to load them now.',
                room.used,
                HOURLY_LIMIT,
                room.ceiling,
                room.share,
              );
        return this.show(
          page,
          `$(eye) ${vscode.l10n.t('readers: the hour has no room for background work · click to load')}`,
          undefined,
          notGrantedTooltip(page, why, this.section),
          COMMANDS.refreshReaders,
        );
      }
      // A fetch the user then declined: as before it was asked, nothing loaded and nothing wrong.
      if (isApiError(error) && error.kind === 'cancelled')
        return this.show(page, `$(eye) ${vscode.l10n.t('readers')}`, undefined, vscode.l10n.t('Click to load this page’s readers.'), COMMANDS.refreshReaders);
      const message =
        error instanceof PausedError
          ? vscode.l10n.t('Readers could not be loaded; they will be tried again after {0}.', new Date(error.until).toLocaleTimeString())
          : failureView(error, 'analytics', vscode.l10n).message;
      const tip = new vscode.MarkdownString('', true);
      tip.isTrusted = { enabledCommands: [COMMANDS.refreshReaders] };
      tip.appendText(message);
      tip.appendMarkdown(`\n\n${commandLink(vscode.l10n.t('Refresh'), COMMANDS.refreshReaders)}`);
      this.show(page, `$(warning) ${vscode.l10n.t('readers')}`, undefined, tip);
      return;
    }
    if (seq !== this.seq || !snapshot) return;
    const figures = readersOf(snapshot, page.sitePath);
    if (snapshot.gathering && figures.kind !== 'read') {
      // Still being gathered (the hour gave out first): what is known says so, and a click fetches the rest now.
      const label = rangeLabel(now.preset, snapshot.key, vscode.l10n);
      const text = snapshot.expectedPages
        ? vscode.l10n.t('readers of {0}: {1} of {2} pages fetched', label, snapshot.pages, snapshot.expectedPages)
        : vscode.l10n.t('readers of {0}: {1} pages fetched so far', label, snapshot.pages);
      const tip = vscode.l10n.t(
        'This page is not among the {0} paths fetched so far. The figures of {1} are gathered a few pages an hour in the background, so teammates keep the organisation’s analytics hour for what they ask. Click to fetch the rest now.',
        snapshot.rows.length,
        label,
      );
      return this.show(page, `$(eye) ${text}`, figures, tip, COMMANDS.refreshReaders);
    }
    const [template, ...values] = readersPhrase(figures, now.preset);
    // The days of the figures shown: background work's are whole days, ending yesterday (settledRanges.ts).
    const days = daysOf(snapshot.key);
    const tooltip = readersTooltip({
      page,
      readers: figures,
      preset: now.preset,
      days,
      fetchedAt: snapshot.fetchedAt,
      requests: snapshot.pages,
      section: this.section,
    });
    this.show(page, `$(eye) ${vscode.l10n.t(template, ...values)}`, figures, tooltip);
    if (!this.shownOnce) {
      this.shownOnce = true;
      void vscode.commands.executeCommand('setContext', PAGE_READERS_SHOWN_KEY, true); // a context key: nothing to wait for
    }
  }

  private show(
    page: DocPage,
    text: string,
    figures: ReadersFigure | undefined,
    tooltip: vscode.MarkdownString | string,
    command: CommandId = COMMANDS.changeReadersRange,
  ): void {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = command;
    this.item.accessibilityInformation = { label: `${showInvisible(page.sitePath)}: ${text.replace(/\$\([^)]*\)\s*/g, '')}` };
    this.state = { page, text: text.replace(/^\$\([^)]*\)\s*/, ''), figures, tooltip };
    this.item.show();
  }

  private hide(): void {
    this.state = undefined;
    this.item.hide();
  }
}
