// What the site's search returning a term's results means (src/search/searchOutcome.ts): results as
// kept, the rank of the page expected, which gap, and a job's searches before and after its change.
import assert from 'node:assert/strict';
import { FOUND_RANK, gapOf, keptHits, misses, rankOf, replayOutcome, standingOf } from '../../../src/search/searchOutcome';
import { MAX_HIT_PATH, MAX_KEPT_HITS, type SearchReplay } from '../../../src/sync/searchState';

const check = (...paths: string[]) => ({ at: 1, hits: paths.map((p) => ({ p })) });

describe('the outcome of a search', () => {
  it('keeps each result as a site path (from a path or a URL), cut, with the content of the first three only', () => {
    const results = [
      { path: 'guides/sso', content: 'Single   sign-on\nwith SAML' },
      { path: 'https://acme-docs.mintlify.site/quickstart/?ref=nav', content: 'Quickstart' },
      { path: '/api-reference/keys/', content: null },
      { path: 'x', content: 'four' },
      { path: `/${'p'.repeat(400)}`, content: 'long' },
      { content: 'no path' },
      ...Array.from({ length: 10 }, (_, i) => ({ path: `/more-${i}` })),
    ];
    const hits = keptHits(results);
    assert.equal(hits.length, MAX_KEPT_HITS);
    assert.deepEqual(hits.slice(0, 4), [
      { p: '/guides/sso', c: 'Single sign-on with SAML' },
      { p: '/quickstart', c: 'Quickstart' },
      { p: '/api-reference/keys' },
      { p: '/x' },
    ]);
    assert.equal(hits[4]?.p.length, MAX_HIT_PATH);
    assert.deepEqual(hits[5], { p: '' });
  });

  it('ranks the page expected, whichever way it is written', () => {
    assert.equal(rankOf(check('/a', '/guides/sso', '/b'), 'guides/sso/'), 2);
    assert.equal(rankOf(check('/a'), '/b'), undefined);
  });

  it('tells a content gap from a findability gap', () => {
    assert.deepEqual(gapOf(check(), '/guides/sso', true), { kind: 'nothing' });
    assert.deepEqual(gapOf(check('/guides/sso'), '/guides/sso', true), { kind: 'found', page: '/guides/sso', rank: 1 });
    const seventh = check('/1', '/2', '/3', '/4', '/5', '/6', '/guides/sso');
    assert.deepEqual(gapOf(seventh, '/guides/sso', true), { kind: 'findability', page: '/guides/sso', rank: 7 });
    assert.ok(FOUND_RANK < 7);
    assert.deepEqual(gapOf(check('/1'), '/guides/sso', true), { kind: 'findability', page: '/guides/sso', rank: undefined }, 'exists, not among them');
    assert.deepEqual(gapOf(check('/1'), '/guides/sso', false), { kind: 'missing', page: '/guides/sso' }, 'no such page: a content gap');
    assert.deepEqual(gapOf(check('/1', '/2'), undefined, false), { kind: 'unnamed', results: 2 });
  });

  it('compares a job’s searches before and after: which now find the page, with their ranks; which still find nothing; which find others', () => {
    const replay: Pick<SearchReplay, 'expect' | 'terms' | 'live'> = {
      live: { commit: 'c', at: 1, pages: ['/guides/sso'] },
      terms: {
        sso: { before: check(), after: check('/guides/sso') },
        'single sign-on': { before: check('/x'), after: check('/x', '/guides/sso', '/y') },
        saml: { before: check(), after: check('/a', '/b', '/guides/sso') },
        okta: { before: check(), after: check('/guides/sso', '/a') },
        'sso billing': { before: check(), after: check() },
        'scim groups': { before: check('/z'), after: check('/z') },
      },
    };
    const outcome = replayOutcome(replay);
    assert.deepEqual(outcome.pages, ['/guides/sso']);
    assert.deepEqual(
      outcome.finds.map((t) => t.term),
      ['okta', 'sso', 'single sign-on', 'saml'],
      'best ranks first',
    );
    assert.equal(outcome.page, '/guides/sso');
    assert.deepEqual(outcome.ranks, { min: 1, max: 3 });
    assert.deepEqual(
      outcome.nothing.map((t) => t.term),
      ['sso billing'],
    );
    assert.deepEqual(
      outcome.other.map((t) => t.term),
      ['scim groups'],
    );
    assert.deepEqual(
      misses(outcome).map((t) => t.term),
      ['scim groups', 'sso billing'],
    );
    assert.deepEqual(standingOf(check('/a'), []), { kind: 'other', results: 1 });
  });

  it('with no page known (no merge seen, none expected), says which searches found nothing before and something now', () => {
    const outcome = replayOutcome({
      terms: { a: { before: check(), after: check('/p') }, b: { before: check(), after: check() }, c: { before: check('/q') } },
    });
    assert.deepEqual(outcome.pages, []);
    assert.deepEqual(
      outcome.newlyFound.map((t) => t.term),
      ['a'],
    );
    assert.equal(outcome.terms.find((t) => t.term === 'c')?.after, undefined, 'not searched after yet');
  });
});
