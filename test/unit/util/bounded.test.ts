// The deadline and Cancel behind Review Changes' fetch and the shared store's file operations: real
// git fetching from a remote that accepts the connection and never answers (a local TCP server), and
// the runner's own rules.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BoundedRunError, runBounded } from '../../../src/util/bounded';
import { FakeClock } from '../../support/fakeClock';
import { waitFor } from '../../support/waitFor';

/** A "git daemon" that takes the connection and the request, and says nothing. */
async function silentRemote(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `git://127.0.0.1:${port}/docs.git`,
    connections: () => count,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('bounded git fetch', function () {
  this.timeout(20_000);
  let repo: string;
  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'mintlify-bounded-'));
    execFileSync('git', ['init', '--quiet', repo]);
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  /** `git fetch` from the silent remote, killed when the runner's signal fires; resolves how git ended. */
  function fetchFrom(url: string, ended: (how: { code: number | null; signal: string | null }) => void) {
    return (signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const child = execFile('git', ['fetch', url, 'main'], { cwd: repo, signal, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error) =>
          error ? reject(new Error(error.message)) : resolve(),
        );
        child.on('exit', (code, sig) => ended({ code, signal: sig }));
      });
  }

  it('stops a fetch from a remote that never answers at the deadline, and git with it', async () => {
    const remote = await silentRemote();
    try {
      let gitEnded: { code: number | null; signal: string | null } | undefined;
      const run = runBounded(
        fetchFrom(remote.url, (how) => (gitEnded = how)),
        { timeoutMs: 1_500 },
      );
      await assert.rejects(run, (error: unknown) => error instanceof BoundedRunError && error.reason === 'timeout');
      assert.equal(remote.connections(), 1, 'git did reach the remote');
      await waitFor('git to end', () => gitEnded !== undefined);
      assert.equal(gitEnded?.signal, 'SIGTERM', 'the git process was stopped, not left waiting');
    } finally {
      await remote.close();
    }
  });

  it('Cancel stops it before the deadline', async () => {
    const remote = await silentRemote();
    try {
      const cancel = new AbortController();
      let gitEnded: { code: number | null; signal: string | null } | undefined;
      const run = runBounded(
        fetchFrom(remote.url, (how) => (gitEnded = how)),
        { timeoutMs: 60_000, signal: cancel.signal },
      );
      await waitFor("the remote's connection", () => remote.connections() === 1);
      cancel.abort();
      await assert.rejects(run, (error: unknown) => error instanceof BoundedRunError && error.reason === 'cancelled');
      await waitFor('git to end', () => gitEnded !== undefined);
      assert.equal(gitEnded?.signal, 'SIGTERM');
    } finally {
      await remote.close();
    }
  });

  it("passes the work's result and its own failure through unchanged, and an aborted signal runs nothing", async () => {
    assert.equal(await runBounded(async () => 'tip', { timeoutMs: 1_000 }), 'tip');
    const gitError = { message: 'Failed to execute git', stderr: "fatal: couldn't find remote ref nope", gitErrorCode: 'NoRemoteReference' };
    await assert.rejects(
      runBounded(() => Promise.reject(gitError as unknown as Error), { timeoutMs: 1_000 }),
      (error: unknown) => error === gitError,
    );
    let ran = false;
    await assert.rejects(
      runBounded(async () => void (ran = true), { timeoutMs: 1_000, signal: AbortSignal.abort() }),
      (error: unknown) => error instanceof BoundedRunError && error.reason === 'cancelled',
    );
    assert.equal(ran, false);
  });

  it('a late answer after the deadline changes nothing (fake timers)', async () => {
    const timers = new FakeClock();
    let answer: ((value: string) => void) | undefined;
    const run = runBounded(() => new Promise<string>((resolve) => (answer = resolve)), { timeoutMs: 5_000, timers });
    timers.fireAll();
    answer?.('too late');
    await assert.rejects(run, (error: unknown) => error instanceof BoundedRunError && error.reason === 'timeout' && error.timeoutMs === 5_000);
  });

  it('names what ran when told, so a stuck file operation reads plainly in the log (fake timers)', async () => {
    const timers = new FakeClock();
    // Like a VS Code Thenable: it never settles and has no way to be aborted.
    const stuck = runBounded(() => new Promise<Uint8Array>(() => undefined), { timeoutMs: 5_000, what: 'reading w-x.json', timers });
    timers.fireAll();
    await assert.rejects(
      stuck,
      (error: unknown) => error instanceof BoundedRunError && error.reason === 'timeout' && error.message === 'reading w-x.json took longer than 5000 ms',
    );
    await assert.rejects(
      runBounded(async () => 'never run', { timeoutMs: 5_000, what: 'renaming w-x.json', signal: AbortSignal.abort() }),
      (error: unknown) => error instanceof BoundedRunError && error.message === 'renaming w-x.json was cancelled',
    );
    const unnamed = runBounded(() => new Promise(() => undefined), { timeoutMs: 5_000, timers });
    timers.fireAll();
    await assert.rejects(unnamed, { message: 'Did not finish within 5000 ms.' });
  });
});
