// Where readers' code-block feedback lies in the open docs pages, kept as the writer edits: each
// open page (and the Markdown and MDX files it imports, as Mintlify resolves them) is matched against the kept reader signals
// (src/codeFeedback/blockMatching.ts) when it opens, when the signals change and, a moment after
// each edit, from the editor's text: so a block edited until it no longer matches moves to "no
// longer on this page", and undo brings it back. No request: the snapshot is what Reader Signals
// already keeps. The Problems entries (source "Readers") are published from here.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { DocPage, DocsLocator } from '../docs/docsLocator';
import type { Logger } from '../log';
import type { SignalsStore } from '../signals/signalsStore';
import type { PendingComment, SnapshotRange } from '../signals/snapshot';
import { background } from '../util/background';
import { daysBetween } from '../util/days';
import { Disposable } from '../util/lifecycle';
import { normalizeSitePath, relativeTo } from '../docs/sitePaths';
import { generatedApiOperation, importedFiles, matchSnippets, type SourceText } from './blockMatching';
import { goneText, problemText, WARNING_FROM } from './feedbackText';

/** How long after the last keystroke the page is matched again. */
const EDIT_SETTLE_MS = 250;
/** The most files a page's imports are read from (a page importing itself, or a long chain, stops there). */
const MAX_IMPORTED = 50;
/** The Problems panel's source of every entry. */
const DIAGNOSTIC_SOURCE = 'Readers';

/** A flagged block: its file (the page or a snippet file), its fence lines (0-based) and its feedback, newest first. */
export interface FlaggedPlace {
  uri: vscode.Uri;
  startLine: number;
  endLine: number;
  code: string;
  comments: PendingComment[];
  /** Other blocks with the same code that some of the feedback is as likely to be about. */
  twins: number;
}

/** One open page's feedback: on its blocks, and about blocks it no longer has. */
interface PagePlaces {
  page: DocPage;
  range: SnapshotRange;
  blocks: FlaggedPlace[];
  gone: PendingComment[];
  /** The operation whose API reference Mintlify generates on the page (`POST /users`), where feedback no block of a file matches most likely is. */
  generatedApi: string | undefined;
  /** The files matched (the page and its snippet files), for telling which edits concern it. */
  sources: string[];
}

export class BlockPlaces extends Disposable {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when any page's places change. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly diagnostics = this.register(vscode.languages.createDiagnosticCollection('mintlifyAgent.readers'));
  private readonly pages = new Map<string, PagePlaces>();
  /** Bumped per page on each match, so an older match finishing late is dropped. */
  private readonly generations = new Map<string, number>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly signals: Pick<SignalsStore, 'current' | 'onDidChange'>,
    private readonly docs: Pick<DocsLocator, 'pageOf' | 'onDidChange'>,
    private readonly settings: Settings,
    private readonly log: Logger,
  ) {
    super();
    this.register(signals.onDidChange(() => this.matchAll()));
    this.register(docs.onDidChange(() => this.matchAll()));
    this.register(settings.onDidChange((change) => (change.affects('codeFeedback') || change.affects('docs.basePath')) && this.matchAll()));
    this.register(vscode.workspace.onDidOpenTextDocument((document) => this.match(document)));
    this.register(vscode.workspace.onDidCloseTextDocument((document) => this.drop(document.uri.toString())));
    this.register(vscode.workspace.onDidChangeTextDocument((event) => this.edited(event.document)));
    this.register({ dispose: () => this.timers.forEach((timer) => clearTimeout(timer)) });
    this.matchAll();
  }

  /** The places of an open page. */
  pageOf(uri: vscode.Uri): PagePlaces | undefined {
    return this.pages.get(uri.toString());
  }

  /** Every flagged block in `uri` (a page, or a snippet file an open page imports), with its page. */
  blocksIn(uri: vscode.Uri): { place: FlaggedPlace; page: PagePlaces }[] {
    const key = uri.toString();
    return [...this.pages.values()].flatMap((page) => page.blocks.filter((b) => b.uri.toString() === key).map((place) => ({ place, page })));
  }

  /** Matches every open page again (the signals or the settings changed). */
  matchAll(): void {
    for (const document of vscode.workspace.textDocuments) this.match(document);
  }

  private edited(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    // The page itself, and every open page importing the edited snippet file.
    const pages = [...this.pages.values()].filter((p) => p.sources.includes(key)).map((p) => p.page.uri.toString());
    if (!pages.includes(key) && /\.mdx?$/i.test(document.uri.path)) pages.push(key);
    for (const page of pages) {
      clearTimeout(this.timers.get(page));
      this.timers.set(
        page,
        setTimeout(() => {
          this.timers.delete(page);
          const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === page);
          if (open) this.match(open);
        }, EDIT_SETTLE_MS),
      );
    }
  }

  private match(document: vscode.TextDocument): void {
    if (!/\.mdx?$/i.test(document.uri.path) || document.isClosed) return;
    const key = document.uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    background(
      this.placesOf(document.uri, document.getText()).then((places) => {
        if (this.generations.get(key) !== generation || document.isClosed) return;
        if (places) this.pages.set(key, places);
        else if (!this.pages.delete(key)) return;
        this.publish();
      }),
      this.log,
      "placing readers' feedback on the page's code blocks",
    );
  }

  /** The places of a page's file as the editor (else the disk) has it now, open or not; nothing is published. */
  async placesOfFile(uri: vscode.Uri): Promise<PagePlaces | undefined> {
    const text = await textOf(uri);
    return text === undefined ? undefined : this.placesOf(uri, text);
  }

  private async placesOf(uri: vscode.Uri, text: string): Promise<PagePlaces | undefined> {
    const snapshot = this.settings.codeFeedback.enabled ? this.signals.current() : undefined;
    const page = snapshot && (await this.docs.pageOf(uri));
    if (!snapshot || !page) return undefined;
    // Compared again here: a snapshot kept by an older version holds `/x/index`, and the base path may have changed since.
    const items = snapshot.pending.filter((c) => c.snippet && normalizeSitePath(c.path, this.settings.docsBasePath) === page.sitePath);
    if (!items.length) return undefined;
    const sources: SourceText[] = [{ key: uri.toString(), text }];
    const files = new Map<string, vscode.Uri>([[uri.toString(), uri]]);
    // The files it imports, and theirs, in reading order; each path stays inside the docs root.
    const queue = importedFiles(text, relativeTo(uri.path, page.docsRoot.path) ?? '');
    for (let next = queue.shift(); next !== undefined && files.size <= MAX_IMPORTED; next = queue.shift()) {
      const imported = vscode.Uri.joinPath(page.docsRoot, ...next.split('/'));
      if (files.has(imported.toString())) continue;
      const snippet = await textOf(imported);
      if (snippet === undefined) continue;
      sources.push({ key: imported.toString(), text: snippet });
      files.set(imported.toString(), imported);
      queue.push(...importedFiles(snippet, next));
    }
    const matching = matchSnippets(items, sources);
    return {
      page,
      range: snapshot.range,
      blocks: matching.blocks.map((m) => ({
        uri: files.get(m.key) ?? uri,
        startLine: m.block.startLine,
        endLine: m.block.endLine,
        code: m.block.code,
        comments: m.items,
        twins: m.twins,
      })),
      gone: matching.gone,
      generatedApi: generatedApiOperation(text),
      sources: sources.map((s) => s.key),
    };
  }

  private drop(key: string): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    clearTimeout(this.timers.get(key));
    if (this.pages.delete(key)) this.publish();
  }

  /** The Problems entries of every open page's places (none with the setting off), then the change event. */
  private publish(): void {
    this.diagnostics.clear();
    if (this.settings.codeFeedback.problems) {
      const byFile = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
      const add = (uri: vscode.Uri, diagnostic: vscode.Diagnostic) => {
        const entry = byFile.get(uri.toString()) ?? { uri, list: [] };
        byFile.set(uri.toString(), entry);
        entry.list.push(diagnostic);
      };
      for (const page of this.pages.values()) {
        const days = daysBetween(page.range.dateFrom, page.range.dateTo);
        for (const block of page.blocks) {
          const severity = block.comments.length >= WARNING_FROM ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
          add(
            block.uri,
            diagnostic(
              new vscode.Range(block.startLine, 0, block.endLine, Number.MAX_SAFE_INTEGER),
              problemText(block.comments, days, vscode.l10n, block.twins),
              severity,
            ),
          );
        }
        if (page.gone.length)
          add(
            page.page.uri,
            diagnostic(new vscode.Range(0, 0, 0, 0), goneText(page.gone, days, vscode.l10n, page.generatedApi), vscode.DiagnosticSeverity.Information),
          );
      }
      for (const { uri, list } of byFile.values()) this.diagnostics.set(uri, list);
    }
    this.changeEmitter.fire();
  }
}

function diagnostic(range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
  const entry = new vscode.Diagnostic(range, message, severity);
  entry.source = DIAGNOSTIC_SOURCE;
  return entry;
}

/** A snippet file's text: the editor's when it is open (unsaved edits count), else the disk's; undefined when it cannot be read. */
async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined; // a missing snippet file has no blocks to match
  }
}
