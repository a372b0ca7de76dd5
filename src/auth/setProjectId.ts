// Set Project ID: the project the key acts on, saved in the workspace's settings; in a folder not
// trusted yet, the project its settings name is used only once the writer says so.
import * as vscode from 'vscode';
import type { ConfiguredProject, Settings } from '../config';
import type { Ui } from '../ui';
import { API_KEYS_PAGE } from './apiKey';

interface SetProjectIdPorts {
  settings: Pick<Settings, 'unconfirmedProject' | 'confirmProject' | 'projectId' | 'setProjectId'>;
  ui: Ui;
}

export function setProjectIdCommand({ settings, ui }: SetProjectIdPorts) {
  return async (): Promise<void> => {
    // In a folder not trusted yet, the project its settings name is used only once the user says so.
    const named = settings.unconfirmedProject;
    if (named) {
      const use = vscode.l10n.t('Use “{0}”', named.projectId);
      const other = vscode.l10n.t('Enter Another…');
      const choice = await ui.showMessage(
        'warning',
        vscode.l10n.t(
          'This folder is not trusted, and its settings ({0}) name the Mintlify project “{1}”. Your API key acts on the project used here: it starts agent jobs and reads analytics there. Nothing has been sent to it. Use “{1}” in this folder?',
          settingsFileOf(named),
          named.projectId,
        ),
        use,
        other,
      );
      if (choice === use) return settings.confirmProject(named);
      if (choice !== other) return;
    }
    const projectId = await ui.showInputBox({
      title: vscode.l10n.t('Mintlify: Set Project ID'),
      prompt: vscode.l10n.t("The project ID from the dashboard's API keys page ({0}). Saved in this workspace's settings.", API_KEYS_PAGE),
      value: settings.projectId ?? '',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Paste the project ID.')),
    });
    if (projectId === undefined || !projectId.trim()) return;
    await settings.setProjectId(projectId);
  };
}

/** Where a workspace's project ID is written, as the user finds it: the folder's settings file, or the workspace file. */
function settingsFileOf(project: ConfiguredProject): string {
  const file = vscode.workspace.workspaceFile;
  if (project.from === 'workspace' && file && file.scheme !== 'untitled') return vscode.workspace.asRelativePath(file, false);
  return project.folder ? `${project.folder.name}/.vscode/settings.json` : '.vscode/settings.json';
}
