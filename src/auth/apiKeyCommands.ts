// Set API Key and Clear API Key: the admin key in the editor's secret storage (apiKey.ts).
import * as vscode from 'vscode';
import type { Ui } from '../ui';
import { API_KEYS_PAGE, type ApiKeyStore, validateApiKey } from './apiKey';

interface ApiKeyCommandPorts {
  keys: Pick<ApiKeyStore, 'set' | 'clear'>;
  ui: Ui;
}

/** Set API Key: a key pasted in, checked before it is stored. */
export function setApiKeyCommand({ keys, ui }: ApiKeyCommandPorts) {
  return async (): Promise<void> => {
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
  };
}

/** Clear API Key. */
export function clearApiKeyCommand({ keys, ui }: ApiKeyCommandPorts) {
  return async (): Promise<void> => {
    await keys.clear();
    void ui.showMessage('info', vscode.l10n.t('Mintlify API key removed.'));
  };
}
