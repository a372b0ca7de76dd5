// A job's searches as the shared state keeps them (src/search/searchReplay.ts): the before taken in
// when a prompt reaches the job, a new round after a replay, and the after.
import assert from 'node:assert/strict';
import { isThisRound, withAfter, withBefore } from '../../../src/search/searchReplay';
import { MAX_REPLAY_TERMS } from '../../../src/sync/searchState';

const check = (at: number, ...paths: string[]) => ({ at, hits: paths.map((p) => ({ p, c: `content of ${p}` })) });

describe('a job’s searches before and after', () => {
  it('records the before as paths only, and takes in a follow-up’s terms while the change is not live', () => {
    const first = withBefore(undefined, { domain: 'acme', checks: new Map([['sso', check(1, '/a')]]), expect: '/guides/sso', at: 10 });
    assert.deepEqual(first, { domain: 'acme', expect: '/guides/sso', askedAt: 10, terms: { sso: { before: { at: 1, hits: [{ p: '/a' }] } } } });
    const more = withBefore(first, {
      domain: 'acme',
      checks: new Map([
        ['saml', check(2)],
        ['sso', check(3, '/b')],
      ]),
      at: 20,
    });
    assert.equal(more.askedAt, 10, 'the round asked first');
    assert.deepEqual(more.terms.sso?.before.hits, [{ p: '/a' }], 'a term keeps its first before');
    assert.deepEqual(Object.keys(more.terms), ['sso', 'saml']);
  });

  it('after a replay, a new prompt starts a new round: its before, its time', () => {
    const done = withAfter(
      withBefore(undefined, { domain: 'acme', checks: new Map([['sso', check(1)]]), at: 10 }),
      new Map([['sso', check(50)]]),
      { commit: 'c1', at: 40, pages: ['/guides/sso'] },
      60,
    );
    assert.equal(done.afterAt, 60);
    assert.deepEqual(done.terms.sso?.after, { at: 50, hits: [] });
    const next = withBefore(done, { domain: 'acme', checks: new Map([['sso', check(50)]]), at: 70 });
    assert.equal(next.askedAt, 70);
    assert.equal(next.afterAt, undefined);
    assert.equal(next.live, undefined);
    assert.ok(isThisRound(next, 80) && !isThisRound(next, 40), 'only a merge after the new round counts');
  });

  it('holds at most MAX_REPLAY_TERMS terms', () => {
    const checks = new Map(Array.from({ length: MAX_REPLAY_TERMS + 3 }, (_, i) => [`t${i}`, check(i)] as const));
    assert.equal(Object.keys(withBefore(undefined, { domain: 'acme', checks, at: 1 }).terms).length, MAX_REPLAY_TERMS);
  });
});
