// What the agent reads besides the prompt: `.mintlify/AGENTS.md` in the docs repository steers every
// agent job, started from the dashboard, Slack or the API; the agent does not read CLAUDE.md,
// .cursorrules and the like. An AGENTS.md at the docs root is something else: the site publishes it
// at /agents.md, for anyone to read. From Agent Jobs the writer opens the file the agent will read
// (or creates it, at the private path), and is warned once per docs root when a public one exists.
import * as vscode from 'vscode';
import { COMMANDS, type RegisterCommand } from '../commands';
import { type DocsLocator, isFile } from '../docs/docsLocator';
import type { Logger } from '../log';
import { writeUriAtomically } from '../sync/safeWrite';
import type { Ui } from '../ui';
import { background } from '../util/background';

/** The private path the agent reads, under the docs root. */
export const AGENT_INSTRUCTIONS = ['.mintlify', 'AGENTS.md'] as const;
/** Files other coding agents read and the Mintlify agent does not. */
const IGNORED = ['CLAUDE.md', '.cursorrules'] as const;
/** workspaceState: the docs roots whose public AGENTS.md the writer was warned about. */
const WARNED_KEY = 'mintlifyAgent.publicAgentsWarned';

export interface AgentInstructionsPorts {
  command: RegisterCommand;
  /** Where the docs roots are (the folders holding docs.json). */
  docs: Pick<DocsLocator, 'roots'>;
  /** Fires when the Agent Jobs view is shown: the moment to warn about a public AGENTS.md. */
  onDidShowJobs: vscode.Event<void>;
  ui: Ui;
  log: Logger;
}

/** Registers Open Agent Instructions, and the one-time warning about a docs root's public AGENTS.md. */
export function registerAgentInstructions(context: vscode.ExtensionContext, ports: AgentInstructionsPorts): void {
  const { command, docs, ui } = ports;
  const log = ports.log.scoped('agent');

  /** The docs root to use: the one, or the writer's pick of several; the workspace folder without a docs.json. */
  async function docsRoot(): Promise<vscode.Uri | undefined> {
    const roots = await docs.roots();
    const candidates = roots.length ? roots : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
    if (candidates.length <= 1) return candidates[0];
    const picked = await ui.showQuickPick(
      candidates.map((uri) => ({ label: vscode.workspace.asRelativePath(uri, true) || uri.path, uri })),
      { title: vscode.l10n.t('Which docs site’s agent instructions?') },
    );
    return picked?.uri;
  }

  /** Once per docs root (and workspace): an AGENTS.md there is public, and is not the file the agent reads. */
  async function warnIfPublic(root: vscode.Uri): Promise<void> {
    const warned = context.workspaceState.get<string[]>(WARNED_KEY) ?? [];
    if (warned.includes(root.toString()) || !(await isFile(vscode.Uri.joinPath(root, 'AGENTS.md')))) return;
    await context.workspaceState.update(WARNED_KEY, [...warned, root.toString()]);
    void ui.showMessage(
      'warning',
      vscode.l10n.t(
        'The AGENTS.md at the root of your docs is published with the site at /agents.md: anyone can read it. The Mintlify agent reads .mintlify/AGENTS.md, which is not published. Move instructions meant only for the agent there.',
      ),
    );
  }

  async function openInstructions(): Promise<vscode.Uri | undefined> {
    const root = await docsRoot();
    if (!root) return void ui.showMessage('info', vscode.l10n.t('Open your docs repository to see the instructions the agent reads (.mintlify/AGENTS.md).'));
    await warnIfPublic(root);
    const file = vscode.Uri.joinPath(root, ...AGENT_INSTRUCTIONS);
    if (!(await isFile(file))) {
      const ignored = (await Promise.all(IGNORED.map(async (name) => ((await isFile(vscode.Uri.joinPath(root, name))) ? name : undefined)))).filter(Boolean);
      const create = vscode.l10n.t('Create .mintlify/AGENTS.md');
      const message = [
        vscode.l10n.t(
          'The agent reads .mintlify/AGENTS.md in your docs repository for every job (from the dashboard, Slack or the API). This repository has none yet.',
        ),
        ignored.length
          ? vscode.l10n.t('It does not read {0}, which this repository has.', ignored.join(', '))
          : vscode.l10n.t('It does not read CLAUDE.md, .cursorrules or the like.'),
      ].join(' ');
      if ((await ui.showMessage('info', message, create)) !== create) return undefined;
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
      // Created only if still missing: a file made meanwhile (a pull, a teammate's save) is opened, not replaced.
      if (!(await isFile(file))) await writeUriAtomically(file, template());
      log.info(`created ${file.toString(true)}`);
    }
    await vscode.window.showTextDocument(file, { preview: false });
    return file;
  }

  command(COMMANDS.openAgentInstructions, openInstructions);
  context.subscriptions.push(
    ports.onDidShowJobs(() => {
      const warned = docs.roots().then(async (roots) => {
        for (const root of roots) await warnIfPublic(root);
      });
      background(warned, log, 'looking for a public AGENTS.md');
    }),
  );
}

/** The new file's first text: what it is for, in the writer's language. */
function template(): string {
  return [
    `# ${vscode.l10n.t('Instructions for the Mintlify agent')}`,
    '',
    vscode.l10n.t('The agent reads this file for every job, from the dashboard, Slack or the API. It is not published with the site.'),
    '',
    `- ${vscode.l10n.t('Our style: …')}`,
    `- ${vscode.l10n.t('Files and folders to leave alone: …')}`,
    '',
  ].join('\n');
}
