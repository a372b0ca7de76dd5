// Reader Signals: a term's row says what its check found, and the searches group's row how many of
// its terms were checked (kept checks only: drawing sends nothing).
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../auth/apiKey';
import type { Settings } from '../config';
import type { SignalsHandle } from '../signals/registerSignals';
import { buildInbox, signalId } from '../signals/signalsModel';
import type { WindowSync } from '../sync/windowSync';
import type { SearchChecks } from './searchChecks';
import { gapOf } from './searchOutcome';
import { checkNote, checkTooltip } from './searchText';

interface SearchRowNotesPorts {
  settings: Pick<Settings, 'onDidChange'>;
  assistantKeys: Pick<ApiKeyStore, 'onDidChange'>;
  sync: Pick<WindowSync, 'searchChecks'>;
  signals: Pick<SignalsHandle, 'store' | 'rowNotes'>;
  checks: SearchChecks;
  searchable(): string | undefined;
}

export function registerSearchRowNotes(context: vscode.ExtensionContext, ports: SearchRowNotesPorts): void {
  const { settings, assistantKeys, signals, checks } = ports;
  const searchPrefix = signalId.search('');
  // Redrawn when a check is kept (here or in another window), or the key or the site changes.
  const notesChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    notesChanged,
    ports.sync.searchChecks.onDidChange(() => notesChanged.fire()),
    assistantKeys.onDidChange(() => notesChanged.fire()),
    settings.onDidChange((change) => change.affects('search') && notesChanged.fire()),
  );
  signals.rowNotes({
    noteOf: (id) => {
      if (!ports.searchable()) return undefined;
      if (id === 'group:searches') return groupNote(signals.store, checks);
      const term = id.startsWith(searchPrefix) ? id.slice(searchPrefix.length) : undefined;
      const check = term === undefined ? undefined : checks.kept(term);
      if (term === undefined || !check) return undefined;
      // Drawn at once, so the workspace is not asked whether the page expected exists: a page named counts as one that does.
      const gap = gapOf(check, check.expect, true);
      return { text: checkNote(check, gap), tooltip: checkTooltip(term, check, gap) };
    },
    onDidChange: notesChanged.event,
  });
}

/** The searches group's row: how many of its terms have a check kept, and how many of those find nothing. */
function groupNote(store: SignalsHandle['store'], checks: SearchChecks): { text: string; tooltip: string } | undefined {
  const snapshot = store.current();
  if (!snapshot) return undefined;
  const terms = buildInbox(snapshot).searches.map((s) => s.searchQuery);
  const kept = terms.flatMap((t) => checks.kept(t) ?? []);
  if (!kept.length) return undefined;
  const nothing = kept.filter((c) => !c.hits.length).length;
  return {
    text: vscode.l10n.t('{0} checked, {1} find nothing', kept.length, nothing),
    tooltip: vscode.l10n.t(
      '{0} of these searches were checked against the site’s search in the last day; {1} find nothing (content gaps).',
      kept.length,
      nothing,
    ),
  };
}
