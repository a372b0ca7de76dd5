/**
 * Stops what the test launcher started when the launcher itself ends: on SIGINT, SIGTERM and
 * SIGHUP (stop everything, then exit as the signal would have) and on process exit (kill at once:
 * nothing can be awaited there).
 *
 * Needed because the launcher starts children in their own process group (so that it can kill a
 * whole tree): a Ctrl-C in the terminal no longer reaches them, and nothing else would stop them.
 * The handlers are installed only while something is guarded, so they never change how a process
 * with nothing to clean up exits.
 */

export interface Guarded {
  /** Graceful stop, awaited before the process exits on a signal. */
  stop(): Promise<void>;
  /** Immediate, synchronous kill, for the 'exit' event. */
  killNow(): void;
}

const EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
const SIGNALS = Object.keys(EXIT_CODES) as NodeJS.Signals[];

const guarded = new Set<Guarded>();
let signalled = false;

/** Guards `item` until the returned function is called. */
export function guard(item: Guarded): () => void {
  guarded.add(item);
  if (guarded.size === 1) {
    process.on('exit', killAllNow);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
  return () => release(item);
}

function release(item: Guarded): void {
  if (!guarded.delete(item) || guarded.size > 0) return;
  process.off('exit', killAllNow);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function killAllNow(): void {
  guarded.forEach((item) => item.killNow());
}

function onSignal(signal: NodeJS.Signals): void {
  const exitCode = EXIT_CODES[signal] ?? 1;
  if (signalled) process.exit(exitCode); // a second Ctrl-C: give up on a graceful stop ('exit' still kills)
  signalled = true;
  process.stderr.write(`\n${signal}: stopping the processes this command started...\n`);
  const stops = [...guarded].map((item) => item.stop().catch(() => undefined));
  void Promise.all(stops).finally(() => process.exit(exitCode));
}

/** Signals a whole process group; false when none of its processes is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH
  }
}

/** SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return; // already gone
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && signalGroup(pgid, 0)) await delay(100);
  signalGroup(pgid, 'SIGKILL');
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
