// Writes to the shared state as a feature's area handle makes them (src/sync/sharedArea.ts: a
// register stamped by the window's clock), for the unit tests of merging and pruning, which build
// states without a window; and the merge laws' equality.
import { canonical, type SharedSignalLink } from '../../src/sync/sharedSchema';
import type { HybridClock, SyncState } from '../../src/sync/syncState';

/** The prompt kept unsent under `key` (`create`, `job:<id>`), or its removal. */
export function setDraft(state: SyncState, project: string, key: string, text: string | undefined, clock: HybridClock): void {
  (state.drafts[project] ??= {})[key] = { v: text ?? null, s: clock.next() };
}

/** A signal→job link. */
export function setSignalLink(state: SyncState, project: string, link: SharedSignalLink, clock: HybridClock): void {
  (state.links[project] ??= {})[link.jobId] = { v: link, s: clock.next() };
}

/** Whether two states hold the same, whatever the order of their keys. */
export function sameState(a: SyncState, b: SyncState): boolean {
  return canonical(a) === canonical(b);
}
