// A bounded retry: after a failure, wait, try again, each wait longer than the last, and stop
// after the last wait, so a store that stays broken is not written for ever. No vscode import:
// unit-tested with fake timers (test/unit/util/writeRetry.test.ts).
import { type Clock, systemClock } from './clock';

/** Why a retry ended without a success: the caller's signal stopped it before the next try. */
export type RetryEnd = 'done' | 'stopped';

/**
 * Tries `attempt` again after each delay of `delaysMs` in turn (the first try, made by the caller,
 * already failed): resolves 'done' at the first success, 'stopped' when `signal` aborts (no try
 * after that), and rejects with the last error once every delay is used.
 */
export async function retryWithBackoff(
  attempt: () => Promise<unknown>,
  { delaysMs, signal, timers = systemClock }: { delaysMs: readonly number[]; signal?: AbortSignal; timers?: Clock },
): Promise<RetryEnd> {
  let lastError: unknown;
  for (const delayMs of delaysMs) {
    if (!(await wait(delayMs, signal, timers))) return 'stopped';
    try {
      await attempt();
      return 'done';
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined, timers: Clock): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      timers.clearTimeout(handle);
      resolve(false);
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
