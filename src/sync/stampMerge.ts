// The building blocks of the shared state's merges (syncState.ts): stamps compared, the later of two
// writes, records merged key by key. Each is commutative, associative and idempotent, and breaks a
// tie by the values themselves (eitherOf), so no order of merging can matter. No vscode import.
import { eitherOf, type OpenTrendFigures, type Stamp } from './sharedSchema';

export function compareStamps(a: Stamp, b: Stamp): number {
  if (a.t !== b.t) return a.t - b.t;
  return a.w < b.w ? -1 : a.w > b.w ? 1 : 0;
}

/** The later write; two writes with the same stamp (never from one clock) are told apart by their values. */
export function later<T extends { s: Stamp }>(a: T, b: T): T {
  const order = compareStamps(a.s, b.s);
  return order > 0 ? a : order < 0 ? b : eitherOf(a, b);
}

export function mergeRecordsBy<T>(a: Record<string, T>, b: Record<string, T>, pick: (x: T, y: T) => T): Record<string, T> {
  const out: Record<string, T> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? pick(out[k], v) : v;
  return out;
}

export function mergeProjects<T>(
  a: Record<string, Record<string, T>>,
  b: Record<string, Record<string, T>>,
  pick: (x: T, y: T) => T,
): Record<string, Record<string, T>> {
  return mergeRecordsBy(a, b, (x, y) => mergeRecordsBy(x, y, pick));
}

export function* everyValue<T>(perProjectValues: Record<string, Record<string, T>>): Iterable<T> {
  for (const values of Object.values(perProjectValues)) yield* Object.values(values);
}

/** The later fetch; of two at the same instant, the larger figures (so either order gives the same). */
export function laterFetch(m: OpenTrendFigures, n: OpenTrendFigures): OpenTrendFigures {
  for (const i of [3, 2, 0, 1] as const) if (m[i] !== n[i]) return n[i] > m[i] ? n : m;
  return eitherOf(m, n);
}
