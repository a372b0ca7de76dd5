// Open Agent Instructions: the file the agent reads for every job, .mintlify/AGENTS.md in the docs
// repository, opened (or created, at that private path, once the writer says so).
import * as vscode from 'vscode';
import { type DocsLocator, isFile } from '../docs/docsLocator';
import type { Logger } from '../log';
import { writeUriAtomically } from '../util/safeWrite';
import { type PublicWarningPorts, warnIfPublic } from './publicAgentsWarning';

/** The private path the agent reads, under the docs root. */
const AGENT_INSTRUCTIONS = ['.mintlify', 'AGENTS.md'] as const;
/** Files other coding agents read and the Mintlify agent does not. */
const IGNORED = ['CLAUDE.md', '.cursorrules'] as const;

interface OpenInstructionsPorts extends PublicWarningPorts {
  /** Where the docs roots are (the folders holding docs.json). */
  docs: Pick<DocsLocator, 'roots'>;
  log: Logger;
}

/** The command: resolves with the file opened, or undefined when none was. */
export function openAgentInstructionsCommand(ports: OpenInstructionsPorts) {
  const { ui, log } = ports;
  return async (): Promise<vscode.Uri | undefined> => {
    const root = await docsRoot(ports);
    if (!root) return void ui.showMessage('info', vscode.l10n.t('Open your docs repository to see the instructions the agent reads (.mintlify/AGENTS.md).'));
    await warnIfPublic(ports, root);
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
  };
}

/** The docs root to use: the one, or the writer's pick of several; the workspace folder without a docs.json. */
async function docsRoot({ docs, ui }: OpenInstructionsPorts): Promise<vscode.Uri | undefined> {
  const roots = await docs.roots();
  const candidates = roots.length ? roots : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
  if (candidates.length <= 1) return candidates[0];
  const picked = await ui.showQuickPick(
    candidates.map((uri) => ({ label: vscode.workspace.asRelativePath(uri, true) || uri.path, uri })),
    { title: vscode.l10n.t('Which docs site’s agent instructions?') },
  );
  return picked?.uri;
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
