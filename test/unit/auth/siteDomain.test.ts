// The site's domain identifier in what the writer pasted (src/auth/siteDomain.ts).
import assert from 'node:assert/strict';
import { parseSiteDomain } from '../../../src/auth/siteDomain';

describe("the site's domain identifier from what was pasted", () => {
  it('takes the identifier, the site’s address, or the end of the dashboard’s URL', () => {
    assert.equal(parseSiteDomain(' acme-docs '), 'acme-docs');
    assert.equal(parseSiteDomain('https://app.mintlify.com/acme-org/acme-docs'), 'acme-docs', 'the spec’s example: organisation, then domain');
    assert.equal(parseSiteDomain('app.mintlify.com/acme-org/acme-docs/settings/general'), 'acme-docs');
    assert.equal(parseSiteDomain('https://dashboard.mintlify.com/acme-org/acme-docs'), 'acme-docs');
    assert.equal(parseSiteDomain('https://acme-docs.mintlify.site/quickstart'), 'acme-docs');
    assert.equal(parseSiteDomain('acme-docs.mintlify.app'), 'acme-docs');
  });

  it('refuses what names no site: another host, a path segment that is not one, nothing', () => {
    for (const raw of ['', '   ', 'https://docs.acme.dev/guides', 'a/b', '..', 'acme docs', 'javascript:alert(1)', 'https://app.mintlify.com/org/%2E%2E'])
      assert.equal(parseSiteDomain(raw), undefined, raw);
  });
});
