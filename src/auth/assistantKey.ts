// The assistant API key (`mint_dsc_…`, one per deployment) and the site's domain identifier: what
// the site's own search takes (src/search), and nothing else of the extension. The key has its own
// slot in SecretStorage (apiKey.ts's store, another slot), is checked before it is stored (an admin
// key is refused here, as an assistant key is refused as the admin key) and is sent only in the
// Authorization header of a search, over https to the configured API. The domain identifier is a
// machine setting (config.ts), offered from a pasted dashboard URL. Commands: Set Assistant Key,
// Clear Assistant Key, Set Site Domain.
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { API_KEYS_PAGE, ApiKeyStore, type KeySlot } from './apiKey';
import { parseSiteDomain } from './siteDomain';
import { COMMANDS, type RegisterCommand } from '../commands';

/** Returns a sentence saying what is wrong with the key, or undefined when it looks like an assistant key. */
function validateAssistantKey(raw: string): string | undefined {
  const key = raw.trim();
  if (!key) return vscode.l10n.t('Paste your assistant API key.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces in it. Paste the key alone.');
  if (key.startsWith('mint_dsc_') && key.length > 'mint_dsc_'.length) return undefined;
  if (key.startsWith('mint_') && !key.startsWith('mint_us_') && !key.startsWith('mint_dsc_')) {
    return vscode.l10n.t(
      'This is an admin API key: it goes in "Mintlify: Set API Key". The site\'s search takes an assistant API key, starting with "mint_dsc_" (one per deployment), from the dashboard\'s API keys page ({0}).',
      API_KEYS_PAGE,
    );
  }
  return vscode.l10n.t('An assistant API key starts with "mint_dsc_". Create one on the dashboard\'s API keys page ({0}).', API_KEYS_PAGE);
}

const ASSISTANT_KEY_SLOT: KeySlot = { secret: 'mintlifyAgent.assistantKey', validate: validateAssistantKey };

interface AssistantKeyPorts {
  command: RegisterCommand;
  settings: Pick<Settings, 'search'>;
  ui: Ui;
  log: Logger;
}

/** Builds the assistant key's store and registers its commands and Set Site Domain; returns the store. */
export function registerAssistantKey(context: vscode.ExtensionContext, ports: AssistantKeyPorts): ApiKeyStore {
  const { command, settings, ui } = ports;
  const keys = new ApiKeyStore(context.secrets, ports.log.scoped('assistant key'), ASSISTANT_KEY_SLOT);
  context.subscriptions.push(keys);

  /** Asks for the domain identifier; true when one is set (already, or now). */
  const askDomain = async (): Promise<boolean> => {
    const typed = await ui.showInputBox({
      title: vscode.l10n.t('Mintlify: Set Site Domain'),
      prompt: vscode.l10n.t(
        'The site’s domain identifier: the end of your dashboard’s URL (app.mintlify.com/<organisation>/<domain>), or the <domain> of <domain>.mintlify.site. Paste the dashboard’s URL if you like. Saved in your user settings.',
      ),
      value: settings.search.siteDomain ?? '',
      placeHolder: 'acme-docs',
      ignoreFocusOut: true,
      validateInput: (value) =>
        parseSiteDomain(value) ? undefined : vscode.l10n.t('Paste the dashboard’s URL (app.mintlify.com/<organisation>/<domain>) or the domain identifier.'),
    });
    const domain = typed === undefined ? undefined : parseSiteDomain(typed);
    if (!domain) return false;
    await settings.search.setSiteDomain(domain);
    return true;
  };

  command(COMMANDS.setAssistantKey, async () => {
    const key = await ui.showInputBox({
      title: vscode.l10n.t('Mintlify: Set Assistant Key'),
      prompt: vscode.l10n.t(
        'Paste an assistant API key (it starts with "mint_dsc_"), for the site’s own search. Create one on the dashboard’s API keys page: {0}',
        API_KEYS_PAGE,
      ),
      placeHolder: 'mint_dsc_…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => validateAssistantKey(value),
    });
    if (key === undefined) return;
    const problem = validateAssistantKey(key);
    if (problem) return void ui.showMessage('error', problem);
    await keys.set(key);
    const domain = settings.search.siteDomain ?? ((await askDomain()) ? settings.search.siteDomain : undefined);
    void ui.showMessage(
      'info',
      domain
        ? vscode.l10n.t(
            'Assistant key saved in the editor’s secret storage. Searches readers gave up on can be checked against the live search of “{0}” (Reader Signals › Check Live Search).',
            domain,
          )
        : vscode.l10n.t('Assistant key saved in the editor’s secret storage. Run “Mintlify: Set Site Domain” to name the site it searches.'),
    );
  });
  command(COMMANDS.clearAssistantKey, async () => {
    await keys.clear();
    void ui.showMessage('info', vscode.l10n.t('Assistant key removed.'));
  });
  command(COMMANDS.setSiteDomain, async () => {
    if (await askDomain()) void ui.showMessage('info', vscode.l10n.t('The site’s search is “{0}”.', settings.search.siteDomain ?? ''));
  });
  return keys;
}
