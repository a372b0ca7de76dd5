/**
 * Installs code-server (VS Code's server and web workbench, published on the npm registry) into
 * a cache folder, so that integration tests can run inside a real VS Code on machines that reach
 * only the npm registry and Debian's packages. `@vscode/test-electron` cannot run there: it
 * downloads VS Code from Microsoft's update server.
 *
 * Two releases: the engine floor (VS Code 1.100, which runs on the node running the tests) and
 * today's VS Code (1.139), which needs node 24: that node comes from the npm registry too (the
 * `node-linux-<arch>` package) and is installed beside it. Each lives in
 * `<repo>/.vscode-test/<name>-<version>/` (git-ignored). A stamp file is written only after a
 * complete, checked install, so a warm run costs two `stat`s and an interrupted install is redone
 * from scratch.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { delay, guard, killGroup, signalGroup } from './processGuard';

/** A release of code-server the tests run in: its version, the VS Code it is, and the node it needs. */
export interface CodeServerRelease {
  codeServer: string;
  vscode: string;
  /** The version of the npm package `node-linux-<arch>` it runs on; undefined: the node running the tests. */
  node?: string;
}

/** The engine floor: the newest code-server whose engines accept node 20 (4.103+ need node 22). */
export const FLOOR_RELEASE: CodeServerRelease = { codeServer: '4.100.3', vscode: '1.100.3' };
/** Today's VS Code (code-server 4.139 declares node 24). */
export const TODAY_RELEASE: CodeServerRelease = { codeServer: '4.139.1', vscode: '1.139.1', node: '24.21.0' };

/** The floor's code-server version (the tiers that load the checkout as a development extension run there). */
export const CODE_SERVER_VERSION = FLOOR_RELEASE.codeServer;

/** An installed release: the server's entry and the node that runs it. */
export interface InstalledCodeServer {
  release: CodeServerRelease;
  serverMain: string;
  node: string;
}

/** Debian packages the install and the tests need, with a binary that proves each is present. */
const SYSTEM_PACKAGES: ReadonlyArray<{ name: string; binary?: string }> = [
  { name: 'libkrb5-dev' }, // code-server's `kerberos` native module does not build without it
  { name: 'ripgrep', binary: 'rg' }, // stands in for the ripgrep that @vscode/ripgrep downloads
  { name: 'chromium', binary: 'chromium' }, // the browser that runs the web workbench
  { name: 'unzip', binary: 'unzip' }, // opens the packaged .vsix (vsix.ts)
];

/** The range of @vscode/ripgrep that VS Code 1.100 and 1.139 depend on. */
const RIPGREP_PACKAGE_RANGE = '@vscode/ripgrep@^1.15.11';
/** The ripgrep build @vscode/ripgrep's postinstall looks for in its cache before downloading. */
const RIPGREP_BUILD = 'v13.0.0-10';

const STAMP_FILE = '.installed.json';
const INSTALL_LOG = 'install.log';
const LOG_TAIL_LINES = 60;
/** An install takes one to three minutes; a waiting run gives up well after that. */
const LOCK_WAIT_MS = 10 * 60_000;
/** How long a lock without a pid counts as being taken rather than abandoned. */
const LOCK_STARTING_MS = 5_000;

export interface CodeServerOptions {
  /** Root of the repository; the cache goes under its `.vscode-test/`. Found from this file when omitted. */
  repoRoot?: string;
}

/**
 * Makes sure the floor's code-server is installed and returns the absolute path of its `server-main.js`
 * (run with this process's node). Throws with an actionable message when something is missing that
 * this process cannot install.
 */
export async function ensureCodeServer(log: (s: string) => void, opts: CodeServerOptions = {}): Promise<string> {
  return (await ensureRelease(FLOOR_RELEASE, log, opts)).serverMain;
}

/** Makes sure `release` (and the node it needs) is installed; returns its server entry and that node. */
export async function ensureRelease(release: CodeServerRelease, log: (s: string) => void, opts: CodeServerOptions = {}): Promise<InstalledCodeServer> {
  const cache = path.join(opts.repoRoot ?? findRepoRoot(__dirname), '.vscode-test');
  await ensureSystemPackages(log);
  const node = release.node ? await ensureNode(cache, release.node, log) : process.execPath;
  const nodeAbi = release.node ? (await runChecked(node, ['-p', 'process.versions.modules'], process.env)).trim() : process.versions.modules;
  const cacheDir = path.join(cache, `code-server-${release.codeServer}`);
  const serverMain = path.join(cacheDir, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
  await ensureInstalled({
    cacheDir,
    checkFile: serverMain,
    // The stamp names everything that makes an install unusable when it changes (native modules follow node's ABI).
    stamp: JSON.stringify({ codeServer: release.codeServer, nodeAbi, arch: process.arch }),
    what: `code-server ${release.codeServer} (VS Code ${release.vscode})`,
    log,
    install: async () => {
      await seedRipgrepCache(os.tmpdir(), log);
      await npmInstall(cacheDir, `code-server@${release.codeServer}`, codeServerEnv(node), node);
    },
  });
  return { release, serverMain, node };
}

/** node `version` from the npm registry (`node-linux-<arch>`), cached; returns the binary's path. */
async function ensureNode(cache: string, version: string, log: (s: string) => void): Promise<string> {
  const name = `node-${process.platform}-${process.arch}`;
  const cacheDir = path.join(cache, `node-${version}`);
  const binary = path.join(cacheDir, 'node_modules', name, 'bin', 'node');
  await ensureInstalled({
    cacheDir,
    checkFile: binary,
    stamp: JSON.stringify({ package: name, version }),
    what: `node ${version}`,
    log,
    install: () => npmInstall(cacheDir, `${name}@${version}`, process.env),
  });
  return binary;
}

/** The install's environment: `node` first on PATH (postinstall scripts and native builds use it), and the flags code-server's postinstall needs. */
function codeServerEnv(node: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
    TMPDIR: os.tmpdir(), // the folder seeded above: @vscode/ripgrep finds its cache through os.tmpdir()
    npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root otherwise
    npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`, which would wait for a 'yes'
  };
  if (node === process.execPath) {
    const nodeMajor = process.versions.node.split('.')[0] ?? '';
    // code-server 4.100's postinstall insists on node 20; on another node, let it try, the tests will tell.
    if (nodeMajor !== '20') env.FORCE_NODE_VERSION = nodeMajor;
  } else {
    // Under `npm test` the outer npm hands its own node (node 20) to every child through npm_*
    // variables (code-server's postinstall reads the node version from npm_config_user_agent, which
    // the inner npm takes as its own config): the inner install starts from none of them.
    for (const name of Object.keys(env)) if (/^npm_/i.test(name) || name === 'NODE') delete env[name];
    env.npm_config_unsafe_perm = 'true';
    env.npm_config_yes = 'true';
    // Native modules are built against that node's own headers (the package ships them in include/):
    // node-gyp would otherwise download them from nodejs.org, or take a `nodedir` the machine's npm
    // config names for its own node.
    env.npm_config_nodedir = path.dirname(path.dirname(node));
  }
  return env;
}

interface Installable {
  cacheDir: string;
  /** A file the install makes: present together with the stamp, the install is complete. */
  checkFile: string;
  stamp: string;
  what: string;
  log: (s: string) => void;
  install: () => Promise<void>;
}

/** Installs into `cacheDir` unless a complete install with the same stamp is there; one process at a time. */
async function ensureInstalled(item: Installable): Promise<void> {
  const isInstalled = (): boolean => readStamp(item.cacheDir) === item.stamp && fs.existsSync(item.checkFile);
  if (isInstalled()) return;
  // Two test runs at once must not install into the same folder.
  const unlock = await lockInstall(`${item.cacheDir}.lock`, item.what, item.log);
  try {
    if (!isInstalled()) await install(item); // the other run may have done it
  } finally {
    unlock();
  }
}

async function install(item: Installable): Promise<void> {
  const started = Date.now();
  item.log(`Installing ${item.what} into ${item.cacheDir} (one to three minutes, once)...`);
  // Whatever is there came from an install that did not finish: npm does not reliably repair
  // a tree whose postinstall scripts failed half-way, so start clean.
  fs.rmSync(item.cacheDir, { recursive: true, force: true });
  fs.mkdirSync(item.cacheDir, { recursive: true });
  await item.install();
  if (!fs.existsSync(item.checkFile)) {
    throw new Error(`npm install finished but ${item.checkFile} is missing; see ${path.join(item.cacheDir, INSTALL_LOG)}`);
  }
  fs.writeFileSync(path.join(item.cacheDir, STAMP_FILE), item.stamp);
  item.log(`${item.what} installed in ${((Date.now() - started) / 1000).toFixed(1)}s.`);
}

function readStamp(cacheDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(cacheDir, STAMP_FILE), 'utf8');
  } catch {
    return undefined;
  }
}

/** Walks up from `start` to the first folder holding a package.json (the bundle sits in `<repo>/out/...`). */
export function findRepoRoot(start: string): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${start}; pass repoRoot.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Install lock: a folder created atomically, holding the owner's pid. A lock whose owner is gone
// (killed mid-install) is stale and taken over.

async function lockInstall(lockDir: string, what: string, log: (s: string) => void): Promise<() => void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    if (tryLock(lockDir)) return () => fs.rmSync(lockDir, { recursive: true, force: true });
    const holder = lockHolder(lockDir);
    if (holder === undefined) {
      fs.rmSync(lockDir, { recursive: true, force: true }); // stale: its holder died
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Another install of ${what} (pid ${holder}) still holds ${lockDir}.`);
    if (!told) log(`Waiting for another install of ${what} (pid ${holder}) to finish...`);
    told = true;
    await delay(1_000);
  }
}

function tryLock(lockDir: string): boolean {
  try {
    fs.mkdirSync(path.dirname(lockDir), { recursive: true });
    fs.mkdirSync(lockDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
  return true;
}

/** Who holds the lock: its pid, 'starting' while the holder has yet to write it, undefined when the lock is stale. */
function lockHolder(lockDir: string): number | 'starting' | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(lockDir, 'pid'), 'utf8');
  } catch {
    const mtime = fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs;
    return mtime !== undefined && Date.now() - mtime < LOCK_STARTING_MS ? 'starting' : undefined;
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------------------
// System packages

async function ensureSystemPackages(log: (s: string) => void): Promise<void> {
  const missing: string[] = [];
  for (const pkg of SYSTEM_PACKAGES) {
    if (!(await isPackagePresent(pkg.name, pkg.binary))) missing.push(pkg.name);
  }
  if (missing.length === 0) return;

  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing system packages: ${missing.join(', ')}. Install them first:\n  sudo sh -c '${command}'`);
  }
  log(`Installing system packages: ${missing.join(', ')}`);
  // Wait for a dpkg lock held by another apt run instead of failing at once.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await runChecked('apt-get', [...lockWait, 'update'], aptEnv);
  await runChecked('apt-get', [...lockWait, 'install', '-y', '--no-install-recommends', ...missing], aptEnv);
}

async function isPackagePresent(name: string, binary?: string): Promise<boolean> {
  const status = await run('dpkg-query', ['-W', '-f=${Status}', name], process.env);
  if (status.code !== 0 || !status.output.includes('install ok installed')) return false;
  if (!binary) return true;
  return (await run('sh', ['-c', `command -v ${binary}`], process.env)).code === 0;
}

// ---------------------------------------------------------------------------------------------
// @vscode/ripgrep: its postinstall downloads a binary from GitHub, which these machines cannot
// reach. It first looks in `$TMPDIR/vscode-ripgrep-cache-<its version>/` for the archive, so we
// put Debian's rg there, under every version npm might pick.

async function seedRipgrepCache(tmpDir: string, log: (s: string) => void): Promise<void> {
  const rg = (await runChecked('sh', ['-c', 'command -v rg'], process.env)).trim();
  const versions = await ripgrepPackageVersions();
  const archiveName = `ripgrep-${RIPGREP_BUILD}-${ripgrepTarget()}.tar.gz`;
  const staging = fs.mkdtempSync(path.join(tmpDir, 'rg-staging-'));
  try {
    fs.copyFileSync(rg, path.join(staging, 'rg'));
    fs.chmodSync(path.join(staging, 'rg'), 0o755);
    for (const version of versions) {
      const dir = path.join(tmpDir, `vscode-ripgrep-cache-${version}`);
      fs.mkdirSync(dir, { recursive: true });
      await runChecked('tar', ['-czf', path.join(dir, archiveName), '-C', staging, 'rg'], process.env);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  log(`Seeded the @vscode/ripgrep cache for ${versions.join(', ')} with ${rg}.`);
}

async function ripgrepPackageVersions(): Promise<string[]> {
  const out = await runChecked('npm', ['view', RIPGREP_PACKAGE_RANGE, 'version', '--json'], process.env);
  // One match prints a JSON string, several print an array.
  const parsed: unknown = JSON.parse(out);
  const versions = Array.isArray(parsed) ? parsed : [parsed];
  if (versions.length === 0 || !versions.every((v): v is string => typeof v === 'string')) {
    throw new Error(`Unexpected answer from npm view ${RIPGREP_PACKAGE_RANGE}: ${out}`);
  }
  return versions;
}

function ripgrepTarget(): string {
  switch (process.arch) {
    case 'x64':
      return 'x86_64-unknown-linux-musl';
    case 'arm64':
      return 'aarch64-unknown-linux-musl';
    default:
      throw new Error(`No ripgrep build is known for ${process.arch}.`);
  }
}

// ---------------------------------------------------------------------------------------------
// npm install

/**
 * `npm install spec` in `cacheDir`, run by `node` (this process's by default): npm gives its
 * lifecycle scripts the node that runs it, so code-server's postinstall sees the node it checks for.
 */
async function npmInstall(cacheDir: string, spec: string, env: NodeJS.ProcessEnv, node = process.execPath): Promise<void> {
  fs.writeFileSync(
    path.join(cacheDir, 'package.json'),
    JSON.stringify({ name: 'vscode-test-cache', private: true, description: 'Cache for the tests that run in a real VS Code' }, null, 2),
  );
  const logFile = path.join(cacheDir, INSTALL_LOG);
  const args = ['install', spec, '--no-audit', '--no-fund'];
  const code =
    node === process.execPath ? await runToFile('npm', args, env, cacheDir, logFile) : await runToFile(node, [npmCli(), ...args], env, cacheDir, logFile);
  if (code !== 0) {
    throw new Error(`npm ${args.join(' ')} failed (exit ${code}). Last lines of ${logFile}:\n${tailOfFile(logFile, LOG_TAIL_LINES)}`);
  }
}

/** npm's own entry, beside the node that runs this process (as `npm test` names it, or where node installs it). */
function npmCli(): string {
  const named = process.env.npm_execpath;
  if (named && /npm-cli\.js$/.test(named) && fs.existsSync(named)) return named;
  return path.join(path.dirname(fs.realpathSync(process.execPath)), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
}

export function tailOfFile(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch (err) {
    return `(could not read ${file}: ${String(err)})`;
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes

interface RunResult {
  code: number;
  output: string;
}

/** Runs a command, collecting stdout and stderr together. Never rejects for a non-zero exit. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (err) => resolve({ code: -1, output: String(err) }));
    child.on('close', (code) => resolve({ code: code ?? -1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** Runs a command and returns its stdout; throws with its output when it fails. */
function runChecked(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${stderr || stdout}`));
    });
  });
}

/**
 * Runs a command with its stdout and stderr going straight to a file, and returns its exit code.
 * It runs in its own process group, guarded: if we are stopped, so is it with everything it
 * started (npm runs node-gyp and compilers), instead of writing on into a cache we no longer own.
 */
function runToFile(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string): Promise<number> {
  const fd = fs.openSync(logFile, 'w');
  let unguard = (): void => undefined;
  return new Promise<number>((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', fd, fd], detached: true });
    const pid = child.pid;
    if (pid !== undefined) {
      unguard = guard({ stop: () => killGroup(pid, 5_000), killNow: () => void signalGroup(pid, 'SIGKILL') });
    }
    child.on('error', (err) => {
      fs.appendFileSync(logFile, `\n${String(err)}\n`);
      resolve(-1);
    });
    child.on('close', (code) => resolve(code ?? -1));
  }).finally(() => {
    unguard();
    fs.closeSync(fd);
  });
}
