// Builds the extension (node, CommonJS, `vscode` external) and the webview (browser) bundles.
//   node esbuild.mjs               development build: sourcemaps, no minification
//   node esbuild.mjs --production  release build: minified, no sourcemaps (used by `vsce package` and
//                                  `npm test`), held to its bloat guard (bundleGuard below): over it, exits 1
//   node esbuild.mjs --watch       rebuild on change; prints problem-matcher markers for VS Code
//   node esbuild.mjs --tests       development build plus every test bundle under out/test (Mintlify's
//                                  packages, the conformance tier's judge, left outside them), and the
//                                  extension the host tests load (out/test/extension: the manifest's
//                                  files copied, dist/ built from test/support/extensionUnderTest.ts)
//   node esbuild.mjs --production --metafile=meta.json
//                                  also writes esbuild's account of what went into dist/extension.js (read by the bench)
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
const metafile = process.argv.find((a) => a.startsWith('--metafile='))?.slice('--metafile='.length);

/** Prints the markers that the `$esbuild-watch` problem matcher in .vscode/tasks.json looks for. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: watch ? [problemMatcher] : [],
};

/** The extension host's bundle and the webview's, from `entry`, into `dist` (the manifest's main and the panel's script). */
const extensionTargets = (entry, dist) => [
  {
    ...common,
    entryPoints: [entry],
    outfile: `${dist}/extension.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // Node reads the bundle as UTF-8: the text's typographic quotes and ellipses stay one character
    // each, not a six-byte \u escape.
    charset: 'utf8',
    metafile: production || Boolean(metafile),
  },
  {
    ...common,
    entryPoints: ['src/webview/analytics.ts'],
    outfile: `${dist}/webview.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

const targets = extensionTargets('src/extension.ts', 'dist');

/** Every test module is its own bundle. The test tools stay external; the code under test is bundled as it ships. */
function testEntries(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testEntries(path);
    return /\.test\.ts$/.test(name) ? [path] : [];
  });
}

if (tests) {
  // A test moved or deleted in test/ must not run on from an old bundle: out/test is built afresh.
  rmSync('out/test', { recursive: true, force: true });
  // The extension under test: what ships, except that activate() returns its parts to the tests.
  mkdirSync('out/test/extension', { recursive: true });
  for (const file of ['package.json', 'package.nls.json', 'l10n', 'media']) cpSync(file, `out/test/extension/${file}`, { recursive: true });
  targets.push(...extensionTargets('test/support/extensionUnderTest.ts', 'out/test/extension/dist'));
  targets.push({
    ...common,
    entryPoints: [
      'test/run.ts',
      'test/desktop.ts',
      'test/integration/index.ts',
      'test/restricted/index.ts',
      'test/contract/index.ts',
      'test/simulator/cli.ts',
      'test/demo.ts',
      'test/support/concurrentWriter.ts',
      ...testEntries('test/unit'),
      ...testEntries('test/faults'),
      ...testEntries('test/integration'),
      ...testEntries('test/restricted'),
      ...testEntries('test/contract'),
      ...testEntries('test/ui'),
      ...testEntries('test/today'),
      ...testEntries('test/conformance'),
    ],
    outdir: 'out/test',
    outbase: 'test',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Mintlify's packages, the conformance tier's judge, are ES modules loaded from node_modules with import().
    external: ['vscode', 'mocha', 'playwright-core', '@vscode/test-electron', '@vscode/l10n-dev', '@mintlify/common', '@mintlify/prebuild', 'ovsx', 'ovsx/*'],
  });
}

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const [extension] = await Promise.all(targets.map((t) => esbuild.build(t)));
  if (metafile) writeFileSync(metafile, JSON.stringify(extension.metafile));
  if (production) bundleGuard(extension.metafile);
}

/**
 * The release bundle's bloat guard, run by every release build (`npm test`'s pretest, `vsce package`).
 * Raising the budget is a decision taken in a diff, with BENCHMARKS.md's bundle rows beside it:
 * - dist/extension.js stays within BUNDLE_BUDGET_KB. It is one CommonJS file on purpose (BENCHMARKS.md §1:
 *   split into chunks loaded on first use, the extension loaded slower, not faster);
 * - every library in it is one of package.json's dependencies or theirs: a devDependency imported by
 *   src/ by mistake (the test tools, TypeScript, Prism) fails here rather than ships.
 */
function bundleGuard(meta) {
  const BUNDLE_BUDGET_KB = 428;
  const root = dirname(fileURLToPath(import.meta.url));
  const manifest = (name) => {
    const file = join(root, 'node_modules', name, 'package.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  };
  // package.json's dependencies, and theirs, all the way down.
  const allowed = new Set();
  const walk = (deps) => {
    for (const name of Object.keys(deps ?? {})) if (!allowed.has(name) && allowed.add(name)) walk(manifest(name).dependencies);
  };
  walk(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies);
  const [output, { bytes, inputs }] = Object.entries(meta.outputs).find(([, o]) => o.entryPoint);
  const weight = new Map();
  const libraries = new Set();
  for (const [path, input] of Object.entries(inputs)) {
    // A library by its package name (the innermost node_modules/); the rest is our code, by its folder of
    // src/ (esbuild names inputs from the working directory: the bench builds from out/bench/extension).
    const library = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (library) libraries.add(library);
    const where = library ?? path.replace(/^(?:.*\/)?(src\/(?:[^/]+\/)?).*/, '$1');
    weight.set(where, (weight.get(where) ?? 0) + input.bytesInOutput);
  }
  const problems = [];
  if (bytes > BUNDLE_BUDGET_KB * 1024) problems.push(`${output} is ${(bytes / 1024).toFixed(1)} KB, over its budget of ${BUNDLE_BUDGET_KB} KB.`);
  const foreign = [...libraries].filter((name) => !allowed.has(name));
  if (foreign.length) problems.push(`${output} bundles ${foreign.join(', ')}, not among package.json's dependencies (or theirs).`);
  if (!problems.length) return;
  const heaviest = [...weight].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.error(
    ['✘ [bundle guard] ' + problems.join(' '), 'What weighs most:', ...heaviest.map(([where, b]) => `  ${where} ${(b / 1024).toFixed(1)} KB`)].join('\n'),
  );
  process.exit(1);
}
