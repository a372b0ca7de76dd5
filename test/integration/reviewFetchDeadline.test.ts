// Review Changes' fetch has a deadline: a remote that takes the connection and never answers (a
// local TCP server behind a git:// URL, a remote of the workspace's real clone) is given up after
// mintlifyAgent.git.fetchTimeoutSeconds, git is stopped, and the user is told why, with Retry.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { AGENT_BRANCH } from '../support/gitRepo';
import { leaveWindowClean, PROJECT, ScriptedUser, seam, setProject, signIn, waitFor, withSimulator } from './support';

const REMOTE = 'silent';

interface GitApiLike {
  repositories: { status(): Promise<void>; state: { remotes: { name: string }[] } }[];
}

describe('Review Changes fetch deadline', function () {
  this.timeout(90_000);
  let s: TestSeam;
  let sim: Simulator;
  let root: string;
  let server: Server;
  const sockets = new Set<Socket>();
  let connections = 0;
  let url: string;

  before(async () => {
    s = await seam();
    sim = await withSimulator();
    await setProject(PROJECT);
    await signIn(s);
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.resume(); // read (and ignore) git's request, so its end is seen: the server never answers
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `git://127.0.0.1:${(server.address() as { port: number }).port}/docs.git`;
    execFileSync('git', ['remote', 'add', REMOTE, url], { cwd: root });
    const api = vscode.extensions.getExtension<{ getAPI(v: 1): GitApiLike }>('vscode.git')!.exports.getAPI(1);
    await waitFor('Git to see the silent remote', async () => {
      await Promise.all(api.repositories.map((r) => r.status()));
      return api.repositories.some((r) => r.state.remotes.some((remote) => remote.name === REMOTE));
    });
    await vscode.workspace.getConfiguration('mintlifyAgent.git').update('fetchTimeoutSeconds', 5, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('mintlifyAgent.git').update('fetchTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    execFileSync('git', ['remote', 'remove', REMOTE], { cwd: root });
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await leaveWindowClean(s);
    await sim.close();
  });

  it('gives up a fetch from a remote that never answers, stops git, and says why with Retry', async () => {
    const job = sim.addJob(PROJECT, { status: 'completed', source: { repository: url, ref: AGENT_BRANCH }, prompt: 'Improve the docs' });
    await s.tracker.track(job.id);
    const user = new ScriptedUser(s.ui);
    try {
      const result = await vscode.commands.executeCommand('mintlifyAgent.reviewChanges', job.id);
      assert.equal(result, undefined, 'nothing to review');
      assert.equal(connections, 1, 'git reached the remote');
      const message = user.lastMessage();
      assert.equal(message?.level, 'error');
      assert.match(message?.message ?? '', new RegExp(`Fetching ${AGENT_BRANCH} from ${REMOTE} did not finish within 5 seconds, so it was stopped`));
      assert.deepEqual(message?.actions, ['Retry', 'Show Log']);
      await waitFor('git to drop the connection (the fetch process was stopped)', () => sockets.size === 0);
    } finally {
      user.restore();
    }
  });
});
