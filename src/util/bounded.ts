// A deadline and a Cancel for work that could otherwise wait forever: a git fetch stuck on a
// credential prompt or a remote that never answers, a file operation on the shared store that never
// settles. The work gets an AbortSignal that fires on either, so it can stop its process; the caller
// is answered at the deadline even if the work ignores the signal (a VS Code Thenable cannot be
// aborted at all). No vscode import: unit-tested directly.
import { type Clock, systemClock } from './clock';

export class BoundedRunError extends Error {
  override readonly name = 'BoundedRunError';
  constructor(
    /** `timeout`: the deadline passed; `cancelled`: the user (or the caller's signal) stopped it. */
    readonly reason: 'timeout' | 'cancelled',
    readonly timeoutMs: number,
    /** What ran, for the log: "reading w-1.json" gives "reading w-1.json took longer than 5000 ms". */
    what?: string,
  ) {
    super(
      what === undefined
        ? reason === 'timeout'
          ? `Did not finish within ${timeoutMs} ms.`
          : 'Cancelled.'
        : reason === 'timeout'
          ? `${what} took longer than ${timeoutMs} ms`
          : `${what} was cancelled`,
    );
  }
}

/** Runs `work` until it settles, `timeoutMs` passes, or `signal` aborts, whichever comes first. */
export function runBounded<T>(
  work: (signal: AbortSignal) => Promise<T>,
  { timeoutMs, signal, what, timers = systemClock }: { timeoutMs: number; signal?: AbortSignal; what?: string; timers?: Clock },
): Promise<T> {
  if (signal?.aborted) return Promise.reject(new BoundedRunError('cancelled', timeoutMs, what));
  const inner = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (done: () => void) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    const stop = (reason: 'timeout' | 'cancelled') =>
      finish(() => {
        inner.abort();
        reject(new BoundedRunError(reason, timeoutMs, what));
      });
    const onAbort = () => stop('cancelled');
    const timer = timers.setTimeout(() => stop('timeout'), timeoutMs);
    signal?.addEventListener('abort', onAbort);
    let running: Promise<T>;
    try {
      running = work(inner.signal);
    } catch (error) {
      return finish(() => reject(asError(error)));
    }
    running.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(asError(error))),
    );
  });
}

/**
 * The work's own rejection, unchanged: the Git extension rejects with a GitError that is no Error
 * subclass, and its `stderr` and `gitErrorCode` are what the caller reads to say what went wrong.
 */
const asError = (error: unknown): Error => error as Error;
