// This window's place among the windows of the profile: which project it shows and whether it is
// focused (its presence, written with every beat), and from every window's presence which one leads
// a project (polls it: lease.ts) and whether any of the project's windows is focused. The jobs' and
// the previews' pollers follow it; a review's send asks which windows are live. No vscode import.
import { background } from '../util/background';
import { Emitter } from '../util/emitter';
import type { Presence } from './lease';
import type { SharedStore, SyncLog } from './sharedStore';

export class WindowLease {
  private readonly emitter: Emitter<void>;
  /** Fires when this window's project or focus changed, or who leads its project (or whether it is focused) did. */
  readonly onDidChange;
  private seen = '';

  constructor(
    private readonly store: SharedStore,
    private readonly log: SyncLog,
  ) {
    this.emitter = new Emitter<void>((error) => log.warn(`a listener of the windows' lease failed: ${String(error)}`));
    this.onDidChange = this.emitter.event;
    this.seen = this.leaders();
  }

  get windowId(): string {
    return this.store.window;
  }

  /** Tells the other windows which project this one shows (none: undefined). */
  setProject(project: string | undefined): void {
    if (this.store.presence.project === (project ?? null)) return;
    background(this.store.beat({ project: project ?? null }), this.log, 'telling the other windows of the project');
    this.seen = this.leaders();
    this.emitter.fire();
  }

  /** Tells the other windows whether this one is focused. */
  setFocused(focused: boolean): void {
    background(this.store.beat({ focused }), this.log, 'sharing the window focus');
    this.seen = this.leaders();
    this.emitter.fire();
  }

  isLeader(project: string): boolean {
    return this.store.lease.leaderOf(project, this.store.presence) === this.windowId;
  }

  /** Whether any window of the project is focused. */
  projectFocused(project: string): boolean {
    return this.store.lease.anyFocused(project, this.store.presence);
  }

  /** Whether that window still beats (a window that closed or hung does not). */
  isLive(window: string): boolean {
    return this.store.lease.isLive(window);
  }

  /** The other live windows that show the project. */
  peersOn(project: string): readonly Presence[] {
    return this.store.lease.peersOn(project, this.windowId);
  }

  /** After a read of every window's file: tells the listeners when the lead of this window's project (or its focus) changed. */
  followRead(): void {
    const now = this.leaders();
    if (now === this.seen) return;
    this.seen = now;
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }

  /** Who leads this window's project and whether it is focused: a change is news. */
  private leaders(): string {
    const project = this.store.presence.project;
    return project ? `${this.store.lease.leaderOf(project, this.store.presence)}|${String(this.projectFocused(project))}` : '';
  }
}
