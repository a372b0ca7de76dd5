// Clicking a path in the analytics table opens the page's source in the workspace, if there is one.
// A Mintlify docs folder is the folder holding docs.json (mint.json before 2025), which may sit
// below the workspace folder (a monorepo's `docs/`); the workspace folders themselves come next.
import * as vscode from 'vscode';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { docCandidates } from './docPaths';

const CONFIG_FILES = '**/{docs.json,mint.json}';
const EXCLUDE = '**/node_modules/**';

/** Opens the workspace file behind a docs path, or says why it cannot. */
export async function openDocPage(path: string, ui: Ui, log: Logger): Promise<void> {
  const shown = path.length > 80 ? `${path.slice(0, 77)}…` : path;
  const candidates = docCandidates(path);
  if (!candidates) {
    await ui.showMessage('info', vscode.l10n.t('"{0}" is not a page path that maps to a file.', shown));
    return;
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) {
    await ui.showMessage('info', vscode.l10n.t('Open your docs folder to jump from "{0}" to its page.', shown));
    return;
  }
  for (const root of await docsRoots(folders)) {
    for (const candidate of candidates) {
      const uri = vscode.Uri.joinPath(root, ...candidate.split('/'));
      if (await isFile(uri)) {
        log.debug(`opening ${uri.toString(true)} for a visitors path`);
        await vscode.window.showTextDocument(uri, { preview: true });
        return;
      }
    }
  }
  const message =
    path.length > 80
      ? vscode.l10n.t('No page for "{0}" in this workspace (looked for its .mdx and .md files and index pages).', shown)
      : vscode.l10n.t('No page for "{0}" in this workspace (looked for {1}).', shown, candidates.join(', '));
  await ui.showMessage('info', message);
}

async function docsRoots(folders: readonly vscode.WorkspaceFolder[]): Promise<vscode.Uri[]> {
  const configs = await vscode.workspace.findFiles(CONFIG_FILES, EXCLUDE, 20);
  const roots = configs.map((uri) => vscode.Uri.joinPath(uri, '..'));
  // Shallow docs folders first: a docs.json at the root beats one in a fixture three levels down.
  roots.sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  const seen = new Set<string>();
  return [...roots, ...folders.map((f) => f.uri)].filter((uri) => {
    const id = uri.toString();
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return (await vscode.workspace.fs.stat(uri)).type === vscode.FileType.File;
  } catch {
    return false; // missing, or a name the file system refuses (a 5,000-character path)
  }
}
