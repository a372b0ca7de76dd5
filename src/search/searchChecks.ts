// The checks of the site's own search: what it returns for a term, searched once and kept for a day
// in the shared state (the `searchChecks` area, src/sync/searchState.ts), so every window and a
// reload reuse it without a request. A check of N terms not kept is N requests, at most
// SEARCH_IN_FLIGHT at once, each through the one client (its own family: the search's deadline,
// limit and 429 wait; never the analytics hour). No vscode import: the unit tests and the bench run
// it over the simulator and a shared store on disk.
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { SharedArea } from '../sync/sharedArea';
import { CHECK_KEPT_MS, type SearchCheck } from '../sync/searchState';
import { CHECK_PAGE_SIZE, keptHits } from './searchOutcome';

/** Searches sent at once: a check of a whole inbox does not open dozens of connections. */
const SEARCH_IN_FLIGHT = 4;
/** Above this many requests, the writer is told the count before they are sent. */
export const LARGE_CHECK = 10;

interface SearchChecksDeps {
  api: Pick<ApiClient, 'searchSite'>;
  area: SharedArea<'searchChecks'>;
  /** The site's domain identifier (the setting); undefined: no search is possible. */
  domain: () => string | undefined;
  /** The path the site is served under (`/docs`), taken off the results' paths; none when absent. */
  basePath?: () => string;
  now?: () => number;
  log?: { warn(message: string): void };
}

interface CheckOptions {
  /** Search again even when results are kept (a replay, Check Again). */
  fresh?: boolean;
  signal?: AbortSignal;
  /** The page the writer expects, kept with each check made now. */
  expect?: string;
}

interface CheckRun {
  /** The terms checked (kept or searched now), in the order asked. */
  checks: Map<string, SearchCheck>;
  /** Requests sent. */
  requests: number;
  /** The failure that stopped the run (the terms after it were not searched); the checks before it are kept. */
  error?: ApiError | Error;
}

export class SearchChecks {
  private readonly now: () => number;

  constructor(private readonly deps: SearchChecksDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The term's check kept for the current site (under a day old), or undefined: no request. */
  kept(term: string): SearchCheck | undefined {
    const domain = this.deps.domain();
    const check = domain === undefined ? undefined : this.deps.area.value[domain]?.[term];
    return check && check.at > this.now() - CHECK_KEPT_MS ? check : undefined;
  }

  /** Every check kept for the current site (under a day old): no request. */
  all(): [string, SearchCheck][] {
    const domain = this.deps.domain();
    const since = this.now() - CHECK_KEPT_MS;
    return domain === undefined ? [] : Object.entries(this.deps.area.value[domain] ?? {}).filter(([, check]) => check.at > since);
  }

  /** How many requests checking `terms` takes now: those with no kept check (all of them when `fresh`). */
  cost(terms: readonly string[], fresh = false): number {
    return fresh ? new Set(terms).size : new Set(terms.filter((t) => !this.kept(t))).size;
  }

  /**
   * Checks each term: a kept check is used as it is (unless `fresh`), the others are searched, one
   * request each. Every check made is shared with every window at once. A failure stops the run:
   * a 401 or a 429 would answer every other term the same.
   */
  async check(terms: readonly string[], options: CheckOptions = {}): Promise<CheckRun> {
    const domain = this.deps.domain();
    const run: CheckRun = { checks: new Map(), requests: 0 };
    const unique = [...new Set(terms)];
    if (domain === undefined) {
      run.error = new ApiError('invalidInput', 'No site domain is set: run "Mintlify: Set Site Domain".', { problem: 'emptyDomain' });
      return run;
    }
    const wanted = unique.filter((term) => {
      const kept = options.fresh ? undefined : this.kept(term);
      if (kept) run.checks.set(term, kept);
      return !kept;
    });
    const made = new Map<string, SearchCheck>();
    let next = 0;
    const worker = async () => {
      while (next < wanted.length && !run.error) {
        const term = wanted[next++];
        try {
          run.requests++;
          const results = await this.deps.api.searchSite(domain, { query: term, pageSize: CHECK_PAGE_SIZE }, { signal: options.signal });
          made.set(term, { at: this.now(), hits: keptHits(results, this.deps.basePath?.()), ...(options.expect && { expect: options.expect }) });
        } catch (error) {
          // Nothing left this machine (a refused term, no key): that term did not cost a request.
          if (error instanceof ApiError && error.reached === 'no') run.requests--;
          run.error ??= error instanceof Error ? error : new Error(String(error));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEARCH_IN_FLIGHT, wanted.length) }, worker));
    if (made.size) await this.keep(domain, made);
    for (const term of unique) {
      const check = made.get(term);
      if (check) run.checks.set(term, check);
    }
    // The order asked.
    run.checks = new Map(unique.flatMap((term) => (run.checks.has(term) ? [[term, run.checks.get(term) as SearchCheck]] : [])));
    return run;
  }

  /** Shares the checks with every window: this window has them at once; a write that fails is logged (the heartbeat writes the file again). */
  private async keep(domain: string, checks: ReadonlyMap<string, SearchCheck>): Promise<void> {
    await this.deps.area
      .change((area) => {
        const terms = (area[domain] ??= {});
        for (const [term, check] of checks) terms[term] = check;
      })
      .catch((error: unknown) => this.deps.log?.warn(`could not share ${checks.size} search check(s) with the other windows: ${String(error)}`));
  }
}
