// The host tier fails when our code leaves a rejected promise unhandled: VS Code's extension host
// reports each one ("rejected promise not handled within 1 second") and the user never hears of
// it. Installed by the test entry (index.ts) for the whole run, inside the extension host.
//
// Whose is it? A rejection is ours when its stack runs through our extension or our tests. One
// whose stack shows no extension at all (an error VS Code itself made, a FileSystemError from
// workspace.fs, or a value with no stack) is counted too: our un-awaited calls into VS Code fail
// that way, and this host runs our tests. One whose stack runs only through another extension
// (code-server's built-in git, say) is not ours. Cancellations are left out, as VS Code does.
import { inspect } from 'node:util';

export interface UnhandledRejection {
  /** The test (or hook) running when it was seen. */
  during: string;
  description: string;
}

/** A folder of some extension other than those in `ours`: its stack frames name it. */
const EXTENSION_FOLDER = /[\\/]extensions[\\/][^\\/]+[\\/]/;

export class UnhandledRejectionWatch {
  /** The title of what runs now, set by the test entry from mocha's events. */
  during = 'before the first test';
  private readonly seen: UnhandledRejection[] = [];
  /** The extension host can report one promise twice: listed once. */
  private readonly reported = new WeakSet<Promise<unknown>>();
  private readonly listener = (reason: unknown, promise: Promise<unknown>) => {
    if (this.reported.has(promise)) return;
    this.reported.add(promise);
    this.record(reason);
  };

  /** `ours`: the folders our code runs from (the extension, the compiled tests). */
  constructor(private readonly ours: readonly string[]) {
    process.on('unhandledRejection', this.listener);
  }

  /** Stops watching; returns what was ours. */
  stop(): UnhandledRejection[] {
    process.off('unhandledRejection', this.listener);
    return this.seen;
  }

  private record(reason: unknown): void {
    if (reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled') return;
    const description = reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : inspect(reason);
    const inOurs = this.ours.some((folder) => description.includes(folder));
    if (!inOurs && EXTENSION_FOLDER.test(description)) return;
    this.seen.push({ during: this.during, description });
  }
}
