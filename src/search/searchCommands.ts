// The site's search commands wired: Check Live Search (a term, the inbox's group of them, or one typed),
// Open Page (a result's page: its workspace file by the one mapping, else the site's own https page),
// Searches Before and After (a job's terms, one by one), Send Misses to the Agent (one follow-up, the
// misses quoted as data in the nonce-marked evidence block), and the notification of a replay. Each
// is a function of its ports in commands/ (one file per command, or per small group).
import type * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { checkSearchCommand } from './commands/checkSearch';
import { openSearchPageCommand } from './commands/openSearchPage';
import type { SearchCommandPorts } from './commands/searchCommandPorts';
import { sendSearchMissesCommand } from './commands/sendSearchMisses';
import { replayNotification, showSearchReplayCommand } from './commands/showSearchReplay';

export function registerSearchCommands(context: vscode.ExtensionContext, ports: SearchCommandPorts): void {
  const { command } = ports;
  command(COMMANDS.checkSearch, checkSearchCommand(ports));
  command(COMMANDS.openSearchPage, openSearchPageCommand(ports));
  command(COMMANDS.showSearchReplay, showSearchReplayCommand(ports));
  command(COMMANDS.sendSearchMisses, sendSearchMissesCommand(ports));
  context.subscriptions.push(ports.replays.onDidReplay(replayNotification(ports)));
}
