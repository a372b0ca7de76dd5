// The "Reader Signals" view kept current: its message (what the snapshot covers, and what the paging
// rule cut short), the context key of its welcome, the finish of a linked job noted, the daily
// background refresh while it is visible, and the settings that change what it shows.
import * as vscode from 'vscode';
import type { CutShort } from '../api/paging';
import type { Settings } from '../config';
import { cutShortText } from '../cutShortText';
import type { JobStore } from '../jobs/jobStore';
import type { Logger } from '../log';
import { background } from '../util/background';
import { linkedJobState, type SignalJobs } from './signalJobs';
import type { SignalsList, SignalsSnapshot } from './snapshot';
import type { SignalsStore } from './signalsStore';
import type { SignalsTreeProvider } from './signalsTree';

const HAS_SIGNALS_KEY = 'mintlifyAgent.hasSignals';
/** How often a visible view checks whether the daily background refresh is due. */
const CHECK_EVERY_MS = 5 * 60 * 1000;

interface SignalsViewPorts {
  store: SignalsStore;
  links: SignalJobs;
  tree: SignalsTreeProvider;
  view: vscode.TreeView<unknown>;
  jobs: JobStore;
  settings: Pick<Settings, 'onDidChange'>;
  projectId: () => string | undefined;
  log: Logger;
}

/** Keeps the view current; returns what the first read of the kept snapshot runs (the message, the check of the daily refresh). */
export function registerSignalsView(
  context: vscode.ExtensionContext,
  { store, links, tree, view, jobs, settings, projectId, log }: SignalsViewPorts,
): { describeView: () => void; backgroundTick: () => void } {
  const describeView = () => {
    const snapshot = store.current();
    void vscode.commands.executeCommand('setContext', HAS_SIGNALS_KEY, snapshot !== undefined); // a context key: nothing to wait for
    view.message = snapshot ? viewMessage(snapshot) : undefined;
  };

  // "Job active / PR ready" and the clock of "Did it help?": note when a linked job finishes.
  const noteFinished = () => {
    const project = projectId();
    if (project)
      background(
        links.noteFinished(project, (id) => linkedJobState(jobs.get(id)) === 'prReady', new Date()),
        log,
        'noting the finished jobs of the signals',
      );
  };

  const backgroundTick = () => {
    if (!view.visible || !vscode.window.state.focused || !store.current() || !store.isStale()) return;
    background(store.refresh('background'), log, 'the background refresh');
  };
  const timer = setInterval(backgroundTick, CHECK_EVERY_MS);

  context.subscriptions.push(
    { dispose: () => clearInterval(timer) },
    store.onDidChange(describeView),
    jobs.onDidChange(noteFinished),
    view.onDidChangeVisibility(() => view.visible && background(store.load().then(backgroundTick), log, 'reading the kept signals')),
    settings.onDidChange((change) => change.affects('signals.rankByAiShare') && tree.refresh()),
    // Another project: its kept snapshot (the same project: nothing to do); another API address: its own, if one is kept.
    settings.onDidChange((change) => background(store.load(change.affects('apiBaseUrl')), log, 'reading the kept signals')),
  );
  return { describeView, backgroundTick };
}

/** The view's message: the days and requests of the snapshot, and every list the paging rule cut short. */
function viewMessage(snapshot: SignalsSnapshot): string {
  const notes = [vscode.l10n.t('Last {0} days, fetched {1} with {2} requests.', 30, new Date(snapshot.fetchedAt).toLocaleString(), snapshot.requests)];
  // Every list the paging rule cut short says so (snapshots kept by older versions carry only the first two).
  const cut = snapshot.cutShort ?? {};
  if (cut.byPage?.reason === 'cap' || (!snapshot.cutShort && snapshot.byPageHasMore))
    notes.push(vscode.l10n.t('Votes cover the 100 pages with the most feedback (the API returns no more).'));
  if (cut.searches?.reason === 'cap' || (!snapshot.cutShort && !snapshot.searchesComplete))
    notes.push(vscode.l10n.t('Searches: the {0} most searched terms.', snapshot.searches.length));
  const names: Record<SignalsList, string> = {
    byPage: vscode.l10n.t('Votes'),
    pending: vscode.l10n.t('Pending feedback'),
    questions: vscode.l10n.t('Assistant questions'),
    searches: vscode.l10n.t('Searches'),
    views: vscode.l10n.t('Views'),
  };
  for (const [list, cutShort] of Object.entries(cut) as [SignalsList, CutShort][]) {
    // The views' depth is the snapshot's own choice (the most viewed pages), shown on each row instead.
    if (cutShort.reason === 'cap' && list !== 'pending' && list !== 'questions') continue;
    notes.push(cutShortText(names[list], cutShort, vscode.l10n));
  }
  return notes.join(' ');
}
