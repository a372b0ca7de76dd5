/**
 * The extension as a user installs it: `npm run package` makes the `.vsix` (vsce, which runs the
 * release build first), and its `extension/` folder is what VS Code copies into its extensions
 * folder when it installs one. Today's VS Code (code-server 1.139) ignores a development extension
 * given in the workbench's URL, so the tiers that run there install this folder before the server
 * starts (host.ts `installedExtensions`), exactly as VS Code would.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface PackagedExtension {
  /** The `.vsix` file. */
  vsix: string;
  /** Its `extension/` folder, unzipped: what VS Code installs. */
  folder: string;
  /** `<publisher>.<name>-<version>`: the folder name VS Code gives it among installed extensions. */
  installName: string;
  /** Removes the unzipped copy (the `.vsix` stays under out/). */
  dispose(): void;
}

/** Packages the checkout with `npm run package` into `<repo>/out/vsix/` and unzips it into a temporary folder. */
export async function packageExtension(repoRoot: string, log: (line: string) => void): Promise<PackagedExtension> {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const vsix = path.join(repoRoot, 'out', 'vsix', `${manifest.name}-${manifest.version}.vsix`);
  fs.mkdirSync(path.dirname(vsix), { recursive: true });
  fs.rmSync(vsix, { force: true });
  const started = Date.now();
  await run('npm', ['run', 'package', '--', '--out', vsix], repoRoot);
  log(`Packaged ${path.relative(repoRoot, vsix)} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  const unzipped = fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-vsix-'));
  await run('unzip', ['-q', vsix, 'extension/*', '-d', unzipped], repoRoot);
  const folder = path.join(unzipped, 'extension');
  if (!fs.existsSync(path.join(folder, 'package.json'))) throw new Error(`${vsix} holds no extension/package.json`);
  return {
    vsix,
    folder,
    installName: `${manifest.publisher}.${manifest.name}-${manifest.version}`,
    dispose: () => fs.rmSync(unzipped, { recursive: true, force: true }),
  };
}

/** Runs a command to its end; throws with its output when it fails. */
function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4_000)}`))));
  });
}
