// Readers in the editor, wired into the window: the status item, the Explorer marks, the optional
// CodeLens and the two commands (Change Range, Refresh). Nothing here sends a request: the first
// one leaves when a docs page is shown with a key and a project set. Nothing is built in
// activate() but the commands and one editor listener.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { Settings } from '../config';
import { DocsLocator } from '../docs/docsLocator';
import type { Logger } from '../log';
import { presetLabels } from '../analytics/dateRange';
import { PRESETS, type PresetId } from '../shared/protocol';
import type { Ui } from '../ui';
import { PageReaders } from './pageReaders';
import { ReadersCodeLens } from './readersCodeLens';
import { ReadersDecorations } from './readersDecorations';
import { ReadersStatusBar } from './readersStatusBar';
import { SNAPSHOTS_STORAGE_KEY, type SnapshotKey, type VisitorsSnapshot } from '../analytics/visitorsSnapshot';
import { lazy, lazyFeature } from '../util/lazyFeature';
import { COMMANDS, type RegisterCommand } from '../commands';

export interface ReadersDeps {
  api: ApiClient;
  settings: Settings;
  keys: { readonly hasKey: boolean; onDidChange: vscode.Event<void> };
  ui: Ui;
  log: Logger;
  /** Analytics requests every window sent in the last hour (the shared ledger): background fetches stay under its ceiling. */
  analyticsThisHour?: () => number | undefined;
}

/** For tests: the pieces of this window. */
export interface ReadersHandle {
  readers: PageReaders;
  statusBar: ReadersStatusBar;
  decorations: ReadersDecorations;
  docs: DocsLocator;
  /** The whole-range snapshots, shared with the panel's "Compare with previous period". */
  snapshots: {
    cached: PageReaders['store']['cached'];
    isFresh: PageReaders['store']['isFresh'];
    get: (key: SnapshotKey, options?: { refresh?: boolean }) => Promise<VisitorsSnapshot>;
    put: (snapshot: VisitorsSnapshot) => void;
    maxPages: () => number;
  };
  /** Runs `then` once the readers' objects exist (they are built when first needed). */
  whenBuilt(then: (readers: Pick<ReadersHandle, 'readers' | 'statusBar' | 'decorations'>) => void): void;
}

/**
 * Registers the commands now and builds the readers' objects when first needed: a Markdown page
 * shown, one of the commands, the panel's snapshots, or (after activation) Explorer marks with kept
 * figures to show. A window that never shows a docs page never builds them.
 */
export function registerReaders(context: vscode.ExtensionContext, deps: ReadersDeps, command: RegisterCommand): ReadersHandle & { startup(): void } {
  const docs = lazy(() => {
    const locator = new DocsLocator();
    context.subscriptions.push(locator);
    return locator;
  });
  const feature = lazyFeature(command, [COMMANDS.changeReadersRange, COMMANDS.refreshReaders], (handle) => buildReaders(context, deps, docs(), handle));
  const showsPage = (editor: vscode.TextEditor | undefined) => editor !== undefined && /\.mdx?$/i.test(editor.document.uri.path);
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      // The user switched to a page: built now, the item's own listener missed this event.
      if (showsPage(editor) && !feature.isBuilt) void feature.get().statusBar.update(); // errors are logged inside
    }),
  );
  return {
    get readers() {
      return feature.get().readers;
    },
    get statusBar() {
      return feature.get().statusBar;
    },
    get decorations() {
      return feature.get().decorations;
    },
    get docs() {
      return docs();
    },
    snapshots: {
      cached: (key) => feature.get().readers.store.cached(key),
      isFresh: (snapshot) => feature.get().readers.store.isFresh(snapshot),
      get: (key, options) => feature.get().readers.fetchForUser(key, options),
      put: (snapshot) => feature.get().readers.store.put(snapshot),
      maxPages: () => deps.settings.readers.maxPages,
    },
    whenBuilt: (then) => feature.whenBuilt(then),
    startup() {
      // A page already open at start-up, or marks for the Explorer from figures kept by an earlier session.
      const marks = deps.settings.readers.explorer !== 'off' && context.workspaceState.keys().includes(SNAPSHOTS_STORAGE_KEY);
      if (showsPage(vscode.window.activeTextEditor) || marks || deps.settings.readers.codeLens) feature.get();
    },
  };
}

interface Readers {
  readers: PageReaders;
  statusBar: ReadersStatusBar;
  decorations: ReadersDecorations;
}

function buildReaders(context: vscode.ExtensionContext, deps: ReadersDeps, docs: DocsLocator, command: RegisterCommand): Readers {
  const log = deps.log.scoped('readers');
  const readers = new PageReaders({ api: deps.api, settings: deps.settings, keys: deps.keys, storage: context.workspaceState, log, analyticsThisHour: deps.analyticsThisHour });
  const statusBar = new ReadersStatusBar(readers, docs, log);
  const decorations = new ReadersDecorations(readers, docs, deps.settings);
  const codeLens = new ReadersCodeLens(readers, docs, deps.settings);
  context.subscriptions.push(readers, statusBar, decorations, codeLens);
  command(COMMANDS.changeReadersRange, async () => {
    const current = readers.preset;
    const labels = presetLabels(vscode.l10n);
    const items = PRESETS.map((id: PresetId) => ({ id, label: labels[id], picked: id === current, description: id === current ? vscode.l10n.t('current') : undefined }));
    const choice = await deps.ui.showQuickPick(items, { title: vscode.l10n.t('Readers: date range'), placeHolder: labels[current] });
    if (choice) await readers.setPreset(choice.id);
    // The user asked for this range: fetch it now for the page shown (never held back by the ledger).
    await statusBar.update({ asked: true });
  });
  command(COMMANDS.refreshReaders, () => statusBar.update({ refresh: true }));
  return { readers, statusBar, decorations };
}
