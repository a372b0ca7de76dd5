// Open Rendered Page: a changed page of the agent's branch, as its preview renders it, beside its diff
// inside VS Code (the built-in Simple Browser), with a way out to the external browser. Which page a
// file is comes from the same mapping the readers use (src/docs: docs.json's root, index pages);
// a page the agent removed says so instead of opening a 404. The address is the preview's, an API
// value: opened only when it is https (or loopback in tests), and nothing of ours goes with it.
import * as vscode from 'vscode';
import type { DocsLocator } from '../docs/docsLocator';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { Ui } from '../ui';
import { background, type BackgroundLog } from '../util/background';
import { pageUrl, removedIn, type SharedPreview } from './previewRecord';

export interface RenderedPageDeps {
  docs: Pick<DocsLocator, 'pageOf'>;
  hints: Pick<WorkspaceGit, 'git' | 'repositoryPathOf'>;
  ui: Ui;
  log: BackgroundLog;
}

/** A page to open: its site path, and the file it comes from when known. */
export interface PageTarget {
  sitePath: string;
  repositoryPath?: string;
}

/** What Open Rendered Page did: the address it opened, or why it opened none. */
export type Opened = { url: string } | { removed: string } | { notPage: string } | { refused: string };

/**
 * The Simple Browser beside the active editor (the diff, when one is): true. Its
 * `simpleBrowser.api.open` (which activates it) takes where to show; `simpleBrowser.show`, the
 * palette's, opens in the active group, over the diff, so it is only the fallback for a build whose
 * Simple Browser lacks the first: false.
 */
async function showInSimpleBrowser(url: URL): Promise<boolean> {
  try {
    await vscode.commands.executeCommand('simpleBrowser.api.open', vscode.Uri.parse(url.href), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    return true;
  } catch {
    await vscode.commands.executeCommand('simpleBrowser.show', url.href);
    return false;
  }
}

/** Whether the active editor is a diff: a text diff, or Review Changes' (whose tab input the API does not name, so `fromDiff` says it: its title's button). */
function diffIsActive(fromDiff: boolean): boolean {
  return fromDiff || vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff;
}

/** The workspace file of a diff's side: Review Changes' sides are `git:` URIs whose path is the file's. */
function fileOf(uri: vscode.Uri): vscode.Uri {
  return uri.scheme === 'file' ? uri : vscode.Uri.file(uri.fsPath);
}

/** The page an editor's file is, and its path in the repository; undefined for a file that is no page. */
export async function pageOfUri(deps: RenderedPageDeps, uri: vscode.Uri): Promise<PageTarget | undefined> {
  const file = fileOf(uri);
  const page = await deps.docs.pageOf(file);
  if (!page) return undefined;
  return { sitePath: page.sitePath, repositoryPath: (await deps.hints.repositoryPathOf(file)) ?? page.workspacePath };
}

/** The pages the build changed (added, modified, removed), each with its site path, for a pick. */
export async function changedPages(deps: RenderedPageDeps, preview: SharedPreview): Promise<PageTarget[]> {
  const files = preview.files ? [...preview.files.modified, ...preview.files.added, ...preview.files.removed] : [];
  const root =
    (await deps.hints.git())?.repositories.find((r) => vscode.workspace.getWorkspaceFolder(r.rootUri))?.rootUri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) return [];
  const pages: PageTarget[] = [];
  for (const path of new Set(files)) {
    const page = await deps.docs.pageOf(vscode.Uri.joinPath(root, ...path.split('/')));
    if (page) pages.push({ sitePath: page.sitePath, repositoryPath: path });
  }
  return pages;
}

/**
 * Opens the page of the preview beside the active editor (the diff, when `fromDiff`: the command came
 * from a diff's title); a removed page, a non-page or an address we do not open says so.
 */
export async function openRenderedPage(deps: RenderedPageDeps, preview: SharedPreview, target: PageTarget, fromDiff: boolean): Promise<Opened> {
  if (target.repositoryPath && removedIn(preview, target.repositoryPath)) {
    void deps.ui.showMessage('info', vscode.l10n.t('The agent removed {0}, so the preview has no {1} page to show.', target.repositoryPath, target.sitePath));
    return { removed: target.sitePath };
  }
  const url = preview.previewUrl ? pageUrl(preview.previewUrl, target.sitePath) : undefined;
  if (!url) {
    void deps.ui.showMessage('warning', vscode.l10n.t('The preview’s address “{0}” is not an https address, so it is not opened.', preview.previewUrl ?? ''));
    return { refused: preview.previewUrl ?? '' };
  }
  // Said before it opens: the Simple Browser becomes the active editor.
  const besideDiff = diffIsActive(fromDiff);
  const beside = await showInSimpleBrowser(url);
  const external = vscode.l10n.t('Open in Browser');
  const where =
    beside && besideDiff
      ? vscode.l10n.t('{0} of the preview is open beside the diff.', target.sitePath)
      : vscode.l10n.t('{0} of the preview is open in the Simple Browser.', target.sitePath);
  const answered = deps.ui.showMessage('info', where, external).then(async (choice) => {
    if (choice === external) await deps.ui.openExternal(vscode.Uri.parse(url.href));
  });
  background(answered, deps.log, "the rendered page's notice");
  return { url: url.href };
}
