// The one-time warning about a docs root's public AGENTS.md: the site publishes it at /agents.md,
// and it is not the file the agent reads (.mintlify/AGENTS.md).
import * as vscode from 'vscode';
import { isFile } from '../docs/docsLocator';
import type { Ui } from '../ui';

/** workspaceState: the docs roots whose public AGENTS.md the writer was warned about. */
const WARNED_KEY = 'mintlifyAgent.publicAgentsWarned';

export interface PublicWarningPorts {
  /** The workspace's state, where the docs roots warned about are kept. */
  workspaceState: vscode.Memento;
  ui: Ui;
}

/** Once per docs root (and workspace): an AGENTS.md there is public, and is not the file the agent reads. */
export async function warnIfPublic({ workspaceState, ui }: PublicWarningPorts, root: vscode.Uri): Promise<void> {
  const warned = workspaceState.get<string[]>(WARNED_KEY) ?? [];
  if (warned.includes(root.toString()) || !(await isFile(vscode.Uri.joinPath(root, 'AGENTS.md')))) return;
  await workspaceState.update(WARNED_KEY, [...warned, root.toString()]);
  void ui.showMessage(
    'warning',
    vscode.l10n.t(
      'The AGENTS.md at the root of your docs is published with the site at /agents.md: anyone can read it. The Mintlify agent reads .mintlify/AGENTS.md, which is not published. Move instructions meant only for the agent there.',
    ),
  );
}
