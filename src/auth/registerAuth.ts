// The key and the project: the key in SecretStorage (apiKey.ts), named to the shared ledger by its
// bucket, and the commands Set API Key, Clear API Key (apiKeyCommands.ts) and Set Project ID
// (setProjectId.ts), wired.
import type * as vscode from 'vscode';
import type { Settings } from '../config';
import type { Logger } from '../log';
import type { RequestLedger } from '../sync/requestLedger';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { ApiKeyStore } from './apiKey';
import { clearApiKeyCommand, setApiKeyCommand } from './apiKeyCommands';
import { setProjectIdCommand } from './setProjectId';
import { COMMANDS, type RegisterCommand } from '../commands';

interface AuthPorts {
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
  command(COMMANDS.setApiKey, setApiKeyCommand({ keys, ui }));
  command(COMMANDS.clearApiKey, clearApiKeyCommand({ keys, ui }));
  command(COMMANDS.setProjectId, setProjectIdCommand({ settings, ui }));
  return keys;
}
