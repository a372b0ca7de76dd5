// Builds everything `npm run bench` runs, under out/bench/ (git-ignored), leaving dist/ alone so a
// bench run never swaps the bundles under a test run or a debug session:
//   out/bench/extension/   the extension as released: package.json, package.nls.json, l10n/, media/, and dist/ written by
//                          the project's own `node esbuild.mjs --production`, run from this folder
//                          and extension-meta.json, esbuild's account of what went into dist/extension.js;
//                          the manifest's main is dist/extensionUnderTest.js: the same release code, minified the
//                          same way, from test/support/extensionUnderTest.ts (its activate() returns the parts the
//                          bench reads, which dist/extension.js never does)
//   out/bench/run.js       the bench (plain node)
//   out/bench/hostEntry.js the part that runs inside VS Code's extension host (extensionTestsPath)
//   out/bench/team.js      figure 16's own process (bench/teamDay.ts), run by run.js: the extension's modules in plain
//                          node, with `vscode` bundled from bench/teamVscode.ts
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'out', 'bench');
const extension = join(out, 'extension');

// esbuild.mjs names its entry points and outputs relative to the working directory: run from a
// folder whose `src` is the real one, it writes the release bundles into that folder's dist/.
rmSync(extension, { recursive: true, force: true });
mkdirSync(extension, { recursive: true });
symlinkSync(join(root, 'src'), join(extension, 'src'), 'dir');
cpSync(join(root, 'package.json'), join(extension, 'package.json'));
// The manifest's strings and the run-time bundle, or titles would read as %keys%.
cpSync(join(root, 'package.nls.json'), join(extension, 'package.nls.json'));
cpSync(join(root, 'l10n'), join(extension, 'l10n'), { recursive: true });
cpSync(join(root, 'media'), join(extension, 'media'), { recursive: true });
const release = spawnSync(process.execPath, [join(root, 'esbuild.mjs'), '--production', '--metafile=extension-meta.json'], {
  cwd: extension,
  stdio: 'inherit',
});
if (release.status !== 0) process.exit(release.status ?? 1);
await esbuild.build({
  entryPoints: [join(root, 'test', 'support', 'extensionUnderTest.ts')],
  outfile: join(extension, 'dist', 'extensionUnderTest.js'),
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  charset: 'utf8',
  logLevel: 'warning',
});
const manifest = JSON.parse(readFileSync(join(extension, 'package.json'), 'utf8'));
writeFileSync(join(extension, 'package.json'), JSON.stringify({ ...manifest, main: './dist/extensionUnderTest.js' }, null, 2));

/** How every bench process is built: node, CommonJS, with sourcemaps. */
const nodeProcess = {
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
};

await esbuild.build({
  ...nodeProcess,
  entryPoints: { run: join(root, 'bench', 'run.ts'), hostEntry: join(root, 'bench', 'host', 'entry.ts') },
  external: ['vscode', 'playwright-core'],
});

await esbuild.build({
  ...nodeProcess,
  entryPoints: { team: join(root, 'bench', 'teamDay.ts') },
  alias: { vscode: join(root, 'bench', 'teamVscode.ts') },
});
