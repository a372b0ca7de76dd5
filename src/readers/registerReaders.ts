// Readers in the editor, wired into the window: the status item, the Explorer marks, the optional
// CodeLens and the two commands (Change Range, Refresh). Nothing here sends a request: the first
// one leaves when a docs page is shown with a key and a project set.
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
import type { SnapshotSource } from '../analytics/visitorsSnapshot';
import type { HourGate } from '../hour/hourGate';
import { COMMANDS, type RegisterCommand } from '../commands';

interface ReadersPorts {
  command: RegisterCommand;
  api: ApiClient;
  settings: Settings;
  keys: { readonly hasKey: boolean; onDidChange: vscode.Event<void> };
  ui: Ui;
  log: Logger;
  /** The organisation's analytics hour: every fetch passes it (background ones under its ceiling). */
  gate: HourGate;
}

/** The pieces of this window, for the features that build on them (and the tests). */
export interface ReadersHandle {
  pageReaders: PageReaders;
  statusBar: ReadersStatusBar;
  decorations: ReadersDecorations;
  docs: DocsLocator;
  /** The whole-range snapshots, shared with the panel's "Compare with previous period". */
  snapshots: SnapshotSource;
}

/** Builds the readers' objects and registers their commands. Building reads only what is kept: no request. */
export function registerReaders(context: vscode.ExtensionContext, ports: ReadersPorts): ReadersHandle {
  const { command, ...deps } = ports;
  const log = deps.log.scoped('readers');
  const docs = new DocsLocator();
  const readers = new PageReaders({ api: deps.api, settings: deps.settings, keys: deps.keys, storage: context.workspaceState, log, gate: deps.gate });
  const statusBar = new ReadersStatusBar(readers, docs, log);
  const decorations = new ReadersDecorations(readers, docs, deps.settings);
  const codeLens = new ReadersCodeLens(readers, docs, deps.settings);
  context.subscriptions.push(docs, readers, statusBar, decorations, codeLens);
  command(COMMANDS.changeReadersRange, async () => {
    const current = readers.preset;
    const labels = presetLabels(vscode.l10n);
    const items = PRESETS.map((id: PresetId) => ({
      id,
      label: labels[id],
      picked: id === current,
      description: id === current ? vscode.l10n.t('current') : undefined,
    }));
    const choice = await deps.ui.showQuickPick(items, { title: vscode.l10n.t('Readers: date range'), placeHolder: labels[current] });
    if (choice) await readers.setPreset(choice.id);
    // The user asked for this range: fetch it now for the page shown (asked first if the hour may not hold it).
    await statusBar.update({ asked: true });
  });
  command(COMMANDS.refreshReaders, () => statusBar.update({ refresh: true }));
  return {
    pageReaders: readers,
    statusBar,
    decorations,
    docs,
    snapshots: {
      cached: (key) => readers.store.cached(key),
      isFresh: (snapshot) => readers.store.isFresh(snapshot),
      get: (key, options) => readers.store.get(key, options),
      put: (snapshot) => readers.store.put(snapshot),
      maxPages: () => deps.settings.readers.maxPages,
      estimate: (key, cap) => readers.estimate(key, cap),
    },
  };
}
