// Work started and not awaited (a write to the shared store, a reload on an event, a message's
// button) still ends somewhere: its failure becomes a log line, never an unhandled rejection that
// the extension host reports against us and the user never hears of. This is the one way `src/`
// lets a promise go (`void` on a promise is refused by the lint, eslint.config.mjs). No vscode import.

export interface BackgroundLog {
  warn(message: string): void;
  /** Where the stack goes, when the log has a debug level. */
  debug?(message: string): void;
}

/** Lets `work` run on; if it fails, `log` says `<what> failed: <why>` (and the stack at debug level). */
export function background(work: PromiseLike<unknown>, log: BackgroundLog, what: string): void {
  Promise.resolve(work).then(undefined, (error: unknown) => {
    try {
      // One line a failure: a folder that cannot be written fails every few seconds, the same way.
      log.warn(`${what} failed: ${String(error)}`);
      if (error instanceof Error && error.stack) log.debug?.(error.stack);
    } catch {
      // The log itself is gone (the extension is shutting down): there is nowhere left to say it.
    }
  });
}
