// The one way the extension runs git itself (beside the Git extension's API): a process with a time
// limit, no optional locks and no prompt, killed with whatever it started on Cancel. Review comments
// read a round's diff through it, and "Did it help?" the merge of a job's branch (mergeTime.ts).
// No vscode import: unit-tested directly on real repositories.
import { type ChildProcess, spawn } from 'node:child_process';

/** Runs git with these arguments in the repository; resolves with stdout, rejects on a non-zero exit. */
export type GitRun = (args: string[]) => Promise<string>;

const CALL_TIMEOUT_MS = 10_000;
const MAX_OUTPUT = 8 * 1024 * 1024;

/** A git call stopped before it finished: by the caller's signal (Cancel) or by its own time limit. */
export class GitStopped extends Error {
  override readonly name = 'GitStopped';
  constructor(readonly reason: 'cancelled' | 'timeout') {
    super(reason === 'cancelled' ? 'git was cancelled.' : 'git did not finish in time.');
  }
}

/**
 * git (spawned) in `cwd`, with a time limit, no optional locks and no prompt. When `signal`
 * aborts (or the limit passes) the process is killed with whatever it started: on POSIX git runs
 * in its own process group and the whole group gets SIGKILL, so a helper git spawned (or a wrapper
 * script's child) is not left behind. After an abort no further git is started.
 */
export function gitRunner(gitPath: string, cwd: string, { signal, timeoutMs = CALL_TIMEOUT_MS }: { signal?: AbortSignal; timeoutMs?: number } = {}): GitRun {
  const ownGroup = process.platform !== 'win32';
  return (args) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new GitStopped('cancelled'));
      const child = spawn(gitPath, args, {
        cwd,
        detached: ownGroup,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      let failure: Error | undefined;
      const stop = (why: Error) => {
        if (failure) return;
        failure = why;
        killProcess(child, ownGroup);
      };
      const onAbort = () => stop(new GitStopped('cancelled'));
      const timer = setTimeout(() => stop(new GitStopped('timeout')), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT) stop(new Error(`git ${args[0]}: more output than ${MAX_OUTPUT} bytes`));
        else out.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      const settle = (error: Error | undefined, code: number | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const problem =
          failure ?? error ?? (code === 0 ? undefined : new Error(`git ${args[0]}: ${Buffer.concat(err).toString('utf8').trim() || `exit code ${code}`}`));
        if (problem) reject(problem);
        else resolve(Buffer.concat(out).toString('utf8'));
      };
      // 'error' (git not found) may come without 'close'; 'close' comes once both pipes are done.
      child.once('error', (error) => settle(error, null));
      child.once('close', (code) => settle(undefined, code));
    });
}

function killProcess(child: ChildProcess, ownGroup: boolean): void {
  try {
    // The negative pid is the group: git and anything it started.
    if (ownGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Already gone (ESRCH): nothing left to stop.
  }
}
