// Shows a failure as the table in errorMessages.ts describes it, with the buttons that fix it: the
// one way a failure reaches the writer. The buttons that open a command (Set API Key, Set Project ID,
// Open Git Settings, Manage Workspace Trust, Set Assistant Key, Set Site Domain, Show Log) run it
// here; the caller gets the others to handle itself (Retry, Send Again, Open Job, Track Job, Stop
// Tracking, Open Pull Request, Tell Me When It Finishes).
import * as vscode from 'vscode';
import { actionLabel, type FailureAction, type FailureView } from './errorMessages';
import type { Ui } from './ui';
import { COMMANDS, type CommandId } from './commands';

/** Our commands, and VS Code's own (with their argument). */
const ACTION_COMMANDS: Partial<Record<FailureAction, [command: CommandId | 'workbench.action.openSettings' | 'workbench.trust.manage', ...args: string[]]>> = {
  setApiKey: [COMMANDS.setApiKey],
  setProjectId: [COMMANDS.setProjectId],
  gitSettings: ['workbench.action.openSettings', 'git.enabled'],
  manageTrust: ['workbench.trust.manage'],
  setAssistantKey: [COMMANDS.setAssistantKey],
  setSiteDomain: [COMMANDS.setSiteDomain],
  showLog: [COMMANDS.showLog],
};

export async function showFailure(ui: Ui, view: FailureView): Promise<FailureAction | undefined> {
  if (view.severity === 'none') return undefined;
  const labels = view.actions.map((action) => actionLabel(action, vscode.l10n));
  const label = await ui.showMessage(view.severity, view.message, ...labels);
  const choice = label === undefined ? undefined : view.actions[labels.indexOf(label)];
  const command = choice && ACTION_COMMANDS[choice];
  if (command) await vscode.commands.executeCommand(...command);
  return choice;
}
