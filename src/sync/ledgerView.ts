// The shared ledger made visible: the Agent Jobs view's description reads "N of 100 agent
// requests this hour" (every window counts the same requests). The analytics count is exposed as
// WindowSync.analyticsRequestsThisHour() with WindowSync.onDidChange for the analytics panel.
import * as vscode from 'vscode';
import { HOURLY_LIMIT } from './ledger';
import type { WindowSync } from './windowSync';

/** How often the figure is redrawn while nothing happens: requests slide out of the hour. */
const REDRAW_MS = 30_000;

export function showLedger(view: vscode.TreeView<unknown>, sync: WindowSync, project: { readonly projectId: string | undefined }): vscode.Disposable {
  const update = () => {
    const projectId = project.projectId;
    if (!projectId) {
      view.description = undefined;
      return;
    }
    const count = sync.agentRequestsThisHour(projectId);
    view.description = vscode.l10n.t('{0} of {1} agent requests this hour', count, HOURLY_LIMIT);
  };
  const listener = sync.onDidChange(update);
  const timer = setInterval(update, REDRAW_MS);
  update();
  return { dispose: () => (listener.dispose(), clearInterval(timer)) };
}
