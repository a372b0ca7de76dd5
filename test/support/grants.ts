// Leave to spend the analytics hour, for tests that call the API client directly: the client sends
// no analytics request without a reservation (src/api/client.ts). The real gate is src/hour/hourGate.ts;
// these stand in for it where the hour is not what the test is about, or count what was taken.
import type { Grant } from '../../src/api/client';
import type { FetchVisitors } from '../../src/analytics/visitorsQuery';

/** Leave for every request. */
export const unlimited: Grant = { reserve: () => Promise.resolve({ end: () => undefined }) };

/** Leave for `allowed` requests; `taken` counts the reservations given. */
export function grantOf(allowed: number): Grant & { readonly taken: number } {
  let taken = 0;
  return {
    reserve: () => Promise.resolve(taken < allowed ? (taken++, { end: () => undefined }) : undefined),
    get taken() {
      return taken;
    },
  };
}

/** A page fetcher (the client's getVisitors, or fetcherFor's) with leave for every request. */
export function withLeave(fetch: FetchVisitors): FetchVisitors {
  return (projectId, query, options) => fetch(projectId, query, { ...options, grant: unlimited });
}
