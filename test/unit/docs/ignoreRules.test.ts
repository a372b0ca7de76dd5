// .mintignore's rules on the cases a writer meets; test/conformance/ignore.test.ts holds them to
// Mintlify's own matcher on generated patterns.
import assert from 'node:assert/strict';
import { ignoreRules } from '../../../src/docs/ignoreRules';

describe('ignore rules', () => {
  it("ignores Mintlify's own list without a .mintignore", () => {
    const rules = ignoreRules();
    for (const path of [
      'node_modules/x/a.mdx',
      'guides/node_modules/a.md',
      '.git/a.md',
      '.github/a.md',
      '.vscode/a.md',
      '.mintlify/AGENTS.md',
      'README.md',
      'api/CHANGELOG.md',
      'license.md',
    ])
      assert.equal(rules.ignores(path), true, path);
    for (const path of ['.mintlify/skills/x/a.mdx', 'README.mdx', 'guides/a.mdx', '.hidden/a.mdx']) assert.equal(rules.ignores(path), false, path);
  });

  it('reads .gitignore patterns: anchors, folders only, globs, negation, comments and escapes', () => {
    const rules = ignoreRules(
      ['# drafts', 'drafts/', '/root-only.mdx', 'api/**/internal', '*.tmp.mdx', '!keep.tmp.mdx', 'v[0-9]', '\\#hash.mdx', '  '].join('\r\n'),
    );
    const cases: [string, boolean][] = [
      ['drafts/a.mdx', true],
      ['x/drafts/a.mdx', true],
      ['drafts', false],
      ['root-only.mdx', true],
      ['x/root-only.mdx', false],
      ['api/internal/a.mdx', true],
      ['api/a/b/internal/a.mdx', true],
      ['x/api/internal/a.mdx', false],
      ['a.tmp.mdx', true],
      ['keep.tmp.mdx', false],
      ['v2/a.mdx', true],
      ['v22/a.mdx', false],
      ['#hash.mdx', true],
      ['# drafts', false],
      ['DRAFTS/a.mdx', true],
    ];
    for (const [path, ignored] of cases) assert.equal(rules.ignores(path), ignored, path);
  });

  it('never takes a file back out of an ignored folder', () => {
    const rules = ignoreRules('drafts/\n!drafts/keep.mdx\n');
    assert.equal(rules.ignores('drafts/keep.mdx'), true);
  });
});
