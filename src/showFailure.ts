// Shows an error with the buttons that fix it. The buttons that open a command (Set API Key, Set
// Project ID, Show Log) run it here; the caller gets the choice to handle its own (Retry, Stop Tracking).
import * as vscode from 'vscode';
import { Action } from './errorMessages';
import type { Ui } from './ui';

const COMMANDS: Readonly<Record<string, string>> = {
  [Action.setApiKey]: 'mintlifyAgent.setApiKey',
  [Action.setProjectId]: 'mintlifyAgent.setProjectId',
  [Action.showLog]: 'mintlifyAgent.showLog',
};

export async function showFailure(ui: Ui, message: string, actions: readonly string[]): Promise<string | undefined> {
  const choice = await ui.showMessage('error', message, ...actions);
  const command = choice && COMMANDS[choice];
  if (command) await vscode.commands.executeCommand(command);
  return choice;
}
