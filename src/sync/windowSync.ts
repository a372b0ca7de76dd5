// This window's end of the shared store in VS Code: the replica of windowReplica.ts over the folder
// in globalStorageUri (shared by every window of the profile, on the machine that runs the extension
// hosts: desktop, remote and code-server alike, reached through workspace.fs: vscodeSyncFs.ts), a
// file watcher on it, and the window's focus. Each feature takes the part of it it uses, by name
// (`ledger`, `lease`, `trends`, `jobs`, `drafts`, `links`, `reviews`, `previews`, `previewPlans`).
// Nothing runs during activate() but setting up: the folder, the watcher and the first read start
// right after.
import * as vscode from 'vscode';
import type { InstallState } from './requestLedger';
import type { SyncFs, SyncLog } from './sharedStore';
import { vscodeSyncFs } from './vscodeSyncFs';
import { WindowReplica } from './windowReplica';

export class WindowSync extends WindowReplica {
  constructor(
    /** The shared store's folder (the tests break it to see a write fail). */
    readonly dir: vscode.Uri,
    log: SyncLog,
    /** The install's globalState, where the ledger's salt is kept. */
    install: InstallState,
    /** The API address in force: what the shared state keeps for another one is forgotten once the change lasts. */
    apiBaseUrl: () => string | undefined = () => undefined,
    fs: SyncFs = vscodeSyncFs(dir),
  ) {
    super({ fs, log, install, apiBaseUrl, focused: vscode.window.state.focused });
  }

  protected override async prepare(): Promise<void> {
    try {
      await vscode.workspace.fs.createDirectory(this.dir);
    } catch (error) {
      this.log.warn(`could not create the shared store folder: ${String(error)}`);
    }
    if (this.isDisposed) return;
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.dir, 'w-*.json')));
    this.register(watcher.onDidChange(() => this.folderChanged()));
    this.register(watcher.onDidCreate(() => this.folderChanged()));
    this.register(watcher.onDidDelete(() => this.folderChanged()));
    this.register(vscode.window.onDidChangeWindowState((state) => this.lease.setFocused(state.focused)));
  }
}
