// A pull (or a fetch) is what usually brings the merge: once a job waits for its after, each
// change of the workspace's repositories is a reason to look (local git only, bounded per job).
import * as vscode from 'vscode';
import type { Settings } from '../config';
import type { WorkspaceGit } from '../git/workspaceGit';
import type { Logger } from '../log';
import type { WindowSync } from '../sync/windowSync';
import { background } from '../util/background';
import type { SearchReplays } from './searchReplays';

interface MergeWatchPorts {
  settings: Pick<Settings, 'projectId' | 'onDidChange'>;
  replays: SearchReplays;
  /** The workspace's git, loaded only while a job waits. */
  git: Pick<WorkspaceGit, 'git'>;
  sync: Pick<WindowSync, 'ready'>;
  log: Logger;
}

export function registerMergeWatch(context: vscode.ExtensionContext, { settings, replays, git, sync, log }: MergeWatchPorts): void {
  const project = () => settings.projectId;
  let watchingGit = false;
  const watchGit = () => {
    const waiting = project() && replays.all(project() ?? '').some(([, replay]) => replay.afterAt === undefined);
    if (watchingGit || !waiting || !vscode.workspace.isTrusted) return;
    watchingGit = true;
    const watched = git.git().then((api) => {
      if (!api) return void (watchingGit = false);
      const watch = (repository: { state: { onDidChange: vscode.Event<void> } }) =>
        context.subscriptions.push(repository.state.onDidChange(() => replays.considerAll()));
      api.repositories.forEach(watch);
      context.subscriptions.push(api.onDidOpenRepository(watch));
    });
    background(watched, log, "watching the workspace's git for merges");
  };
  context.subscriptions.push(replays.onDidChange(watchGit), settings.onDidChange(watchGit));
  background(sync.ready.then(watchGit), log, "watching the workspace's git for merges");
}
