// The optional CodeLens on a page's first line, saying what the status item says (setting
// mintlifyAgent.readers.codeLens, off by default). Like the Explorer marks it only reads a kept
// snapshot: the status item is what fetches.
import * as vscode from 'vscode';
import type { DocsLocator } from '../docs/docsLocator';
import { Disposable } from '../util/lifecycle';
import type { PageReaders } from './pageReaders';
import type { Settings } from '../config';
import { readersPhrase } from './readersText';
import { readersOf } from '../analytics/visitorsSnapshot';
import { COMMANDS } from '../commands';

export class ReadersCodeLens extends Disposable implements vscode.CodeLensProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(
    private readonly readers: PageReaders,
    private readonly docs: DocsLocator,
    private readonly settings: Settings,
  ) {
    super();
    this.register(readers.onDidChange(() => this.changeEmitter.fire()));
    this.register(settings.onDidChange((change) => change.affects('readers') && this.changeEmitter.fire()));
    this.register(vscode.languages.registerCodeLensProvider([{ pattern: '**/*.{md,mdx}' }], this));
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!this.settings.readers.codeLens) return [];
    const now = this.readers.current();
    const snapshot = now && this.readers.shown(now);
    const page = snapshot && (await this.docs.pageOf(document.uri));
    if (!now || !snapshot || !page) return [];
    const [template, ...values] = readersPhrase(readersOf(snapshot, page.sitePath), now.preset);
    const title = vscode.l10n.t(template, ...values);
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title, command: COMMANDS.changeReadersRange, tooltip: vscode.l10n.t('Change Range') })];
  }
}
