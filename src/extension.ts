// activate() is the table of contents: each line wires one concern, and everything it creates is
// disposed with the extension. Nothing here touches the network.
import * as vscode from 'vscode';
import { createLogger } from './log';

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Mintlify Agent & Analytics', { log: true });
  context.subscriptions.push(channel);
  const log = createLogger(channel);

  context.subscriptions.push(vscode.commands.registerCommand('mintlifyAgent.showLog', () => channel.show()));
  log.info(`activated (${context.extension.packageJSON.version as string})`);
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
