// Every area of the shared state merges the same whatever the order (src/sync/syncState.ts): for
// random states, property-based with fast-check, merge(a, b) = merge(b, a), merging is associative
// and merging a state with itself changes nothing. Each area needs a generator here: a new area
// without one fails the first test.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emptyState, KNOWN_AREAS, mergeState, type SyncState } from '../../../src/sync/syncState';
import { sameState } from '../../support/stateWrites';

// Small domains, so that random states collide: the same keys, equal stamps, equal totals.
const key = fc.constantFrom('a', 'b', 'c');
const stamp = fc.record({ t: fc.integer({ min: 0, max: 3 }), w: fc.constantFrom('w1', 'w2') });
const extra = fc.option(fc.constantFrom('x', 'y', 1), { nil: undefined });
/** An entry, sometimes with a field of a newer version. */
const loose = <T extends object>(value: fc.Arbitrary<T>) => fc.tuple(value, extra).map(([v, x]) => (x === undefined ? v : { ...v, newer: x }));
const register = <T>(value: fc.Arbitrary<T>) => loose(fc.record({ v: value, s: stamp }));
const perProject = <T>(value: fc.Arbitrary<T>) => fc.dictionary(key, fc.dictionary(key, value, { maxKeys: 3 }), { maxKeys: 2 });
const small = fc.integer({ min: 0, max: 3 });
const link = loose(
  fc.record({
    jobId: key,
    signalIds: fc.array(key, { maxLength: 2 }),
    searches: fc.array(key, { maxLength: 1 }),
    askedAt: fc.constantFrom('2026-01-01', '2026-02-01'),
  }),
);
const searchCheck = loose(
  fc.record(
    { at: small, hits: fc.array(loose(fc.record({ p: key, c: key }, { requiredKeys: ['p'] })), { maxLength: 2 }), expect: key },
    { requiredKeys: ['at', 'hits'] },
  ),
);
const job = loose(
  fc.record({
    tracked: register(fc.boolean()),
    f: fc.dictionary(key, register(fc.oneof(small, key, fc.constant(null))), { maxKeys: 2 }),
    p: fc.dictionary(key, loose(fc.record({ text: key, sentAt: key, s: stamp })), { maxKeys: 2 }),
  }),
);

/** One generator per area: the state's areas, each from its own. */
const AREAS: Record<string, fc.Arbitrary<unknown>> = {
  jobs: perProject(job),
  drafts: perProject(register(fc.option(key, { nil: null }))),
  links: perProject(register(link)),
  trends: perProject(fc.tuple(small, small, small)),
  trendUse: perProject(small),
  openTrends: perProject(fc.tuple(small, small, small, small)),
  ledger: perProject(small),
  released: perProject(small),
  waits: fc.dictionary(key, small, { maxKeys: 2 }),
  salt: fc.option(key, { nil: undefined }),
  reviews: perProject(
    loose(
      fc.record(
        {
          c: fc.dictionary(
            key,
            register(
              fc.option(
                loose(
                  fc.record({ path: key, commit: key, startLine: small, endLine: small, lines: fc.array(key, { maxLength: 2 }), body: key, createdAt: small }),
                ),
                { nil: null },
              ),
            ),
            { maxKeys: 2 },
          ),
          tip: register(key),
          lost: register(fc.option(small, { nil: null })),
          sending: register(fc.option(loose(fc.record({ window: key, at: small, id: key })), { nil: null })),
          claims: fc.dictionary(key, register(fc.option(loose(fc.record({ window: key, at: small, id: key })), { nil: null })), { maxKeys: 2 }),
        },
        { requiredKeys: ['c'] },
      ),
    ),
  ),
  previews: perProject(
    register(
      loose(
        fc.record(
          { branch: key, statusId: key, requestedAt: small, status: fc.constantFrom('queued', 'success', 'failure'), logs: fc.array(key, { maxLength: 2 }) },
          { requiredKeys: ['branch', 'statusId', 'requestedAt', 'status'] },
        ),
      ),
    ),
  ),
  previewPlans: fc.dictionary(key, register(fc.option(small, { nil: null })), { maxKeys: 2 }),
  buildFixes: perProject(
    loose(
      fc.record(
        {
          sending: register(fc.option(loose(fc.record({ window: key, at: small, id: key })), { nil: null })),
          claims: fc.dictionary(key, register(fc.option(loose(fc.record({ window: key, at: small, id: key })), { nil: null })), { maxKeys: 2 }),
          sent: register(fc.option(loose(fc.record({ statusId: key, at: small, lost: fc.boolean() }, { requiredKeys: ['statusId', 'at'] })), { nil: null })),
        },
        { requiredKeys: [] },
      ),
    ),
  ),
  // Two checks at the same instant differ by their results or expected page: the tie is broken by the values.
  searchChecks: perProject(searchCheck),
  searchJobs: perProject(
    register(
      loose(
        fc.record(
          {
            domain: key,
            expect: key,
            askedAt: small,
            terms: fc.dictionary(key, loose(fc.record({ before: searchCheck, after: searchCheck }, { requiredKeys: ['before'] })), { maxKeys: 2 }),
            live: loose(fc.record({ commit: key, at: small, pages: fc.array(key, { maxLength: 2 }) })),
            afterAt: small,
          },
          { requiredKeys: ['domain', 'askedAt', 'terms'] },
        ),
      ),
    ),
  ),
  // An area a newer version wrote, carried whole.
  annotations: fc.option(fc.dictionary(key, small, { maxKeys: 2 }), { nil: undefined }),
};

const state: fc.Arbitrary<SyncState> = fc.record(AREAS).map((areas) => {
  const out = emptyState() as Record<string, unknown>;
  for (const [name, value] of Object.entries(areas)) if (value !== undefined) out[name] = value;
  return out as SyncState;
});

describe('shared state: every area merges the same in any order (property-based)', () => {
  it('has a generator for every area the state knows', () => {
    assert.deepEqual(
      [...KNOWN_AREAS.keys()].filter((name) => !(name in AREAS)),
      [],
    );
  });

  it('merge(a, b) = merge(b, a)', () => {
    fc.assert(
      fc.property(state, state, (a, b) => sameState(mergeState(a, b), mergeState(b, a))),
      { numRuns: 1_000 },
    );
  });

  it('merge(merge(a, b), c) = merge(a, merge(b, c)), and merge(a, a) = a', () => {
    fc.assert(
      fc.property(
        state,
        state,
        state,
        (a, b, c) => sameState(mergeState(mergeState(a, b), c), mergeState(a, mergeState(b, c))) && sameState(mergeState(a, a), a),
      ),
      { numRuns: 500 },
    );
  });
});
