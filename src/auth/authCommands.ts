// Set API Key, Clear API Key, Set Project ID.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { Ui } from '../ui';
import { API_KEYS_PAGE, type ApiKeyStore, validateApiKey } from './apiKey';
import { COMMANDS, type RegisterCommand } from '../commands';

export function registerAuthCommands(command: RegisterCommand, keys: ApiKeyStore, settings: Settings, ui: Ui): void {
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
      const projectId = await ui.showInputBox({
        title: vscode.l10n.t('Mintlify: Set Project ID'),
        prompt: vscode.l10n.t('The project ID from the dashboard\'s API keys page ({0}). Saved in this workspace\'s settings.', API_KEYS_PAGE),
        value: settings.projectId ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Paste the project ID.')),
      });
      if (projectId === undefined || !projectId.trim()) return;
      await settings.setProjectId(projectId);
  });
}
