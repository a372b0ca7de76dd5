/**
 * Runs the integration tests inside a real VS Code (code-server + Chromium, see host.ts) and
 * returns their results.
 *
 * The extension host's stdout never reaches this process, so the test entry
 * (test/integration/index.ts) writes its results as JSON to the file named by
 * MINTLIFY_TEST_RESULTS, which the server passes on to the extension host through its
 * environment. Everything the server prints and the browser logs goes to
 * `<repo>/artifacts/host/host.log`; its tail is part of every error.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCodeServer } from './codeServer';
import { startHost, type Host, type OutputSource } from './host';
import { delay } from './processGuard';
import { BRIDGE_ENV, startWebviewBridge, type WebviewBridge } from './webviewBridge';

export const RESULTS_ENV = 'MINTLIFY_TEST_RESULTS';

/** The bound on a whole run once the workbench is up; and on a stretch without a test starting (a hang). */
const DEFAULT_TIMEOUT_MS = 45 * 60_000;
const SILENCE_MS = 5 * 60_000;
const POLL_INTERVAL_MS = 250;
const TAIL_LINES = 80;

export interface HostTestResults {
  passed: number;
  failed: number;
  report: string;
}

export interface RunHostTestsOptions {
  repoRoot: string;
  workspaceFolder: string;
  /** Absolute path of the compiled test entry, out/test/integration/index.js. */
  testsEntry: string;
  /** Bound on the wait for results once the workbench is up (45 minutes by default); a run where no test starts for 5 minutes ends sooner. */
  timeoutMs?: number;
  log: (s: string) => void;
  extraEnv?: Record<string, string>;
  /**
   * User settings for the run, merged over host.ts's quiet defaults; machine-scoped ones (such as
   * mintlifyAgent.apiBaseUrl) apply too.
   */
  userSettings?: Record<string, unknown>;
  /** The extension to load; by default out/test/extension (the one whose activate() returns its parts, built by `node esbuild.mjs --tests`). */
  extensionDevelopmentPath?: string;
  /** 'restricted': the folder opens untrusted, in Restricted Mode (see host.ts). */
  workspaceTrust?: 'off' | 'restricted';
}

export async function runHostTests(opts: RunHostTestsOptions): Promise<HostTestResults> {
  const transcript = new Transcript(path.join(opts.repoRoot, 'artifacts', 'host', 'host.log'));
  const log = (s: string): void => {
    transcript.line(s);
    opts.log(s);
  };
  const extension = opts.extensionDevelopmentPath ?? path.join(opts.repoRoot, 'out', 'test', 'extension');
  for (const built of [opts.testsEntry, path.join(extension, 'dist', 'extension.js')]) {
    if (!fs.existsSync(built)) throw new Error(`${built} does not exist: build the tests first (node esbuild.mjs --tests).`);
  }
  const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-test-results-'));
  const resultsFile = path.join(resultsDir, 'results.json');
  // On SIGINT/SIGTERM processGuard stops the host, then exits the process: 'exit' still runs.
  const removeResultsDir = (): void => fs.rmSync(resultsDir, { recursive: true, force: true });
  process.once('exit', removeResultsDir);
  let host: Host | undefined;
  let bridge: WebviewBridge | undefined;
  try {
    const serverMain = await ensureCodeServer(log, { repoRoot: opts.repoRoot });
    // The tests act on webviews through this launcher's browser page (see webviewBridge.ts).
    bridge = await startWebviewBridge();
    const started = Date.now();
    host = await startHost({
      workspaceFolder: opts.workspaceFolder,
      extensionDevelopmentPath: extension,
      extensionTestsPath: opts.testsEntry,
      env: { ...opts.extraEnv, [RESULTS_ENV]: resultsFile, [BRIDGE_ENV]: String(bridge.port) },
      userSettings: opts.userSettings,
      workspaceTrust: opts.workspaceTrust,
      serverMain,
      log,
      output: (source, line) => transcript.output(source, line),
    }).catch((err: unknown) => {
      throw transcript.failure(`VS Code test host did not start: ${messageOf(err)}`);
    });
    bridge.setPage(host.page);
    log(`Running ${opts.testsEntry} in the extension host (server and browser output: ${transcript.file})...`);
    const results = await waitForResults(resultsFile, host, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, transcript);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(`Results came back ${seconds}s after starting the host: ${results.passed} passed, ${results.failed} failed.`);
    transcript.line(results.report);
    return results;
  } finally {
    await host?.stop();
    await bridge?.close();
    process.off('exit', removeResultsDir);
    removeResultsDir();
  }
}

/**
 * Polls for the results file until it holds valid results, the server dies, no test has started for
 * SILENCE_MS (the entry appends each title to `<file>.progress`: test/integration/index.ts), or the
 * bound passes. A run that hangs is named by the last test it started.
 */
async function waitForResults(file: string, host: Host, timeoutMs: number, transcript: Transcript): Promise<HostTestResults> {
  const deadline = Date.now() + timeoutMs;
  let heard = { size: -1, at: Date.now() };
  for (;;) {
    const results = readResults(file);
    if (results) return results;
    if (!host.serverAlive()) throw transcript.failure(`code-server exited before the tests wrote their results${lastStarted(file)}.`);
    const size = progressSize(file);
    if (size !== heard.size) heard = { size, at: Date.now() };
    if (Date.now() - heard.at > SILENCE_MS) {
      throw transcript.failure(
        `No test started for ${SILENCE_MS / 1000}s and no results in ${file}: the extension host did not load the test entry or a test hangs${lastStarted(file)}.`,
      );
    }
    if (Date.now() > deadline) throw transcript.failure(`No test results in ${file} after ${timeoutMs / 1000}s${lastStarted(file)}.`);
    await delay(POLL_INTERVAL_MS);
  }
}

function progressSize(file: string): number {
  try {
    return fs.statSync(`${file}.progress`).size;
  } catch {
    return 0;
  }
}

/** ", the last test started: <title>", from the entry's progress file, if it wrote one. */
function lastStarted(file: string): string {
  try {
    const lines = fs.readFileSync(`${file}.progress`, 'utf8').trim().split('\n');
    return `; the last test started: "${lines[lines.length - 1]}" (${lines.length} started)`;
  } catch {
    return '; no test started';
  }
}

/** The results, or undefined while the file is absent or not yet complete. */
function readResults(file: string): HostTestResults | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isResults(value)) return value;
  } catch {
    // A half-written file; the entry writes atomically, so this is only defensive.
    return undefined;
  }
  throw new Error(`${file} does not hold {passed, failed, report}: ${text.slice(0, 500)}`);
}

function isResults(value: unknown): value is HostTestResults {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return Number.isInteger(r.passed) && Number.isInteger(r.failed) && typeof r.report === 'string';
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Keeps the full log of one run in a file (rewritten each run) and its last lines in memory, for
 * error messages. Written synchronously so that nothing is lost when the process is killed.
 */
class Transcript {
  private readonly tail: string[] = [];

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `VS Code test host, ${new Date().toISOString()}\n`);
  }

  line(text: string): void {
    fs.appendFileSync(this.file, `${text}\n`);
  }

  output(source: OutputSource, text: string): void {
    const line = `[${source}] ${text}`;
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    this.line(line);
  }

  /** An error carrying the last lines the server and the browser printed. */
  failure(message: string): Error {
    this.line(`ERROR: ${message}`);
    const tail = this.tail.length ? this.tail.join('\n') : '(nothing)';
    return new Error(`${message}\nLast ${this.tail.length} lines of server and browser output (all of it in ${this.file}):\n${tail}`);
  }
}
