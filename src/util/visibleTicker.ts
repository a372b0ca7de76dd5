// A tick that runs only while something is on screen: for what goes stale by the clock alone (the
// jobs tree's "3 min ago"), redrawn from memory and never a reason for a request. No vscode import:
// a TreeView fits `Visible` as it is, and the unit tests drive it with a fake clock.
import { type Clock, systemClock } from './clock';

export interface Visible {
  readonly visible: boolean;
  onDidChangeVisibility(listener: () => void): { dispose(): void };
}

/** Calls `tick` every `everyMs` while `target` is visible, and once as it becomes visible again. */
export function tickWhileVisible(target: Visible, everyMs: number, tick: () => void, timer: Clock = systemClock): { dispose(): void } {
  let handle: unknown;
  const stop = () => {
    if (handle !== undefined) timer.clearInterval(handle);
    handle = undefined;
  };
  const update = () => {
    if (!target.visible) return stop();
    if (handle !== undefined) return;
    handle = timer.setInterval(tick, everyMs);
  };
  const listener = target.onDidChangeVisibility(() => {
    // What was hidden for a while is out of date the moment it shows.
    if (target.visible && handle === undefined) tick();
    update();
  });
  update();
  return {
    dispose: () => {
      listener.dispose();
      stop();
    },
  };
}
