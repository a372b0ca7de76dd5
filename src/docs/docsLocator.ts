// Where the docs live in this window and which page a file is. A Mintlify docs root is the folder
// holding docs.json (mint.json before 2025), which may sit below the workspace folder (a monorepo's
// `docs/`); without one, the workspace folder is the root. The config files are searched once and
// again only when one is created or deleted, and a root's `.mintignore` is read once and again when
// it changes, so asking about the active editor on every switch is cheap.
import * as vscode from 'vscode';
import { Disposable } from '../util/lifecycle';
import { ignoreRules, type IgnoreRules } from './ignoreRules';
import { docCandidates, docsRootOf, relativeTo, sitePathOf } from './sitePaths';

const CONFIG_FILES = '**/{docs.json,mint.json}';
/** The files of a docs root Mintlify leaves out of the site, beside its docs.json. */
const IGNORE_FILE = '.mintignore';
const EXCLUDE = '**/node_modules/**';

/** A workspace file that is a page of the docs site. */
export interface DocPage {
  uri: vscode.Uri;
  /** `/guides/webhooks` (no trailing slash; `/` for the home page). */
  sitePath: string;
  /** The folder holding docs.json/mint.json, or the workspace folder. */
  docsRoot: vscode.Uri;
  /** The file's path relative to its workspace folder, POSIX separators (`docs/quickstart.mdx`). */
  workspacePath: string;
  workspaceFolder: vscode.WorkspaceFolder;
}

export class DocsLocator extends Disposable {
  private configRoots: Promise<vscode.Uri[]> | undefined;
  /** Each docs root's ignore rules (by its URI), read on first use. */
  private readonly ignores = new Map<string, Promise<IgnoreRules>>();
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when a docs.json/mint.json or a .mintignore appears, changes or goes, or the workspace folders change. */
  readonly onDidChange = this.changeEmitter.event;

  constructor() {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(CONFIG_FILES, false, true, false));
    const forget = () => {
      this.configRoots = undefined;
      this.changeEmitter.fire();
    };
    this.register(watcher.onDidCreate(forget));
    this.register(watcher.onDidDelete(forget));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(forget));
    const ignoreWatcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${IGNORE_FILE}`));
    const reread = () => {
      this.ignores.clear();
      this.changeEmitter.fire();
    };
    for (const event of [ignoreWatcher.onDidCreate, ignoreWatcher.onDidChange, ignoreWatcher.onDidDelete]) this.register(event(reread));
  }

  /** The page a file is, or undefined for a file that is not one (wrong extension, outside the docs root, not a `file`-like scheme). */
  async pageOf(uri: vscode.Uri): Promise<DocPage | undefined> {
    const workspaceFolder = vscode.workspace.getWorkspaceFolder(uri);
    if (!workspaceFolder) return undefined;
    if (!/\.mdx?$/i.test(uri.path)) return undefined; // the cheap no, before any search
    const roots = (await this.findConfigRoots()).filter((root) => root.scheme === uri.scheme && root.authority === uri.authority);
    const rootPath = docsRootOf(
      uri.path,
      roots.map((r) => r.path),
      workspaceFolder.uri.path,
    );
    if (rootPath === undefined) return undefined;
    const relative = relativeTo(uri.path, rootPath);
    const docsRoot = uri.with({ path: rootPath });
    const sitePath = relative === undefined ? undefined : sitePathOf(relative, await this.ignoreRulesOf(docsRoot));
    if (sitePath === undefined) return undefined;
    return {
      uri,
      sitePath,
      docsRoot,
      workspacePath: relativeTo(uri.path, workspaceFolder.uri.path) ?? uri.path,
      workspaceFolder,
    };
  }

  /** The docs roots: the folders holding docs.json/mint.json, shallow first (none without a config file). */
  roots(): Promise<vscode.Uri[]> {
    return this.findConfigRoots();
  }

  /** The workspace file behind a site path: the first candidate that exists under a docs root. */
  async fileOf(sitePath: string): Promise<vscode.Uri | undefined> {
    return fileForSitePath(sitePath, await this.findConfigRoots());
  }

  /** The rules of a docs root: Mintlify's own, and its .mintignore's when it has one. */
  private ignoreRulesOf(docsRoot: vscode.Uri): Promise<IgnoreRules> {
    const key = docsRoot.toString();
    const known = this.ignores.get(key);
    if (known) return known;
    const rules = readIgnoreRules(docsRoot);
    this.ignores.set(key, rules);
    return rules;
  }

  private findConfigRoots(): Promise<vscode.Uri[]> {
    this.configRoots ??= findConfigRoots();
    return this.configRoots;
  }
}

/**
 * The workspace file behind a site path: the first candidate that exists under a docs root (config
 * folders, shallow first, then the workspace folders). Searches for the config files unless given them.
 */
export async function fileForSitePath(sitePath: string, configRoots?: vscode.Uri[]): Promise<vscode.Uri | undefined> {
  const candidates = docCandidates(sitePath);
  if (!candidates) return undefined;
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
  const seen = new Set<string>();
  for (const root of [...(configRoots ?? (await findConfigRoots())), ...folders]) {
    if (seen.has(root.toString())) continue;
    seen.add(root.toString());
    for (const candidate of candidates) {
      if (sitePathOf(candidate) === undefined) continue; // snippets/x.mdx is no page's file
      const uri = vscode.Uri.joinPath(root, ...candidate.split('/'));
      if (await isFile(uri)) return uri;
    }
  }
  return undefined;
}

async function findConfigRoots(): Promise<vscode.Uri[]> {
  const configs = await vscode.workspace.findFiles(CONFIG_FILES, EXCLUDE, 50);
  const roots = configs.map((uri) => vscode.Uri.joinPath(uri, '..'));
  // Shallow docs folders first: a docs.json at the root beats one in a fixture three levels down.
  return roots.sort((a, b) => a.path.split('/').length - b.path.split('/').length);
}

async function readIgnoreRules(docsRoot: vscode.Uri): Promise<IgnoreRules> {
  try {
    return ignoreRules(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(docsRoot, IGNORE_FILE))));
  } catch {
    return ignoreRules(); // no .mintignore: only Mintlify's own rules
  }
}

/** Whether a file is there (not a folder; a name the file system refuses is not one). */
export async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return (await vscode.workspace.fs.stat(uri)).type === vscode.FileType.File;
  } catch {
    return false; // missing, or a name the file system refuses (a 5,000-character path)
  }
}
