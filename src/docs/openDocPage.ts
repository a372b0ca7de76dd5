// Clicking a path in the analytics table opens the page's source in the workspace, if there is one.
import * as vscode from 'vscode';
import type { Logger } from '../log';
import type { Ui } from '../ui';
import { fileForSitePath } from './docsLocator';
import { docCandidates } from './sitePaths';

/** Opens the workspace file behind a docs path, or says why it cannot. */
export async function openDocPage(path: string, ui: Ui, log: Logger): Promise<void> {
  const shown = path.length > 80 ? `${path.slice(0, 77)}…` : path;
  const candidates = docCandidates(path);
  if (!candidates) {
    await ui.showMessage('info', vscode.l10n.t('"{0}" is not a page path that maps to a file.', shown));
    return;
  }
  if (!vscode.workspace.workspaceFolders?.length) {
    await ui.showMessage('info', vscode.l10n.t('Open your docs folder to jump from "{0}" to its page.', shown));
    return;
  }
  const uri = await fileForSitePath(path);
  if (uri) {
    log.debug(`opening ${uri.toString(true)} for a visitors path`);
    await vscode.window.showTextDocument(uri, { preview: true });
    return;
  }
  const message =
    path.length > 80
      ? vscode.l10n.t('No page for "{0}" in this workspace (looked for its .mdx and .md files and index pages).', shown)
      : vscode.l10n.t('No page for "{0}" in this workspace (looked for {1}).', shown, candidates.join(', '));
  await ui.showMessage('info', message);
}
