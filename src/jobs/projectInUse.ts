// Says which project the jobs view shows, next to its title: with several folders open the project
// follows the active docs file, so the folder it comes from is named too.
import * as vscode from 'vscode';
import type { Settings } from '../config';

export function showProjectInUse(view: vscode.TreeView<unknown>, settings: Settings): vscode.Disposable {
  const update = () => {
    const projectId = settings.projectId;
    const folder = settings.projectFolder;
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    view.description = !projectId ? undefined : multiRoot && folder ? `${projectId} · ${folder.name}` : projectId;
  };
  update();
  return vscode.Disposable.from(settings.onDidChange(update), vscode.workspace.onDidChangeWorkspaceFolders(update));
}
