// Every area of the shared state merges the same whatever the order (src/sync/syncState.ts): for
// random states, property-based with fast-check, merge(a, b) = merge(b, a), merging is associative
// and merging a state with itself changes nothing. Each area needs a generator here: a new area
// without one fails the first test. And the bounds by kind (src/sync/trendBounds.ts): a year-long
// site trend is not evicted by page trends, page trends go least recently used first, another API
// address's trends are forgotten, and a link stays while its job is tracked.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  emptyState,
  HybridClock,
  keepTrends,
  KNOWN_AREAS,
  mergeState,
  pruneState,
  setSignalLink,
  SHARED_HISTORY_MAX_AGE_MS,
  type SyncState,
  type TrendFigures,
  useTrends,
  sameState,
} from '../../../src/sync/syncState';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { PAGE_TRENDS_KEPT, SITE_WEEKS_KEPT, trendScope } from '../../../src/sync/trendBounds';
import { addDays } from '../../../src/util/days';

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

describe('shared state: bounds by kind (src/sync/trendBounds.ts)', () => {
  const NOW = Date.parse('2026-11-25T12:00:00Z');
  const monday = '2025-11-24';
  /** A year-long site trend's settled weeks, Monday to Sunday. */
  const yearOfWeeks = (metric = 'visitors'): Record<string, TrendFigures> =>
    Object.fromEntries(
      Array.from({ length: 52 }, (_, i) => [`${metric} ${addDays(monday, 7 * i)} ${addDays(monday, 7 * i + 7)}`, [i, 1, i + 1] as TrendFigures]),
    );
  /** One page's Last 30 days, with its previous period: 60 settled days. */
  const pageMonth = (page: number): Record<string, TrendFigures> =>
    Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`page:%2Fp${page} ${addDays('2026-11-24', -i)} ${addDays('2026-11-24', 1 - i)}`, [1, 0, 1] as TrendFigures]),
    );

  it('ten Show Trends after a year-long site trend leave every one of its settled weeks kept', () => {
    const state = emptyState();
    keepTrends(state, 'proj', yearOfWeeks(), {}, NOW);
    for (let page = 0; page < 10; page++) keepTrends(state, 'proj', pageMonth(page), {}, NOW + page);
    pruneState(state, NOW + 10);
    const kept = Object.keys(state.trends.proj ?? {});
    assert.deepEqual(
      Object.keys(yearOfWeeks()).filter((k) => !kept.includes(k)),
      [],
      'a settled week was evicted',
    );
  });

  it('keeps page trends within their own bound, the least recently used first, and a year of calendar weeks per metric', () => {
    const state = emptyState();
    for (let page = 0; page < 11; page++) keepTrends(state, 'proj', pageMonth(page), {}, NOW + page);
    // Page 0 drawn again: now the most recently used.
    assert.ok(useTrends(state, 'proj', Object.keys(pageMonth(0)), NOW + 100));
    keepTrends(state, 'proj', { ...yearOfWeeks(), ...yearOfWeeks('views') }, {}, NOW);
    pruneState(state, NOW + 200);
    const kept = Object.keys(state.trends.proj ?? {});
    assert.equal(kept.filter((k) => k.startsWith('page:')).length, PAGE_TRENDS_KEPT);
    assert.ok(kept.includes(Object.keys(pageMonth(0))[0]), 'the page drawn again is kept');
    assert.ok(!kept.includes(Object.keys(pageMonth(1))[0]), 'the least recently used page goes first');
    assert.equal(kept.filter((k) => !k.startsWith('page:')).length, 2 * 52);
    assert.ok(52 <= SITE_WEEKS_KEPT);
    assert.deepEqual(
      Object.keys(state.trendUse.proj ?? {}).filter((k) => !kept.includes(k)),
      [],
      'no use of a bucket not kept',
    );
  });

  it('forgets what another API address’s trends kept, settled and open', () => {
    const state = emptyState();
    const old = trendScope('proj', 'https://old.example.com');
    const current = trendScope('proj', 'https://api.mintlify.com');
    keepTrends(state, old, yearOfWeeks(), { 'visitors 2026-11-25 2026-11-26': [1, 1, 1, NOW] }, NOW);
    keepTrends(state, current, yearOfWeeks(), { 'visitors 2026-11-25 2026-11-26': [2, 2, 2, NOW] }, NOW);
    pruneState(state, { now: NOW, apiBaseUrl: 'https://api.mintlify.com' });
    assert.deepEqual(Object.keys(state.trends), [current]);
    assert.deepEqual(Object.keys(state.openTrends), [current]);
  });

  it('keeps a signal’s link while its job is tracked, however long ago it was asked', () => {
    const state = emptyState();
    const clock = new HybridClock('w', () => NOW - 2 * SHARED_HISTORY_MAX_AGE_MS);
    const askedLongAgo = new Date(NOW - 2 * SHARED_HISTORY_MAX_AGE_MS).toISOString();
    for (const jobId of ['tracked_job', 'stopped_job']) {
      applyJobChange(state, 'proj', jobId, { track: true }, clock);
      setSignalLink(state, 'proj', { jobId, signalIds: ['page:/a'], searches: [], askedAt: askedLongAgo }, clock);
    }
    applyJobChange(state, 'proj', 'stopped_job', { track: false }, clock);
    pruneState(state, NOW);
    assert.deepEqual(Object.keys(state.links.proj ?? {}), ['tracked_job']);
  });
});
