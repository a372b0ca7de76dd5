// Which window polls a project. Each window beats (writes its presence) every BEAT_MS; a window is
// live while its beat keeps changing. Liveness is judged by when *this* window saw the beat
// change, on its own clock, so clocks that disagree between windows cannot make a live window look
// dead or a dead one live. Among the live windows of a project the one that started first leads:
// every window computes the same answer from the same files, and a newcomer never steals the lead.
import type { Presence } from './sharedSchema';

export type { Presence } from './sharedSchema';

export const BEAT_MS = 5_000;
/** A window whose beat has not changed for this long (seen locally) has crashed or hung. */
export const LEASE_TTL_MS = 3 * BEAT_MS;
/** A beat whose own timestamp is this old is dead at first sight (a file left by an old session). */
const STALE_AT_FIRST_SIGHT_MS = 4 * LEASE_TTL_MS;

interface Seen {
  beat: number;
  changedAt: number;
  presence: Presence;
}

export class Lease {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes in a presence read from another window's file. */
  observe(presence: Presence): void {
    const now = this.now();
    const before = this.seen.get(presence.window);
    if (before && before.beat === presence.beat) {
      before.presence = presence;
      return;
    }
    // First sight of a beat that is already old by its own clock: no reason to wait for it.
    const changedAt = !before && now - presence.beatAt > STALE_AT_FIRST_SIGHT_MS ? now - LEASE_TTL_MS - 1 : now;
    this.seen.set(presence.window, { beat: presence.beat, changedAt, presence });
  }

  forget(window: string): void {
    this.seen.delete(window);
  }

  isLive(window: string): boolean {
    const seen = this.seen.get(window);
    return seen !== undefined && !seen.presence.closed && this.now() - seen.changedAt <= LEASE_TTL_MS;
  }

  /** The live windows of a project other than `me`. */
  peersOn(project: string, me: string): Presence[] {
    return [...this.seen.values()].map((s) => s.presence).filter((p) => p.window !== me && p.project === project && this.isLive(p.window));
  }

  /** The window that polls `project`: the live one that started first (ties: the smaller id). */
  leaderOf(project: string, me: Presence): string {
    let best = me;
    for (const peer of this.peersOn(project, me.window)) {
      if (peer.since < best.since || (peer.since === best.since && peer.window < best.window)) best = peer;
    }
    return best.window;
  }

  /** The project counts as focused while any of its windows is. */
  anyFocused(project: string, me: Presence): boolean {
    return me.focused || this.peersOn(project, me.window).some((p) => p.focused);
  }

  /** Windows dead for long enough that their files may go once their state is merged. */
  deadWindows(): string[] {
    return [...this.seen.keys()].filter((w) => !this.isLive(w));
  }
}
