// The key and the project: the key in SecretStorage (apiKey.ts), named to the shared ledger by its
// bucket, and the commands Set API Key, Clear API Key, Set Project ID.
import * as vscode from 'vscode';
import type { ConfiguredProject, Settings } from '../config';
import type { Logger } from '../log';
import type { RequestLedger } from '../sync/requestLedger';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { API_KEYS_PAGE, ApiKeyStore, validateApiKey } from './apiKey';
import { COMMANDS, type RegisterCommand } from '../commands';

export interface AuthPorts {
  command: RegisterCommand;
  settings: Settings;
  /** The request ledger counts requests per key: it is told which key this window uses. */
  ledger: Pick<RequestLedger, 'setKey'>;
  ui: Ui;
  log: Logger;
}

/** Builds the key store and registers the key's and the project's commands; returns the key store. */
export function registerAuth(context: vscode.ExtensionContext, ports: AuthPorts): ApiKeyStore {
  const { command, settings, ledger, ui } = ports;
  const keys = new ApiKeyStore(context.secrets, ports.log.scoped('auth'));
  context.subscriptions.push(
    keys,
    keys.onDidChange(() =>
      background(
        keys.get().then((key) => ledger.setKey(key)),
        ports.log,
        "naming the key's bucket in the shared ledger",
      ),
    ),
  );
  command(COMMANDS.setApiKey, async () => {
    const key = await ui.showInputBox({
      title: vscode.l10n.t('Mintlify: Set API Key'),
      prompt: vscode.l10n.t('Paste an admin API key (it starts with "mint_"). Create one on the dashboard\'s API keys page: {0}', API_KEYS_PAGE),
      placeHolder: 'mint_…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => validateApiKey(value),
    });
    if (key === undefined) return;
    const problem = validateApiKey(key);
    if (problem) {
      void ui.showMessage('error', problem);
      return;
    }
    await keys.set(key);
    void ui.showMessage('info', vscode.l10n.t('Mintlify API key saved in the editor’s secret storage.'));
  });
  command(COMMANDS.clearApiKey, async () => {
    await keys.clear();
    void ui.showMessage('info', vscode.l10n.t('Mintlify API key removed.'));
  });
  command(COMMANDS.setProjectId, async () => {
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
  });
  return keys;
}

/** Where a workspace's project ID is written, as the user finds it: the folder's settings file, or the workspace file. */
function settingsFileOf(project: ConfiguredProject): string {
  const file = vscode.workspace.workspaceFile;
  if (project.from === 'workspace' && file && file.scheme !== 'untitled') return vscode.workspace.asRelativePath(file, false);
  return project.folder ? `${project.folder.name}/.vscode/settings.json` : '.vscode/settings.json';
}
