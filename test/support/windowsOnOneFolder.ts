// Windows of one machine on one shared-store folder, as the extension wires them (src/sync/
// windowReplica.ts: the store, the request ledger and the hour's account, the lease, the areas, the
// read loop and the heartbeat) with the hour's gate over each, on a fake clock, over a folder that
// misbehaves on purpose (faultyFolder.ts). The folder's watcher is played by the folder itself: a
// write that lands tells every window, a little later, as VS Code's watcher does. Used by the
// fault tier (test/faults/) and the benchmark's soak (bench/soak.ts).
import { HourGate } from '../../src/sync/hourGate';
import type { InstallState } from '../../src/sync/requestLedger';
import type { SyncFs } from '../../src/sync/sharedStore';
import { WindowReplica } from '../../src/sync/windowReplica';
import type { Clock } from '../../src/util/clock';
import { FaultyFolder, type FolderView, seeded } from './faultyFolder';
import { l10n } from './l10n';

/** How long the folder's watcher takes to tell the windows of a write. */
export const WATCH_MS = 100;
export const KEY = 'mint_test_key_0123456789abcdef';

/** One window: the replica, its gate, its way into the folder and what it told the writer. */
export class TestWindow extends WindowReplica {
  readonly gate: HourGate;
  /** Every warning and message the window showed (the hour's gate's included). */
  readonly told: string[] = [];

  constructor(
    readonly view: FolderView,
    clock: Clock,
    window: string,
    install: InstallState,
    apiBaseUrl: () => string | undefined,
    /** The writer's answer to a question: the first action (yes) by default. */
    answer: (actions: string[]) => string | undefined = (actions) => actions[0],
  ) {
    super({ fs: view.fs, log: { info: () => undefined, warn: () => undefined }, install, apiBaseUrl, clock, window, focused: true });
    const ui = {
      showMessage: async (_level: string, message: string, ...actions: string[]) => {
        this.told.push(message);
        return answer(actions);
      },
    };
    this.gate = new HourGate(
      this.ledger.account,
      ui,
      l10n,
      () => clock.now(),
      () => 10,
    );
  }

  /** The watcher saw the folder change. */
  changed(): void {
    this.folderChanged();
  }

  /** The file of this window in the folder. */
  get file(): string {
    return `w-${this.windowId}.json`;
  }
}

export class Machine {
  readonly folder: FaultyFolder;
  readonly windows: TestWindow[] = [];
  /** The install's globalState, shared by its windows. */
  private readonly installState = new Map<string, unknown>();
  readonly install: InstallState = {
    get: <T>(key: string) => this.installState.get(key) as T | undefined,
    update: (key, value) => (this.installState.set(key, value), Promise.resolve()),
  };
  apiBaseUrl: string | undefined = 'https://api.mintlify.com';

  constructor(
    readonly clock: Clock,
    seed = 1,
  ) {
    this.folder = new FaultyFolder(clock, seeded(seed));
    this.folder.onWrite = () => {
      for (const window of this.windows) clock.setTimeout(() => window.changed(), WATCH_MS);
    };
  }

  /** Opens a window (its first read and beat start at once), signed in with the key. */
  open(
    id: string,
    options: {
      apiBaseUrl?: () => string | undefined;
      answer?: (actions: string[]) => string | undefined;
      /** Wraps the window's folder operations (a test's scheduler of every interleaving). */
      wrap?: (fs: SyncFs) => SyncFs;
    } = {},
  ): TestWindow {
    const view = this.folder.view();
    const wrapped: FolderView = options.wrap ? { ...view, fs: options.wrap(view.fs) } : view;
    const window = new TestWindow(wrapped, this.clock, id, this.install, options.apiBaseUrl ?? (() => this.apiBaseUrl), options.answer);
    this.windows.push(window);
    void window.ledger.setKey(KEY).catch(() => undefined);
    return window;
  }

  /** Closes a window as VS Code does (it says goodbye, best effort). */
  close(window: TestWindow): void {
    window.dispose();
    this.windows.splice(this.windows.indexOf(window), 1);
  }
}
