// The site's search in the shared state (src/sync/searchState.ts): its checks are kept a day and at
// most MAX_KEPT_CHECKS of them, the same ones in every window; a job's searches go with the job.
import assert from 'node:assert/strict';
import { CHECK_KEPT_MS, MAX_KEPT_CHECKS, pruneChecks, pruneSearchJobs, type SharedSearchChecks } from '../../../src/sync/searchState';
import { emptyState, mergeState, pruneState } from '../../../src/sync/syncState';

const NOW = 1_800_000_000_000;

describe('the site search in the shared state', () => {
  it('drops checks a day old, then all but the newest MAX_KEPT_CHECKS, the same whatever the order they were written in', () => {
    const checks: SharedSearchChecks = { acme: {}, other: {} };
    for (let i = 0; i < MAX_KEPT_CHECKS + 30; i++) checks[i % 2 ? 'acme' : 'other'][`term ${i}`] = { at: NOW - i * 1_000, hits: [] };
    checks.acme.stale = { at: NOW - CHECK_KEPT_MS, hits: [] };
    const reversed: SharedSearchChecks = Object.fromEntries(
      Object.entries(checks)
        .reverse()
        .map(([domain, terms]) => [domain, Object.fromEntries(Object.entries(terms).reverse())]),
    );
    pruneChecks(checks, NOW);
    const kept = Object.values(checks).flatMap((terms) => Object.keys(terms));
    assert.equal(kept.length, MAX_KEPT_CHECKS);
    assert.ok(!kept.includes('stale'));
    assert.ok(kept.includes('term 0') && !kept.includes(`term ${MAX_KEPT_CHECKS}`), 'the newest are kept');
    pruneChecks(reversed, NOW);
    assert.deepEqual(reversed, checks);
  });

  it('a later check of a term wins in every window; a job’s searches go when the shared state forgets the job', () => {
    const a = emptyState();
    const b = emptyState();
    a.searchChecks.acme = { sso: { at: NOW - 10, hits: [{ p: '/old' }] } };
    b.searchChecks.acme = { sso: { at: NOW, hits: [{ p: '/new' }] } };
    assert.deepEqual(mergeState(a, b).searchChecks, mergeState(b, a).searchChecks);
    assert.deepEqual(mergeState(a, b).searchChecks.acme?.sso?.hits, [{ p: '/new' }]);
    const state = emptyState();
    state.searchJobs.proj = {
      kept: { v: { domain: 'acme', askedAt: 1, terms: {} }, s: { t: 1, w: 'w' } },
      gone: { v: { domain: 'acme', askedAt: 1, terms: {} }, s: { t: 1, w: 'w' } },
    };
    state.jobs.proj = { kept: { tracked: { v: true, s: { t: 1, w: 'w' } }, f: {}, p: {} } };
    pruneState(state, NOW);
    assert.deepEqual(Object.keys(state.searchJobs.proj ?? {}), ['kept']);
    pruneSearchJobs(state.searchJobs, () => false);
    assert.deepEqual(state.searchJobs, {});
  });
});
