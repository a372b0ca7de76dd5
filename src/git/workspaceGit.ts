// The workspace's git as the jobs, Review Changes, review comments, previews and Ask About This see
// it: the Git extension's API loaded on first use (never during activation, never in a folder not
// trusted), which finished jobs have their repository cloned here ("review here"), a file's path in
// its repository, the round Review Changes fetched last, and what it found of a completed job
// without a pull request (its commits on the branch: published directly, or none), for this session.
import * as vscode from 'vscode';
import { isTerminal, type TrackedJob } from '../jobs/jobStore';
import { type DirectLook, hasNoPullRequest } from '../jobs/jobOutcome';
import { background, type BackgroundLog } from '../util/background';
import { Disposable } from '../util/lifecycle';
import { findClone } from './branchReview';
import { type GitApi, type GitRepository, loadGitApi } from './gitApi';

/** Knows, once Git is loaded, which finished jobs have their repository cloned in this workspace. */
export class WorkspaceGit extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;
  private readonly roundEmitter = this.register(new vscode.EventEmitter<{ jobId: string; commit: string }>());
  /** Fires when Review Changes has fetched a job's branch, before its diff opens: the commit it shows (src/review draws comments on it). */
  readonly onDidFetchRound = this.roundEmitter.event;
  private api: GitApi | undefined;
  private loading: Promise<GitApi | undefined> | undefined;
  private readonly remoteWatches = new Map<GitRepository, vscode.Disposable>();
  /** What Review Changes found of a job without a pull request, and after how many prompts (a follow-up makes it stale). */
  private readonly looks = new Map<string, { look: DirectLook; prompts: number }>();

  constructor(private readonly log: BackgroundLog) {
    super();
    // Git was not loaded while the folder was restricted: the hints are worked out again once it is trusted.
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire()));
  }

  /** The Git API, loaded on first use (never during activation); undefined when Git is off or the folder is not trusted. */
  git(): Promise<GitApi | undefined> {
    if (!vscode.workspace.isTrusted) return Promise.resolve(undefined);
    this.loading ??= loadGitApi().then(
      (api) => {
        if (typeof api === 'string') return undefined;
        this.api = api;
        api.repositories.forEach((repository) => this.watchRemotes(repository));
        this.register(
          api.onDidOpenRepository((repository) => {
            this.watchRemotes(repository);
            this.emitter.fire();
          }),
        );
        this.register(
          api.onDidCloseRepository((repository) => {
            this.remoteWatches.get(repository)?.dispose();
            this.remoteWatches.delete(repository);
            this.emitter.fire();
          }),
        );
        this.register({
          dispose: () => {
            for (const watch of this.remoteWatches.values()) watch.dispose();
          },
        });
        this.emitter.fire();
        return api;
      },
      () => undefined,
    );
    return this.loading;
  }

  /**
   * Git announces a repository before it has read its state, remotes included (its first
   * `for-each-ref` and `status` are still running): which jobs are cloned here is known only once
   * they are read. A window that read the shared reviews first (a reload does, often in VS Code 1.139)
   * found no clone and drew no comment until something else changed, so a change of a repository's
   * remotes is a change of the hints.
   */
  private watchRemotes(repository: GitRepository): void {
    const remotesOf = () => JSON.stringify(repository.state.remotes.map((r) => [r.name, r.fetchUrl, r.pushUrl]));
    let known = remotesOf();
    this.remoteWatches.get(repository)?.dispose();
    this.remoteWatches.set(
      repository,
      repository.state.onDidChange(() => {
        if (remotesOf() === known) return;
        known = remotesOf();
        this.emitter.fire();
      }),
    );
  }

  /** The file's path relative to the root of the git repository holding it (POSIX), if Git knows one. */
  async repositoryPathOf(uri: vscode.Uri): Promise<string | undefined> {
    const api = await this.git();
    const roots = (api?.repositories ?? []).map((r) => r.rootUri.path.replace(/\/+$/, '')).filter((root) => uri.path.startsWith(`${root}/`));
    const root = roots.sort((a, b) => b.length - a.length)[0];
    return root === undefined ? undefined : uri.path.slice(root.length + 1);
  }

  fetchedRound(jobId: string, commit: string): void {
    this.roundEmitter.fire({ jobId, commit });
  }

  /** Review Changes looked in git at a completed job without a pull request: its row says what it found. */
  lookedAt(tracked: TrackedJob, look: DirectLook): void {
    this.looks.set(tracked.id, { look, prompts: tracked.prompts.length });
    this.emitter.fire();
  }

  /** What was found of the job, while it is still the same completed job without a pull request. */
  directLookOf(tracked: TrackedJob): DirectLook | undefined {
    const kept = this.looks.get(tracked.id);
    return kept && hasNoPullRequest(tracked) && kept.prompts === tracked.prompts.length ? kept.look : undefined;
  }

  /** True for a finished job with a branch whose repository this workspace is a clone of. */
  isReviewable(tracked: TrackedJob): boolean {
    const job = tracked.job;
    if (!job?.ref || !job.repository) return false;
    if (!this.api) {
      // Loaded as soon as a job with a branch shows (even an active one), so that Git is ready
      // when the job finishes. Fires onDidChange when loaded.
      background(this.git(), this.log, 'loading Git');
      return false;
    }
    return !tracked.notFound && isTerminal(tracked) && findClone(this.api, job.repository) !== undefined;
  }
}
