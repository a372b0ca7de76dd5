// The request ledger every window shares: which requests were sent in the last hour, per bucket
// (`agent:<project>`, `analytics:<salted hash of the key>`), and which endpoint families the server asked
// us to leave alone (429 Retry-After). Pure functions over the shared state; the window glue
// records and reads through them.
import { createHmac } from 'node:crypto';
import type { Family } from '../api/endpoints';
import { HOUR_MS } from '../util/clock';

/**
 * The shared state's areas the hour reads and writes (src/sync/syncState.ts AREAS, whose state is one):
 * bucket → entry id → when it was sent (`ledger`) or released unsent (`released`), and family → until when
 * the platform said to wait (`waits`).
 */
export interface HourAreas {
  ledger: Record<string, Record<string, number>>;
  released: Record<string, Record<string, number>>;
  waits: Record<string, number>;
}

/** What the platform allows per bucket and hour. */
export const HOURLY_LIMIT = 100;

/** A project's agent hour as a send's preview words it: requests used, the limit, what is left. */
export function agentHourUse(ledger: { agentRequestsThisHour(project: string): number }, project: string): [used: number, limit: number, left: number] {
  const used = ledger.agentRequestsThisHour(project);
  return [used, HOURLY_LIMIT, Math.max(0, HOURLY_LIMIT - used)];
}
/**
 * Background analytics work (readers, signals, catch-up reads) never takes a bucket past this, so 40 requests an hour
 * always remain for what the user asks for. What a user asks for is held to what is left (hourGate.ts).
 */
export const BACKGROUND_CEILING = 60;

export type { Family };

export function agentBucket(projectId: string): string {
  return `agent:${projectId}`;
}

export function analyticsBucket(keyHash: string): string {
  return `analytics:${keyHash}`;
}

/** The organisation's preview deployments (5 a minute), named like the analytics bucket by the key's salted hash. */
export function previewBucket(keyHash: string): string {
  return `preview:${keyHash}`;
}

/** This machine's background work within the key's analytics bucket (each entry is in both), for its share (hourGate.ts). */
export function backgroundBucket(keyHash: string): string {
  return `background:${keyHash}`;
}

/**
 * What names a key's analytics bucket: the first 64 bits of HMAC-SHA-256 of the key under the
 * install's random salt. A plain hash of the key would be the same on every machine, a
 * fingerprint that tells who uses which key; salted, it means nothing outside this install.
 */
export function keyBucketHash(salt: string, key: string): string {
  // Synchronous (node's crypto): the bucket is named in the same turn the salt or the key arrives.
  return createHmac('sha256', salt).update(key).digest('hex').slice(0, 16);
}

/** A fresh random salt (128 bits, hex). */
export function newSalt(): string {
  return [...globalThis.crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The family of a request path (`/v2/agent/…`, `/v1/analytics/…`, `/v1/project/…`, `/discovery/…`), undefined for others. */
export function familyOf(path: string): Family | undefined {
  if (path.startsWith('/v2/agent/')) return 'agent';
  if (path.startsWith('/v1/analytics/')) return 'analytics';
  if (path.startsWith('/v1/project/')) return 'preview';
  if (path.startsWith('/discovery/')) return 'search';
  return undefined;
}

/** The project segment of an agent path: `/v2/agent/<project>/job…`. */
export function projectOfAgentPath(path: string): string | undefined {
  const segment = path.split('/')[3];
  return segment ? decodeURIComponent(segment.split('?')[0]) : undefined;
}

export function recordRequest(state: HourAreas, bucket: string, entryId: string, at: number): void {
  (state.ledger[bucket] ??= {})[entryId] = at;
}

/** Marks a reservation of the ledger released: it was never sent, and its slot is free again (hourAccount.ts). */
export function releaseRequest(state: HourAreas, bucket: string, entryId: string, at: number): void {
  (state.released[bucket] ??= {})[entryId] = at;
}

/**
 * When each request of the bucket in the hour before `now` was reserved (released ones left out), oldest first.
 *
 * An entry stamped after `now` was written before the clock stepped back (a manual change, an NTP
 * correction after a resume): its true age is not known, only that it was sent by now. It counts as
 * sent when this window first saw it ahead (`ahead`, kept by the caller across calls; now, without
 * one), so a step back neither empties the hour nor holds a request in it for more than an hour.
 */
export function timesInHour(state: HourAreas, bucket: string, now: number, ahead?: Map<string, number>): number[] {
  const released = state.released[bucket] ?? {};
  const times: number[] = [];
  for (const [id, at] of Object.entries(state.ledger[bucket] ?? {})) {
    if (released[id] !== undefined) continue;
    let when = at;
    if (at > now) {
      const key = `${bucket} ${id}`;
      when = ahead?.get(key) ?? now;
      ahead?.set(key, when);
    }
    if (when > now - HOUR_MS) times.push(when);
  }
  return times.sort((a, b) => a - b);
}

/** Requests sent in the hour before `now` (see timesInHour for `ahead`). */
export function countInHour(state: HourAreas, bucket: string, now: number, ahead?: Map<string, number>): number {
  return timesInHour(state, bucket, now, ahead).length;
}

/**
 * How long until `wanted` requests fit under `limit`, given the hour's send times (oldest first)
 * and `onTheirWay` more that count from now: 0 when they fit now, else the time until enough of
 * the hour's entries slide out; Infinity when `wanted` alone is over the limit.
 */
export function freesInMs(times: readonly number[], now: number, wanted: number, limit = HOURLY_LIMIT, onTheirWay = 0): number {
  if (wanted > limit) return Number.POSITIVE_INFINITY;
  const mustLeave = times.length + onTheirWay + wanted - limit;
  if (mustLeave <= 0) return 0;
  // Requests on their way count from now: only the ledger's older entries can leave before them.
  if (mustLeave > times.length) return HOUR_MS;
  return Math.max(1, times[mustLeave - 1] + HOUR_MS - now);
}
