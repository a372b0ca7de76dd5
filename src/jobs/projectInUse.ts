// Which project the jobs view shows: with several folders open the project follows the active docs
// file, so the folder it comes from is named too. Shown next to the view's title (ledgerView.ts).
import * as vscode from 'vscode';
import type { Settings } from '../config';

export function projectInUse(settings: Settings): string | undefined {
  const projectId = settings.projectId;
  const folder = settings.projectFolder;
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return !projectId ? undefined : multiRoot && folder ? `${projectId} · ${folder.name}` : projectId;
}
