// The agent-job commands wired: Send Follow-up, Track Job, Start New Job, Open Pull Request, Copy
// Job ID, Refresh, Refresh All, Stop Tracking. Each is a function of its ports in commands/ (one file
// per command, or per small group); here each is registered with the guard every command has: no
// rejected promise escapes, and a failure is explained with the button that fixes it.
import type * as vscode from 'vscode';
import { COMMANDS, type CommandId } from '../commands';
import { type JobCommandPorts, reportJobFailure } from './commands/jobCommandPorts';
import { copyJobIdCommand, openPullRequestCommand, refreshJobCommand, stopTrackingCommand } from './commands/jobRowCommands';
import { sendFollowUpCommand } from './commands/sendFollowUp';
import { startJobCommand } from './commands/startJob';
import { trackJobCommand } from './commands/trackJob';

export type { PromptSent } from './commands/jobCommandPorts';

export function registerJobCommands(_context: vscode.ExtensionContext, ports: JobCommandPorts): void {
  const commands: { [id in CommandId]?: (...args: never[]) => unknown } = {
    [COMMANDS.sendFollowUp]: sendFollowUpCommand(ports),
    [COMMANDS.trackJob]: trackJobCommand(ports),
    [COMMANDS.startJob]: startJobCommand(ports),
    [COMMANDS.openPullRequest]: openPullRequestCommand(ports),
    [COMMANDS.copyJobId]: copyJobIdCommand(ports),
    [COMMANDS.refreshJob]: refreshJobCommand(ports),
    [COMMANDS.refreshJobs]: () => ports.tracker.refreshAll(),
    [COMMANDS.stopTracking]: stopTrackingCommand(ports),
  };
  for (const [id, handler] of Object.entries(commands) as [CommandId, (...args: never[]) => unknown][]) {
    ports.command(id, async (...args: never[]) => {
      try {
        // Start New Job and Send Follow-up resolve with a PromptSent (the job the prompt reached).
        return await handler(...args);
      } catch (error) {
        await reportJobFailure(ports, id === COMMANDS.startJob ? 'create' : id === COMMANDS.sendFollowUp ? 'send' : 'readJob', error);
        return undefined;
      }
    });
  }
}
