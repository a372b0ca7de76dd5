// The shared ledger made visible: the Agent Jobs view's description (after the project in use;
// shown when the view has a header of its own) and the running-jobs status bar item's tooltip read "N of 100 agent requests
// this hour" (every window counts the same requests). The analytics count is exposed as
// the ledger's analyticsRequestsThisHour() (requestLedger.ts), for the analytics panel.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import { HOURLY_LIMIT } from '../hour/ledger';
import type { WindowSync } from './windowSync';

/** How often the figure is redrawn while nothing happens: requests slide out of the hour. */
const REDRAW_MS = 30_000;

export function showLedger(
  view: vscode.TreeView<unknown>,
  statusBar: { setDetail(text: string | undefined): void },
  sync: Pick<WindowSync, 'ledger' | 'lease'>,
  project: { readonly projectId: string | undefined },
  settings: Settings,
): vscode.Disposable {
  const update = () => {
    const projectId = project.projectId;
    const text = projectId ? vscode.l10n.t('{0} of {1} agent requests this hour', sync.ledger.agentRequestsThisHour(projectId), HOURLY_LIMIT) : undefined;
    view.description = [projectInUse(settings), text].filter(Boolean).join(' · ') || undefined;
    statusBar.setDetail(text);
  };
  const listener = vscode.Disposable.from(
    sync.ledger.onDidChange(update),
    sync.lease.onDidChange(update),
    settings.onDidChange(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
  );
  const timer = setInterval(update, REDRAW_MS);
  update();
  return { dispose: () => (listener.dispose(), clearInterval(timer)) };
}

/**
 * Which project the jobs view shows: with several folders open the project follows the active docs
 * file, so the folder it comes from is named too.
 */
function projectInUse(settings: Settings): string | undefined {
  const projectId = settings.projectId;
  const folder = settings.projectFolder;
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return !projectId ? undefined : multiRoot && folder ? `${projectId} · ${folder.name}` : projectId;
}
