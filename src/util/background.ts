// Work started and not awaited (a write to the shared store, a reload on an event, a message's
// button) still ends somewhere: its failure becomes a log line, never an unhandled rejection that
// the extension host reports against us and the user never hears of. This is the one way `src/`
// lets a promise go (`void` on a promise is refused by the lint, eslint.config.mjs). No vscode import.

export interface BackgroundLog {
  warn(message: string): void;
}

/** Lets `work` run on; if it fails, `log` says `<what> failed: <why>`. */
export function background(work: PromiseLike<unknown>, log: BackgroundLog, what: string): void {
  Promise.resolve(work).then(undefined, (error: unknown) => {
    try {
      // The stack, for a bug; its first line is the error's name and message.
      log.warn(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } catch {
      // The log itself is gone (the extension is shutting down): there is nowhere left to say it.
    }
  });
}
