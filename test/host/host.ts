/**
 * Starts a real VS Code for tests: code-server's `server-main.js` (VS Code's own server) on a
 * loopback port, and Debian's Chromium showing its web workbench, driven by playwright-core.
 * The workbench starts a remote extension host (node) on the server, which loads the extension
 * under development and, when given, the test entry, exactly as the desktop test runner does.
 *
 * Everything a host starts or creates is undone by `stop()`, which is idempotent; a host that
 * fails half-way through starting is stopped before the error is thrown. Signals and process exit
 * stop live hosts too, so no server survives the test process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureCodeServer } from './codeServer';
import { delay, guard, killGroup, signalGroup } from './processGuard';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const HOST = '127.0.0.1';
const SERVER_READY_TIMEOUT_MS = 60_000;
const WORKBENCH_READY_TIMEOUT_MS = 90_000;
const POLL_INTERVAL_MS = 200;
const STOP_GRACE_MS = 5_000;
const BROWSER_CLOSE_TIMEOUT_MS = 10_000;

/**
 * Quiet defaults: nothing may open editors, ask questions or reach for the network (which these
 * machines do not have) while tests run.
 */
export const DEFAULT_USER_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
};

/** Chromium flags: as root it needs --no-sandbox; the rest keep it off the (absent) network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export type OutputSource = 'server' | 'browser';

export interface HostOptions {
  workspaceFolder: string;
  /** A `.code-workspace` file to open instead of `workspaceFolder` (a multi-root workspace). */
  workspaceFile?: string;
  /**
   * The extension under development, loaded from the checkout. Today's VS Code (1.139) ignores it:
   * there the extension is one of `installedExtensions` (the packaged `.vsix`'s folder, vsix.ts).
   */
  extensionDevelopmentPath?: string;
  /**
   * Extension folders installed (copied into the server's extensions folder) before it starts: a
   * test harness's own extension. Not development extensions: the workbench loads only one of those.
   */
  installedExtensions?: readonly string[];
  /** Absolute path of the compiled test entry (exports `run()`); omit for a live development host. */
  extensionTestsPath?: string;
  /** Added to the server's environment; the remote extension host inherits it. */
  env?: Record<string, string>;
  /** Merged over DEFAULT_USER_SETTINGS. */
  userSettings?: Record<string, unknown>;
  headless?: boolean;
  /**
   * false: start only the server, for a person who opens the URL in their own browser (npm start).
   * Default true: launch Chromium on the workbench, for tests.
   */
  browser?: boolean;
  log: (s: string) => void;
  port?: number;
  /**
   * Required in the URL when given (the server sets it as a cookie): other users and processes on
   * this machine cannot drive the workbench, which matters once it holds a real key (npm start).
   * Tests run without one.
   */
  connectionToken?: string;
  /** `server-main.js`; installed through ensureCodeServer when omitted. */
  serverMain?: string;
  /** The node that runs `serverMain` (today's code-server needs node 24); this process's node by default. */
  node?: string;
  /** Receives every line the server prints and every browser console message; defaults to `log`. */
  output?: (source: OutputSource, line: string) => void;
  /**
   * 'off' (default): workspace trust disabled, every folder trusted. 'restricted': trust enabled
   * and the folder left untrusted (a fresh browser profile has trusted nothing, and the startup
   * prompt is off), so the window runs in Restricted Mode as a just-cloned repository does.
   */
  workspaceTrust?: 'off' | 'restricted';
}

/** User settings that leave a folder in Restricted Mode without asking. */
const RESTRICTED_SETTINGS: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
};

/** A running server without a browser: `url` opens the workbench with the extension loaded. */
export interface ServerHost {
  url: string;
  port: number;
  /** The server's --user-data-dir: extensions' globalStorage lives under it (User/globalStorage). */
  userDataDir: string;
  /** False once the server process has exited (it should not before stop()). */
  serverAlive(): boolean;
  stop(): Promise<void>;
}

export interface Host extends ServerHost {
  page: Page;
  browser: Browser;
}

/**
 * Builds the workbench URL that opens `workspaceFolder` (or, given as `{ file }`, a `.code-workspace`
 * file) and loads the extension (and tests) from the server's disk.
 */
export function workbenchUrl(
  port: number,
  workspaceFolder: string | { file: string },
  extensionDevelopmentPath: string | undefined,
  extensionTestsPath?: string,
  connectionToken?: string,
): string {
  const authority = `${HOST}:${port}`;
  // The server ignores --extensionDevelopmentPath/--extensionTestsPath; the web workbench takes
  // them from `payload`, as remote URIs on the server's file system.
  const remote = (p: string): string => `vscode-remote://${authority}${encodePath(path.resolve(p))}`;
  const payload: Array<[string, string]> = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const open =
    typeof workspaceFolder === 'string'
      ? `folder=${encodeURIComponent(path.resolve(workspaceFolder))}`
      : `workspace=${encodeURIComponent(path.resolve(workspaceFolder.file))}`;
  const token = connectionToken ? `&tkn=${encodeURIComponent(connectionToken)}` : '';
  const extensions = payload.length ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : '';
  return `http://${authority}/?${open}${extensions}${token}`;
}

function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

export function startHost(opts: HostOptions & { browser: false }): Promise<ServerHost>;
export function startHost(opts: HostOptions & { browser?: true }): Promise<Host>;
export async function startHost(opts: HostOptions): Promise<ServerHost | Host> {
  const output = opts.output ?? ((source: OutputSource, line: string) => opts.log(`[${source}] ${line}`));
  const serverMain = opts.serverMain ?? (await ensureCodeServer(opts.log));
  const resources = new HostResources();
  try {
    const dirs = resources.makeDirs();
    for (const folder of opts.installedExtensions ?? []) {
      const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
      fs.cpSync(folder, path.join(dirs.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`), { recursive: true });
    }
    const restricted = opts.workspaceTrust === 'restricted';
    writeSettings(dirs.userData, { ...DEFAULT_USER_SETTINGS, ...(restricted && RESTRICTED_SETTINGS), ...opts.userSettings });

    const port = opts.port ?? (await freePort());
    const server = resources.startServer(
      opts.node ?? process.execPath,
      serverMain,
      serverArgs(port, dirs, opts.connectionToken, restricted),
      serverEnv(opts.env),
      output,
    );
    opts.log(`code-server listening on http://${HOST}:${port} (pid ${server.pid})`);
    const token = opts.connectionToken ? `?tkn=${encodeURIComponent(opts.connectionToken)}` : '';
    await waitForHttp(`http://${HOST}:${port}/${token}`, server, SERVER_READY_TIMEOUT_MS);

    const url = workbenchUrl(
      port,
      opts.workspaceFile ? { file: opts.workspaceFile } : opts.workspaceFolder,
      opts.extensionDevelopmentPath,
      opts.extensionTestsPath,
      opts.connectionToken,
    );
    const serverHost: ServerHost = { url, port, userDataDir: dirs.userData, serverAlive: () => isRunning(server), stop: () => resources.stop() };
    if (opts.browser === false) return serverHost;

    const browser = await resources.launchBrowser(opts.headless ?? true);
    // A context of its own (not browser.newPage()), so a test can open more windows in it.
    const page = await (await browser.newContext()).newPage();
    forwardConsole(page, output);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: WORKBENCH_READY_TIMEOUT_MS });
    await page.waitForSelector('.monaco-workbench', { timeout: WORKBENCH_READY_TIMEOUT_MS });
    opts.log('Workbench loaded.');

    return { ...serverHost, page, browser };
  } catch (err) {
    await resources.stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Resources of one host, released in reverse order of acquisition.

interface HostDirs {
  userData: string;
  serverData: string;
  extensions: string;
}

class HostResources {
  private root: string | undefined;
  private server: ChildProcess | undefined;
  private browser: Browser | undefined;
  private stopping: Promise<void> | undefined;
  private readonly unguard = guard(this);

  makeDirs(): HostDirs {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-host-'));
    const dirs: HostDirs = {
      userData: path.join(this.root, 'user-data'),
      serverData: path.join(this.root, 'server-data'),
      // Our own, empty: extensions installed for the person running the tests must not load.
      extensions: path.join(this.root, 'extensions'),
    };
    for (const dir of [dirs.userData, dirs.serverData, dirs.extensions]) fs.mkdirSync(dir);
    return dirs;
  }

  startServer(node: string, serverMain: string, args: string[], env: NodeJS.ProcessEnv, output: (s: OutputSource, l: string) => void): ChildProcess {
    if (this.stopping) throw new Error('The host was stopped while it was starting.');
    // detached: the server gets its own process group, so stop() can kill it together with the
    // extension host, pty host and file watcher it forks.
    const child = spawn(node, [serverMain, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.server = child;
    for (const stream of [child.stdout, child.stderr]) {
      // Blank lines: code-server's banner is mostly made of them.
      if (stream) readline.createInterface({ input: stream }).on('line', (line) => line.trim() && output('server', line));
    }
    child.on('error', (err) => output('server', `failed to start: ${String(err)}`));
    return child;
  }

  async launchBrowser(headless: boolean): Promise<Browser> {
    if (!fs.existsSync(CHROMIUM_PATH)) {
      throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y --no-install-recommends chromium`);
    }
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless,
      args: CHROMIUM_ARGS,
      // processGuard stops the server as well as the browser; Playwright's handlers would exit
      // the process after closing only the browser.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    if (this.stopping) {
      // stop() ran (a signal) while Chromium was starting: it could not close this one.
      await settleWithin(browser.close(), BROWSER_CLOSE_TIMEOUT_MS);
      throw new Error('The host was stopped while it was starting.');
    }
    this.browser = browser;
    return browser;
  }

  stop(): Promise<void> {
    this.stopping ??= this.release();
    return this.stopping;
  }

  /** Kills the server group and removes the temp dirs at once; for the synchronous 'exit' event, where nothing can be awaited. */
  killNow(): void {
    if (this.server?.pid !== undefined) signalGroup(this.server.pid, 'SIGKILL');
    if (this.root) fs.rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
  }

  private async release(): Promise<void> {
    try {
      // Bounded: a hung browser must not keep the server alive; Playwright kills it at exit anyway.
      if (this.browser) await settleWithin(this.browser.close(), BROWSER_CLOSE_TIMEOUT_MS);
      if (this.server?.pid !== undefined) await killGroup(this.server.pid, STOP_GRACE_MS);
      if (this.root) fs.rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
    } finally {
      this.unguard();
    }
  }
}

function serverArgs(port: number, dirs: HostDirs, connectionToken: string | undefined, restricted: boolean): string[] {
  return [
    '--host',
    HOST,
    '--port',
    String(port),
    ...(connectionToken ? ['--connection-token', connectionToken] : ['--without-connection-token']),
    '--accept-server-license-terms',
    ...(restricted ? [] : ['--disable-workspace-trust']),
    '--disable-telemetry',
    '--user-data-dir',
    dirs.userData,
    '--server-data-dir',
    dirs.serverData,
    '--extensions-dir',
    dirs.extensions,
  ];
}

/**
 * The server's environment: ours plus `extra`, minus VS Code's own variables, which leak in when
 * the tests are started from a VS Code terminal and would point the server at that VS Code's
 * folders and IPC sockets.
 */
function serverEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('VSCODE_') && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * code-server's web workbench reads user settings from the server's disk,
 * `<user-data-dir>/User/settings.json`, not from the browser's IndexedDB as plain VS Code for
 * the web does. The window is a remote window, though, and VS Code reads a setting of `machine`
 * scope (mintlifyAgent.apiBaseUrl is one) only from the remote settings,
 * `<user-data-dir>/Machine/settings.json`, ignoring it in the user settings once the extension's
 * contributions are known. A first page load happened to parse the user settings before it knew
 * them; a reloaded page knew them from its cache and dropped the value, so it sent to the default
 * host. Each setting is written to both files: application-scoped ones apply from the user
 * settings (they are ignored in the remote ones), machine-scoped ones from the remote settings,
 * as for a person who sets them where VS Code's Settings editor offers them.
 * Note for tests: `update(..., ConfigurationTarget.Global)` in this remote window writes to the
 * remote settings, which take precedence.
 */
function writeSettings(userDataDir: string, settings: Record<string, unknown>): void {
  for (const folder of ['User', 'Machine']) {
    const file = path.join(userDataDir, folder, 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  }
}

function forwardConsole(page: Page, output: (s: OutputSource, l: string) => void): void {
  page.on('console', (msg) => output('browser', `[${msg.type()}] ${msg.text()}`));
  page.on('pageerror', (err) => output('browser', `[pageerror] ${err.message}`));
  page.on('crash', () => output('browser', '[crash] the page crashed'));
}

// ---------------------------------------------------------------------------------------------
// Ports and readiness

/** Asks the OS for a free loopback port. Another process could take it before the server binds; unlikely on a test machine. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('Could not read the probe port.'))));
    });
  });
}

/** Waits until the server answers HTTP at all, failing early when it exits. */
async function waitForHttp(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(server)) throw new Error(`code-server exited (code ${server.exitCode}, signal ${server.signalCode}) before answering ${url}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000), redirect: 'manual' });
      return;
    } catch {
      await delay(POLL_INTERVAL_MS); // not listening yet
    }
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs / 1000}s`);
}

// ---------------------------------------------------------------------------------------------
// Processes

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Waits for `promise` to settle, at most `ms`; never rejects. */
function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]).finally(() => clearTimeout(timer));
}
