// The few parts of the built-in Git extension's API (`vscode.git`, getAPI(1)) this extension uses,
// written out here instead of vendoring its whole git.d.ts. Names and values match that file.
//
// Loaded lazily, not declared in `extensionDependencies`: a dependency would make our activation
// wait for Git's, and with Git disabled (`git.enabled: false`, or the extension turned off) VS Code
// would refuse to activate us at all, taking the jobs tree and analytics down with it. Asking for
// it only when a review is wanted keeps activation fast and lets us say what to fix.
import * as vscode from 'vscode';

/** git.d.ts `Status` (the values a branch diff or a dirty check meets; git sends others too). */
export const enum GitStatus {
  INDEX_ADDED = 1,
  INDEX_DELETED = 2,
  INDEX_RENAMED = 3,
  MODIFIED = 5,
  DELETED = 6,
  UNTRACKED = 7,
}

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly renameUri: vscode.Uri | undefined;
  readonly status: GitStatus;
}

export interface GitRemote {
  readonly name: string;
  readonly fetchUrl?: string;
  readonly pushUrl?: string;
}

interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
}

interface GitRepositoryState {
  readonly HEAD: GitBranch | undefined;
  readonly remotes: GitRemote[];
  readonly indexChanges: GitChange[];
  readonly workingTreeChanges: GitChange[];
  readonly mergeChanges: GitChange[];
  /** Newer VS Code lists untracked files here rather than in workingTreeChanges. */
  readonly untrackedChanges?: GitChange[];
  readonly onDidChange: vscode.Event<void>;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: GitRepositoryState;
  status(): Promise<void>;
  /**
   * `cancellationToken` is not in git.d.ts's FetchOptions, but the Git extension hands the options
   * to its git runner, which kills the fetch when the token fires (VS Code 1.100); where it does not,
   * the caller's deadline still answers (src/util/bounded.ts).
   */
  fetch(options?: { remote?: string; ref?: string; cancellationToken?: vscode.CancellationToken }): Promise<void>;
  getCommit(ref: string): Promise<{ hash: string }>;
  getMergeBase(ref1: string, ref2: string): Promise<string | undefined>;
  /** Changes of `ref2` since its merge base with `ref1` (`git diff ref1...ref2`). */
  diffBetween(ref1: string, ref2: string): Promise<GitChange[]>;
  getBranch(name: string): Promise<GitBranch>;
  createBranch(name: string, checkout: boolean, ref?: string): Promise<void>;
  checkout(treeish: string): Promise<void>;
  setBranchUpstream(name: string, upstream: string): Promise<void>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  readonly onDidCloseRepository: vscode.Event<GitRepository>;
  readonly git: { readonly path: string };
  toGitUri(uri: vscode.Uri, ref: string): vscode.Uri;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** Thrown by the API for a failed git command; `stderr` says why. */
interface GitError {
  message?: string;
  stderr?: string;
  gitErrorCode?: string;
}

/** The API once its repositories are known, or why it cannot be had. */
export async function loadGitApi(): Promise<GitApi | 'missing' | 'disabled'> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return 'missing';
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports.enabled) return 'disabled';
  const api = exports.getAPI(1);
  if (api.state !== 'initialized') {
    // Bounded: a Git that never finishes scanning must not hang the command.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        subscription.dispose();
        resolve();
      }, 10_000);
      const subscription = api.onDidChangeState((state) => {
        if (state !== 'initialized') return;
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      });
    });
  }
  return api;
}

/** The first line of what git said, for a message. */
export function gitReason(error: unknown): string {
  const e = error as GitError | undefined;
  const text = (e?.stderr || e?.message || String(error)).trim();
  const line = text.split('\n').find((l) => /fatal|error/i.test(l)) ?? text.split('\n')[0] ?? '';
  return line.replace(/^(fatal|error):\s*/i, '').slice(0, 300);
}
