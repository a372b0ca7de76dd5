// The request ledger every window shares: which requests were sent in the last hour, per bucket
// (`agent:<project>`, `analytics:<salted hash of the key>`), and which endpoint families the server asked
// us to leave alone (429 Retry-After). Pure functions over the shared state; the window glue
// records and reads through them.
import type { Family } from '../api/endpoints';
import { HOUR_MS, type SyncState } from './syncState';

/** What the platform allows per bucket and hour. */
export const HOURLY_LIMIT = 100;
/**
 * Background work (polling, catch-up reads) never takes a bucket past this, so 40 requests an hour
 * always remain for what the user asks for. User actions are never held back by the ledger.
 */
export const BACKGROUND_CEILING = 60;

export type { Family };

export function agentBucket(projectId: string): string {
  return `agent:${projectId}`;
}

export function analyticsBucket(keyHash: string): string {
  return `analytics:${keyHash}`;
}

/**
 * What names a key's analytics bucket: the first 64 bits of HMAC-SHA-256 of the key under the
 * install's random salt. A plain hash of the key would be the same on every machine, a
 * fingerprint that tells who uses which key; salted, it means nothing outside this install.
 */
export async function keyBucketHash(salt: string, key: string): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const hmacKey = await subtle.importKey('raw', new TextEncoder().encode(salt), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const digest = await subtle.sign('HMAC', hmacKey, new TextEncoder().encode(key));
  return [...new Uint8Array(digest)]
    .slice(0, 8)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

/** A fresh random salt (128 bits, hex). */
export function newSalt(): string {
  return [...globalThis.crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The family of a request path (`/v2/agent/…` or `/v1/analytics/…`), undefined for others. */
export function familyOf(path: string): Family | undefined {
  if (path.startsWith('/v2/agent/')) return 'agent';
  if (path.startsWith('/v1/analytics/')) return 'analytics';
  return undefined;
}

/** The project segment of an agent path: `/v2/agent/<project>/job…`. */
export function projectOfAgentPath(path: string): string | undefined {
  const segment = path.split('/')[3];
  return segment ? decodeURIComponent(segment.split('?')[0]) : undefined;
}

export function recordRequest(state: SyncState, bucket: string, entryId: string, at: number): void {
  (state.ledger[bucket] ??= {})[entryId] = at;
}

/** Requests sent in the hour before `now`. */
export function countInHour(state: SyncState, bucket: string, now: number): number {
  let count = 0;
  for (const at of Object.values(state.ledger[bucket] ?? {})) if (at > now - HOUR_MS && at <= now) count++;
  return count;
}

/**
 * How long background work must wait before one more request fits under the ceiling: 0 when it
 * fits now, else the time until enough of the hour's entries slide out.
 */
export function backgroundWaitMs(state: SyncState, bucket: string, now: number, ceiling = BACKGROUND_CEILING): number {
  const times = Object.values(state.ledger[bucket] ?? {})
    .filter((at) => at > now - HOUR_MS && at <= now)
    .sort((a, b) => a - b);
  if (times.length < ceiling) return 0;
  // The entry whose leaving brings the count under the ceiling.
  const freeing = times[times.length - ceiling];
  return Math.max(1, freeing + HOUR_MS - now + 1);
}

/** When `needed` of the hour's HOURLY_LIMIT requests are free (ms from `now`): 0 when they are now, else when enough of the hour's entries slide out. */
export function freesInMs(state: SyncState, bucket: string, now: number, needed = 1): number {
  return backgroundWaitMs(state, bucket, now, HOURLY_LIMIT - Math.min(HOURLY_LIMIT, Math.max(1, needed)) + 1);
}

/**
 * Whether `requests` more background requests fit under the ceiling, given the hour's count so far;
 * an unknown count (the bucket not named yet) counts as full.
 */
export function fitsUnderCeiling(thisHour: number | undefined, requests: number, ceiling = BACKGROUND_CEILING): boolean {
  return thisHour !== undefined && thisHour + requests <= ceiling;
}

/**
 * Analytics requests the organisation has left this hour: the platform's 100 less every window's
 * count. An unknown count (the bucket not named yet, the first instant after start) holds nothing back.
 */
export function hourLeft(thisHour: number | undefined): number {
  return Math.max(0, HOURLY_LIMIT - (thisHour ?? 0));
}

/**
 * Asked before each request of a fetch (the paging rule's `mayRequest`): yes, and counted, while it
 * has sent fewer than the `allowed` the user agreed to and `left()`, the hour's, is above 0 (unknown
 * holds nothing back). Counting its own requests holds it even before the ledger has counted the
 * ones still on their way, or another window's.
 */
export function withinHour(left: () => number | undefined, allowed: number): () => boolean {
  let sent = 0;
  return () => {
    if (sent >= allowed || (left() ?? 1) <= 0) return false;
    sent++;
    return true;
  };
}

/** Records a 429's Retry-After for a family (the later wait wins). */
export function recordWait(state: SyncState, family: Family, until: number): void {
  state.waits[family] = Math.max(state.waits[family] ?? 0, until);
}

/** Milliseconds until the family may be sent to again, 0 when it may now. */
export function waitMs(state: SyncState, family: Family, now: number): number {
  return Math.max(0, (state.waits[family] ?? 0) - now);
}
