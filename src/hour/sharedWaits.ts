// The `waits` area every window shares: after a 429, no request of that endpoint family leaves any
// window before the wait the server named; and the mark that a 429 showed teammates spend the
// organisation's hour (hourGate.ts grows background work back from it). A server's wait is taken for
// at most an hour (a proxy that sends milliseconds as seconds must not lock a family for days), and
// every wait expires: one further than an hour ahead (a clock stepped back, or a file an older
// version wrote) is dropped when read, as a wait that has passed is (LONGEST_WAIT_MS: api/errors.ts). Pure functions over the area;
// no vscode import.
import type { Family } from '../api/endpoints';
import { LONGEST_WAIT_MS } from '../api/errors';
import { HOUR_MS } from '../util/clock';

/** The key of the last 429 that said teammates spend the hour (recordAnalytics429). */
export const TEAMMATES_WAIT = 'analyticsTeammates';

/** How long a teammates' 429 is remembered: past it, background work grows again as on a machine that never saw one (hourGate.ts). */
export const TEAMMATES_REMEMBERED_MS = 7 * 24 * HOUR_MS;

/**
 * Below this many of the hour's requests on this machine's own count, a 429 says teammates spend it:
 * at least a tenth of the hour was someone else's. At or above it the 429 may well be this machine's
 * own doing (a writer alone who exported twice), which says nothing about a team.
 */
export const TEAMMATES_BELOW = 90;

type Waits = Record<string, number>;

/** Records a 429's wait for a family, at most LONGEST_WAIT_MS after `now` (the later wait wins). */
export function recordWait(waits: Waits, family: Family, until: number, now: number): void {
  waits[family] = Math.max(waits[family] ?? 0, Math.min(until, now + LONGEST_WAIT_MS));
}

/**
 * Records an analytics 429: its wait for every window, and, when this machine's own count of the hour
 * (`own`, undefined while unknown) was under TEAMMATES_BELOW, that teammates spend the hour.
 */
export function recordAnalytics429(waits: Waits, until: number, own: number | undefined, now: number): void {
  recordWait(waits, 'analytics', until, now);
  if (own === undefined || own < TEAMMATES_BELOW) waits[TEAMMATES_WAIT] = Math.max(waits[TEAMMATES_WAIT] ?? 0, Math.min(until, now + LONGEST_WAIT_MS));
}

/** When the wait under `key` (a family, or TEAMMATES_WAIT) ended or ends; 0 when there is none, or it is further ahead than a server may ask. */
export function waitUntil(waits: Waits, key: string, now: number): number {
  const until = waits[key] ?? 0;
  return until > now + LONGEST_WAIT_MS ? 0 : until;
}

/** Milliseconds until the family may be sent to again, 0 when it may now; never more than LONGEST_WAIT_MS. */
export function waitMs(waits: Waits, family: Family, now: number): number {
  return Math.max(0, waitUntil(waits, family, now) - now);
}

/** Drops the waits that have passed (the teammates' mark after a week) and any further ahead than a server may ask. */
export function pruneWaits(waits: Waits, now: number): void {
  for (const [key, until] of Object.entries(waits)) {
    const keptUntil = key === TEAMMATES_WAIT ? until + TEAMMATES_REMEMBERED_MS : until;
    if (keptUntil <= now || until > now + LONGEST_WAIT_MS) delete waits[key];
  }
}
