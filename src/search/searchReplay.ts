// A job's searches readers gave up on, as the shared state keeps them (the `searchJobs` area): the
// before recorded when the job is started or followed up from search evidence, and the after once
// its change is live. Pure: no vscode; unit-tested.
import { MAX_REPLAY_TERMS, type SearchCheck, type SearchReplay } from '../sync/searchState';
import { pathsOnly } from './searchOutcome';

/**
 * The record after a prompt with these checks reached the job. A job whose change was already
 * replayed starts a new round (its misses sent back as a follow-up: their before is the last after);
 * one still waiting takes in the new terms, keeping the before of the ones it had. At most
 * MAX_REPLAY_TERMS terms, the first ones.
 */
export function withBefore(
  previous: SearchReplay | undefined,
  init: { domain: string; checks: ReadonlyMap<string, SearchCheck>; expect?: string; at: number },
): SearchReplay {
  const keep = previous && previous.afterAt === undefined && previous.domain === init.domain ? previous : undefined;
  const terms: SearchReplay['terms'] = { ...(keep?.terms ?? {}) };
  for (const [term, check] of init.checks) {
    if (Object.keys(terms).length >= MAX_REPLAY_TERMS) break;
    terms[term] ??= { before: pathsOnly(check) };
  }
  const expect = init.expect ?? keep?.expect ?? previous?.expect;
  return { domain: init.domain, ...(expect && { expect }), askedAt: keep?.askedAt ?? init.at, terms };
}

/** The record once its change is live: each term's after, the change, when. */
export function withAfter(replay: SearchReplay, after: ReadonlyMap<string, SearchCheck>, live: NonNullable<SearchReplay['live']>, at: number): SearchReplay {
  const terms: SearchReplay['terms'] = {};
  for (const [term, record] of Object.entries(replay.terms)) {
    const check = after.get(term);
    terms[term] = check ? { ...record, after: pathsOnly(check) } : record;
  }
  return { ...replay, terms, live, afterAt: at };
}

/** Whether the change that went live is this round's: merged after the job was asked (an older merge of the branch is an earlier round's). */
export function isThisRound(replay: SearchReplay, mergedAt: number): boolean {
  return mergedAt >= replay.askedAt;
}
