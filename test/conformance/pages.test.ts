// Which files of a docs tree are pages, and at which site path: ours (src/docs/sitePaths.ts with
// src/docs/ignoreRules.ts) against Mintlify's prebuild, which walks the same tree on disk
// (`categorizeFilePaths`, with the root's .mintignore as `getMintIgnore` reads it) and names each
// page as its `createPage` does (`pagePathToSlug`), compared with its own equality of page paths
// (`isEqualIgnoringLeadingSlash`: `/guides` is `/guides/index`). Trees are generated.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ignoreRules } from '../../src/docs/ignoreRules';
import { docCandidates, normalizeSitePath, sitePathOf } from '../../src/docs/sitePaths';
import { judge, SEED, Tally, withTree, type Judge } from './judge';

const FOLDERS = [
  'guides',
  'api',
  'snippets',
  '_snippets',
  'Snippets',
  'node_modules',
  '.github',
  '.vscode',
  '.mintlify',
  'skills',
  '.hidden',
  '_private',
  'v2',
  'index',
];
const NAMES = [
  'index',
  'intro',
  'README',
  'readme',
  'LICENSE',
  'CHANGELOG',
  'changelog',
  'CONTRIBUTING',
  'contribute',
  '_partial',
  '.dot',
  'skill',
  'Setup',
  'a b',
];
const EXTENSIONS = ['.mdx', '.md', '.MDX', '.Md', '.txt', '.mdx.bak'];
/** .mintignore lines: folders, files and globs, anchored or not, negated or not, and comments. */
const IGNORE_LINE = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('', '/', '**/', '!', '!/'),
      fc.constantFrom(...FOLDERS, ...NAMES, '*', '_*', 'in?ro', '[ab]*', 'v[0-9]'),
      fc.constantFrom('', '/', '/**', '.md', '.mdx', '*.mdx', '/*.md'),
    )
    .map((p) => p.join('')),
  fc.constantFrom('# a comment', '', '\\#x.mdx', 'guides/**/index.mdx', '!guides/keep.mdx', '*.md', '!README.md', 'SKILL.md'),
);

const file = fc
  .tuple(fc.array(fc.constantFrom(...FOLDERS), { maxLength: 3 }), fc.constantFrom(...NAMES), fc.constantFrom(...EXTENSIONS))
  .map(([folders, name, ext]) => [...folders, `${name}${ext}`].join('/'));
const tree = fc.record({ files: fc.uniqueArray(file, { minLength: 1, maxLength: 14 }), mintignore: fc.array(IGNORE_LINE, { maxLength: 4 }) });

/** Mintlify's pages of a tree: each page file (POSIX, relative to the root) and the path it names it by. */
async function judgedPages(j: Judge, root: string): Promise<Map<string, string>> {
  const mintIgnore = await j.prebuild.getMintIgnore(root);
  const { contentFilenames } = await j.prebuild.categorizeFilePaths(root, mintIgnore);
  return new Map(contentFilenames.map((f) => [f.replace(/^\//, ''), `/${j.common.pagePathToSlug(f.replace(/^\//, ''))}`]));
}

describe('conformance: the pages of a docs tree', function () {
  let j: Judge;
  before(async function () {
    this.timeout(120_000);
    j = await judge();
  });

  it('every file of generated trees is a page, or not, with the same site path as Mintlify says', async function () {
    this.timeout(300_000);
    const tally = new Tally<{ file: string; mintignore: string[] }>();
    for (const { files, mintignore } of fc.sample(tree, { seed: SEED, numRuns: 150 })) {
      // A name that is both a file and a folder cannot be written: keep the first.
      const kept = files.filter((f) => !files.some((g) => g !== f && g.startsWith(`${f}/`)));
      const text = new Map(kept.map((f) => [f, '# A page\n']));
      if (mintignore.length) text.set('.mintignore', `${mintignore.join('\n')}\n`);
      const judged = await withTree(text, (root) => judgedPages(j, root));
      const rules = ignoreRules(mintignore.join('\n'));
      for (const f of kept) {
        const ours = sitePathOf(f, rules);
        const theirs = judged.get(f);
        tally.check({ file: f, mintignore }, ours ?? null, theirs ?? null, (a, b) =>
          a === null || b === null ? a === b : j.common.isEqualIgnoringLeadingSlash(a as string, b as string),
        );
      }
    }
    tally.report('files of generated trees');
  });

  it('takes two paths for one page, with or without the base path, when Mintlify does', () => {
    // Not generated: `index/index`, the index page of a folder named index, which Mintlify's
    // comparison takes for the home page one level down only (`/index/index` is `/`, `/index/index/index` is not).
    const path = fc
      .tuple(
        fc.constantFrom('', '/'),
        fc.array(fc.constantFrom('guides', 'index', 'Index', 'docs', 'a b', 'indexes'), { maxLength: 3 }),
        fc.constantFrom('', '/'),
      )
      .filter(([, segments]) => !segments.join('/').includes('index/index'))
      .map(([lead, segments, trail]) => `${lead}${segments.join('/')}${trail}`);
    const tally = new Tally<{ a: string; b: string; base: string }>();
    for (const { a, b, base } of fc.sample(fc.record({ a: path, b: path, base: fc.constantFrom('', '/docs', '/docs/guides') }), {
      seed: SEED,
      numRuns: 2_000,
    })) {
      const [strippedA, strippedB] = [a, b].map((p) => j.common.stripLeadingBasePath(p.startsWith('/') ? p : `/${p}`, base));
      const judged = j.common.isEqualIgnoringLeadingSlash(strippedA ?? '', strippedB ?? '');
      tally.check({ a, b, base }, normalizeSitePath(a, base) === normalizeSitePath(b, base), judged);
    }
    tally.report('pairs of site paths');
  });

  it('the site path of every page leads back to its file', () => {
    for (const f of fc.sample(file, { seed: SEED, numRuns: 500 })) {
      const path = sitePathOf(f);
      if (path === undefined) continue;
      assert.ok(docCandidates(path)?.includes(f), `${f} → ${path} → ${JSON.stringify(docCandidates(path))}`);
    }
  });
});
