// What the agent reads besides the prompt: `.mintlify/AGENTS.md` in the docs repository steers every
// agent job, started from the dashboard, Slack or the API; the agent does not read CLAUDE.md,
// .cursorrules and the like. An AGENTS.md at the docs root is something else: the site publishes it
// at /agents.md, for anyone to read. From Agent Jobs the writer opens the file the agent will read
// (or creates it, at the private path), and is warned once per docs root when a public one exists.
import type * as vscode from 'vscode';
import { COMMANDS, type RegisterCommand } from '../commands';
import type { DocsLocator } from '../docs/docsLocator';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { background } from '../util/background';
import { openAgentInstructionsCommand } from './openAgentInstructions';
import { warnIfPublic } from './publicAgentsWarning';

interface AgentInstructionsPorts {
  command: RegisterCommand;
  /** Where the docs roots are (the folders holding docs.json). */
  docs: Pick<DocsLocator, 'roots'>;
  /** Fires when the Agent Jobs view is shown: the moment to warn about a public AGENTS.md. */
  onDidShowJobs: vscode.Event<void>;
  ui: Ui;
  log: Logger;
}

/** Registers Open Agent Instructions (openAgentInstructions.ts), and the one-time warning about a docs root's public AGENTS.md (publicAgentsWarning.ts). */
export function registerAgentInstructions(context: vscode.ExtensionContext, ports: AgentInstructionsPorts): void {
  const { command, docs, ui } = ports;
  const log = ports.log.scoped('agent');
  const { workspaceState } = context;
  command(COMMANDS.openAgentInstructions, openAgentInstructionsCommand({ docs, workspaceState, ui, log }));
  context.subscriptions.push(
    ports.onDidShowJobs(() => {
      const warned = docs.roots().then(async (roots) => {
        for (const root of roots) await warnIfPublic({ workspaceState, ui }, root);
      });
      background(warned, log, 'looking for a public AGENTS.md');
    }),
  );
}
