// The release build's bloat guard (esbuild.mjs bundleGuard): a release build fails, naming why,
// when dist/extension.js passes its budget or bundles a library that is not a dependency. Each case
// is a real `node esbuild.mjs --production` from a scratch folder inside the repository (so
// node_modules resolves as it does for src/), with an extension made for the case.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');

/** A release build of an extension whose src/extension.ts is `source`; its exit status and what it printed. */
function releaseBuild(source: string): { status: number | null; stderr: string } {
  mkdirSync(join(repoRoot, 'out'), { recursive: true });
  const folder = mkdtempSync(join(repoRoot, 'out', 'bundle-guard-'));
  try {
    mkdirSync(join(folder, 'src', 'webview'), { recursive: true });
    writeFileSync(join(folder, 'src', 'extension.ts'), source);
    writeFileSync(join(folder, 'src', 'webview', 'analytics.ts'), 'export {};\n');
    const run = spawnSync(process.execPath, [join(repoRoot, 'esbuild.mjs'), '--production'], { cwd: folder, encoding: 'utf8' });
    return { status: run.status, stderr: run.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the release build’s bloat guard (esbuild.mjs)', function () {
  this.timeout(60_000);

  it('lets through an extension that bundles only dependencies', () => {
    const build = releaseBuild("import ky from 'ky';\nexport const client = ky.create({});\n");
    assert.equal(build.status, 0, build.stderr);
  });

  it('fails on a library that is not a dependency, naming it', () => {
    const build = releaseBuild("import fc from 'fast-check';\nexport const property = fc.integer();\n");
    assert.equal(build.status, 1);
    assert.match(build.stderr, /bundles fast-check, pure-rand, not among package\.json's dependencies/);
  });

  it('fails past the budget, saying the size and what weighs most', () => {
    const build = releaseBuild(`export const text = '${'x'.repeat(440 * 1024)}';\n`);
    assert.equal(build.status, 1);
    assert.match(build.stderr, /dist\/extension\.js is 440\.\d KB, over its budget of 428 KB\.\nWhat weighs most:\n {2}src\/ 440\.\d KB/);
  });
});
