// The file ↔ site path module, both directions on the same cases, and the docs root a file belongs to.
// Mintlify's own code judges the same rules on generated trees in test/conformance/pages.test.ts.
import assert from 'node:assert/strict';
import { ignoreRules } from '../../../src/docs/ignoreRules';
import { docCandidates, docsRootOf, normalizeSitePath, relativeTo, sitePathOf } from '../../../src/docs/sitePaths';

/** [file relative to the docs root, its site path] */
const PAGES: [string, string][] = [
  ['quickstart.mdx', '/quickstart'],
  ['quickstart.md', '/quickstart'],
  ['index.mdx', '/'],
  ['index.md', '/'],
  ['guides/index.mdx', '/guides'],
  ['guides/webhooks.md', '/guides/webhooks'],
  ['api-reference/endpoints/create-job.mdx', '/api-reference/endpoints/create-job'],
  ['api reference.mdx', '/api reference'],
  ['Guides/Setup.mdx', '/Guides/Setup'],
  // A leading underscore makes no difference to Mintlify: these are pages like any other.
  ['_partial.mdx', '/_partial'],
  ['guides/_draft.md', '/guides/_draft'],
  // Only the docs root's snippets/ holds snippets; a README is a page as MDX; a hidden folder Mintlify does not ignore is served.
  ['guides/snippets/intro.mdx', '/guides/snippets/intro'],
  ['README.mdx', '/README'],
  ['.hidden/page.mdx', '/.hidden/page'],
];

describe('docs site paths', () => {
  describe('file → site path and back, on the same cases', () => {
    for (const [file, sitePath] of PAGES) {
      it(`${file} ⇄ ${sitePath}`, () => {
        assert.equal(sitePathOf(file), sitePath);
        const candidates = docCandidates(sitePath);
        assert.ok(candidates, `${sitePath} has candidates`);
        // The reverse lookup names the file (the extension's case aside: file systems differ on it).
        assert.ok(
          candidates.some((c) => c.toLowerCase() === file.toLowerCase()),
          `${JSON.stringify(candidates)} includes ${file}`,
        );
      });
    }
  });

  describe('site path → files', () => {
    it('lists page files best first', () => {
      assert.deepEqual(docCandidates('/quickstart'), ['quickstart.mdx', 'quickstart.md', 'quickstart/index.mdx', 'quickstart/index.md']);
      assert.deepEqual(docCandidates('/guides/setup/'), ['guides/setup.mdx', 'guides/setup.md', 'guides/setup/index.mdx', 'guides/setup/index.md']);
      assert.deepEqual(docCandidates('/'), ['index.mdx', 'index.md']);
    });
    it('drops the query and fragment and decodes segments', () => {
      assert.equal(docCandidates('/api%20reference?x=1#top')?.[0], 'api reference.mdx');
    });
    for (const path of ['/../secrets', '/a/%2e%2e/b', '/a%2fb', '/a\\b', '/c:', '/a\u0000b']) {
      it(`refuses ${JSON.stringify(path)}`, () => assert.equal(docCandidates(path), undefined));
    }
    it('treats markup as a file name like any other', () => {
      assert.equal(docCandidates('/<img src=x onerror=alert(1)>')?.[0], '<img src=x onerror=alert(1)>.mdx');
    });
  });

  describe('a file that is not a page gives nothing', () => {
    for (const file of [
      'docs.json',
      'images/logo.png',
      'quickstart.mdx.bak',
      'snippets/intro.mdx',
      '_snippets/intro.mdx',
      'Snippets/intro.mdx',
      'node_modules/pkg/README.md',
      '.github/PULL_REQUEST_TEMPLATE.md',
      '.vscode/notes.md',
      '.mintlify/AGENTS.md',
      // Mintlify's own list, in any folder and either case, as .md only.
      'README.md',
      'guides/readme.md',
      'LICENSE.md',
      'CHANGELOG.md',
      'api/changelog.md',
      'CONTRIBUTING.md',
      'contribute.md',
      'skill.md',
      // Mintlify reads only a lower-case extension as a page's.
      'Guides/Setup.MDX',
      '../outside.mdx',
      '.mdx',
      '',
    ]) {
      it(JSON.stringify(file), () => assert.equal(sitePathOf(file), undefined));
    }
  });

  it("leaves out what the docs root's .mintignore names, and nothing else", () => {
    const rules = ignoreRules('drafts/\n*.internal.mdx\n!keep.internal.mdx\n/api/v1/**\n');
    assert.equal(sitePathOf('drafts/new.mdx', rules), undefined);
    assert.equal(sitePathOf('guides/drafts/new.mdx', rules), undefined);
    assert.equal(sitePathOf('guides/setup.internal.mdx', rules), undefined);
    assert.equal(sitePathOf('keep.internal.mdx', rules), '/keep.internal');
    assert.equal(sitePathOf('api/v1/users.mdx', rules), undefined);
    assert.equal(sitePathOf('guides/api/v1/users.mdx', rules), '/guides/api/v1/users');
    assert.equal(sitePathOf('drafts.mdx', rules), '/drafts', 'drafts/ names a folder only');
  });

  describe('the docs root of a file', () => {
    const ws = '/home/me/repo';
    it('is the folder of docs.json below the workspace folder', () => {
      assert.equal(docsRootOf(`${ws}/docs/quickstart.mdx`, [`${ws}/docs`], ws), `${ws}/docs`);
      assert.equal(sitePathOf(relativeTo(`${ws}/docs/guides/index.md`, `${ws}/docs`) ?? ''), '/guides');
    });
    it('is the deepest docs.json folder holding the file', () => {
      assert.equal(docsRootOf(`${ws}/docs/v2/a.mdx`, [`${ws}/docs`, `${ws}/docs/v2`], ws), `${ws}/docs/v2`);
    });
    it('is the workspace folder when it holds no docs.json', () => {
      assert.equal(docsRootOf(`${ws}/intro.md`, [], ws), ws);
    });
    it('is none for a file beside a docs folder (a monorepo README is not a page)', () => {
      assert.equal(docsRootOf(`${ws}/README.md`, [`${ws}/docs`], ws), undefined);
      assert.equal(docsRootOf('/elsewhere/a.mdx', [], ws), undefined);
    });
    it('does not mistake a sibling folder with the same prefix for the root', () => {
      assert.equal(docsRootOf(`${ws}/docs-old/a.mdx`, [`${ws}/docs`], ws), undefined);
      assert.equal(relativeTo(`${ws}/docs-old/a.mdx`, `${ws}/docs`), undefined);
    });
  });

  it('normalizes site paths for comparison', () => {
    assert.equal(normalizeSitePath('/guides/'), '/guides');
    assert.equal(normalizeSitePath('/'), '/');
    assert.equal(normalizeSitePath(''), '/');
    assert.equal(normalizeSitePath('guides/x'), '/guides/x');
    assert.equal(normalizeSitePath(' /quickstart/ '), '/quickstart');
    // The API's site paths are decoded names: a ? or # in one is part of the page's name, so the
    // page /guides/a b?c#d is not taken for /guides/a b.
    assert.equal(normalizeSitePath('/guides/a b?c#d'), '/guides/a b?c#d');
    assert.equal(normalizeSitePath('/guides/100%-uptime/'), '/guides/100%-uptime');
  });

  it('is one page at both of the paths Mintlify serves a section at, /x and /x/index', () => {
    assert.equal(normalizeSitePath('/guides/index'), '/guides');
    assert.equal(normalizeSitePath('/guides/index/'), '/guides');
    assert.equal(normalizeSitePath('/index'), '/');
    assert.equal(normalizeSitePath('https://docs.acme.dev/guides/index?ref=nav'), '/guides');
    assert.equal(normalizeSitePath('/guides/index'), sitePathOf('guides/index.mdx'));
    assert.equal(normalizeSitePath('/guides/indexes'), '/guides/indexes');
  });

  it("reads a path without the site's base path, where the site is served under one", () => {
    assert.equal(normalizeSitePath('https://acme.dev/docs/quickstart', '/docs'), '/quickstart');
    assert.equal(normalizeSitePath('/docs/guides/index', '/docs/'), '/guides');
    assert.equal(normalizeSitePath('https://acme.dev/docs', 'docs'), '/');
    assert.equal(normalizeSitePath('/quickstart', '/docs'), '/quickstart', 'a path without it is kept');
    assert.equal(normalizeSitePath('/docs-old/a', '/docs'), '/docs-old/a');
    assert.equal(normalizeSitePath('/docs/a', ''), '/docs/a');
  });

  it("reads a page from a full URL too (the API's pageUrl), decoded, without query or trailing slash", () => {
    // Decoded after the query is cut: an encoded ? or # is part of the page's name.
    assert.equal(normalizeSitePath('https://docs.acme.dev/guides/a%20b%3Fc%23d'), '/guides/a b?c#d');
    assert.equal(normalizeSitePath('https://docs.acme.dev/quickstart/?utm_source=x#top'), '/quickstart');
    assert.equal(normalizeSitePath('HTTP://docs.acme.dev/'), '/');
    assert.equal(normalizeSitePath('https://docs.acme.dev/100%/x'), '/100%/x', 'a lone % stays a character');
    // A URL and the site path of the same page give the same key, as the signals and the readers compare them.
    assert.equal(normalizeSitePath('https://docs.acme.dev/guides/setup/?ref=nav'), normalizeSitePath('/guides/setup/'));
  });
});
