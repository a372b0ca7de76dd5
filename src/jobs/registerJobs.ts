// Tracked agent jobs, wired into the window: the store every window shares, the tracker that sends
// and polls, the Agent Jobs view with its status bar item and the hour's agent requests, and the
// job commands (jobCommands.ts). Building reads only what is kept: the first poll waits for the
// tracker's start-up delay.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { ApiKeyStore } from '../auth/apiKey';
import type { RegisterCommand } from '../commands';
import type { Settings } from '../config';
import type { Logger } from '../log';
import { showLedger } from '../sync/ledgerView';
import type { Ui } from '../ui';
import { registerJobCommands } from './jobCommands';
import { JobStore, type JobsSync } from './jobStore';
import { JobTracker, type JobTrackerDeps } from './jobTracker';
import { JobsStatusBar } from './jobsStatusBar';
import { type ReviewHint, JobsTreeProvider } from './jobsTree';

interface JobsPorts {
  command: RegisterCommand;
  api: ApiClient;
  keys: ApiKeyStore;
  settings: Settings;
  /** The jobs' shared area, the poller's lease and the hour's agent requests, shared with the other windows. */
  sync: JobTrackerDeps['sync'] & JobsSync & Parameters<typeof showLedger>[2];
  /** Which finished jobs can be reviewed in this workspace (src/git/workspaceGit.ts): the row's "review here" and the finish notice's Review Changes. */
  git: ReviewHint;
  ui: Ui;
  log: Logger;
}

/** The pieces of this window, for the features that build on them (and the tests). */
interface JobsHandle {
  jobs: JobStore;
  tracker: JobTracker;
  tree: JobsTreeProvider;
  statusBar: JobsStatusBar;
  /** Fires each time the Agent Jobs view comes into sight. */
  onDidShowView: vscode.Event<void>;
}

export function registerJobs(context: vscode.ExtensionContext, ports: JobsPorts): JobsHandle {
  const { api, keys, settings, sync, git, ui, log } = ports;
  const store = new JobStore(sync);
  const tracker = new JobTracker({ api, store, keys, settings, ui, sync, log: log.scoped('jobs'), canReview: (t) => git.isReviewable(t) });
  const tree = new JobsTreeProvider(store, tracker, keys, git);
  const statusBar = new JobsStatusBar(store);
  const view = vscode.window.createTreeView('mintlifyAgent.jobs', { treeDataProvider: tree, showCollapseAll: false });
  tree.keepTimesFresh(view);
  const shown = new vscode.EventEmitter<void>();
  context.subscriptions.push(store, tracker, tree, statusBar, view, showLedger(view, statusBar, sync, store, settings), shown);
  context.subscriptions.push(view.onDidChangeVisibility(({ visible }) => visible && shown.fire()));
  registerJobCommands(context, { command: ports.command, tracker, store, ui, log: log.scoped('commands') });
  return { jobs: store, tracker, tree, statusBar, onDidShowView: shown.event };
}
