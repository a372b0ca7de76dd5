// The reader-signals commands wired: fetch the snapshot, open a signal's page, show a question's whole
// thread (one request), ask the agent to address a signal with the evidence, and "Did it help?" for
// a page a job changed. Every request passes the hour's gate, asked as the writer's. Each is a
// function of its ports in commands/ (one file per command, or per small group).
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { askToAddressCommand } from './commands/askToAddress';
import { checkSignalImpactCommand } from './commands/checkSignalImpact';
import { openSignalPageCommand, showAssistantThreadCommand } from './commands/openSignal';
import { refreshSignalsCommand } from './commands/refreshSignals';
import type { SignalsCommandPorts } from './commands/signalsCommandPorts';

export type { LiveSearch } from './commands/signalsCommandPorts';

export function registerSignalsCommands(_context: vscode.ExtensionContext, ports: SignalsCommandPorts): void {
  const { command } = ports;
  command(COMMANDS.refreshSignals, refreshSignalsCommand(ports));
  command(COMMANDS.askToAddress, askToAddressCommand(ports));
  command(COMMANDS.openSignalPage, openSignalPageCommand(ports));
  command(COMMANDS.showAssistantThread, showAssistantThreadCommand(ports));
  command(COMMANDS.checkSignalImpact, checkSignalImpactCommand(ports));
}
