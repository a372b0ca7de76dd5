// The bounds by kind (src/sync/trendBounds.ts): a year-long site trend is not evicted by page
// trends, page trends go least recently used first, another API address's trends are forgotten,
// and a link stays while its job is tracked.
import assert from 'node:assert/strict';
import { emptyState, HybridClock, keepTrends, pruneState, SHARED_HISTORY_MAX_AGE_MS, type TrendFigures, useTrends } from '../../../src/sync/syncState';
import { setSignalLink } from '../../support/stateWrites';
import { applyJobChange } from '../../../src/sync/jobChanges';
import { PAGE_TRENDS_KEPT, SITE_WEEKS_KEPT, trendScope } from '../../../src/sync/trendBounds';
import { addDays } from '../../../src/util/days';

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
