// Explorer marks: the most-read pages of the range get their rank as a badge and the figures as a
// tooltip; optionally the pages with no readers get a mark too. Decorations come only from a
// snapshot already kept: the Explorer never causes a request.
import * as vscode from 'vscode';
import type { DocsLocator } from '../docs/docsLocator';
import { Disposable } from '../util/lifecycle';
import type { PageReaders } from './pageReaders';
import type { Settings } from '../config';
import { aiPercent, formatCount, RANGE_PHRASES, rankBadge } from './readersText';
import { readersOf } from '../analytics/visitorsSnapshot';

export class ReadersDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeFileDecorations = this.changeEmitter.event;

  constructor(
    private readonly readers: PageReaders,
    private readonly docs: DocsLocator,
    private readonly settings: Settings,
  ) {
    super();
    const refresh = () => this.changeEmitter.fire(undefined);
    this.register(readers.onDidChange(refresh));
    this.register(docs.onDidChange(refresh));
    this.register(settings.onDidChange((change) => change.affects('readers') && refresh()));
    this.register(vscode.window.registerFileDecorationProvider(this));
  }

  async provideFileDecoration(uri: vscode.Uri): Promise<vscode.FileDecoration | undefined> {
    const mode = this.settings.readers.explorer;
    if (mode === 'off') return undefined;
    const now = this.readers.current();
    const snapshot = now && this.readers.shown(now);
    if (!now || !snapshot) return undefined;
    const page = await this.docs.pageOf(uri);
    if (!page) return undefined;
    const figures = readersOf(snapshot, page.sitePath);
    if (figures.kind === 'read') {
      if (mode === 'top' && figures.rank > this.settings.readers.explorerTop) return undefined;
      const { human, ai, total } = figures.row;
      return new vscode.FileDecoration(
        rankBadge(figures.rank),
        vscode.l10n.t(
          '#{0} most read: {1} readers ({2} human, {3} AI, {4}% AI)',
          formatCount(figures.rank),
          formatCount(total),
          formatCount(human),
          formatCount(ai),
          aiPercent(ai, total),
        ),
      );
    }
    if (figures.kind === 'none' && this.settings.readers.markUnread) {
      return new vscode.FileDecoration('0', vscode.l10n.t('No readers {0}', RANGE_PHRASES[now.preset]), new vscode.ThemeColor('disabledForeground'));
    }
    return undefined;
  }
}
