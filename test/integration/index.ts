/**
 * Test entry loaded by VS Code's extension host (`extensionTestsPath`): runs mocha over every
 * `*.test.js` beside this file in the compiled output.
 *
 * The extension host's stdout does not reach whoever started a code-server host, so the results
 * also go, as JSON `{ passed, failed, report }`, to the file named by MINTLIFY_TEST_RESULTS
 * (test/host/runHostTests.ts waits for it). run() rejects when anything failed, as the desktop
 * runner (@vscode/test-electron) expects. An unhandled rejection from our code during the run is
 * one more failure, listed with the test that was running (unhandledRejections.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { type UnhandledRejection, UnhandledRejectionWatch } from './unhandledRejections';

const RESULTS_ENV = 'MINTLIFY_TEST_RESULTS';
const EXTENSION_ID = 'mintlify-agent-analytics.mintlify-agent-analytics';

interface Results {
  passed: number;
  failed: number;
  report: string;
}

export async function run(): Promise<void> {
  let results: Results;
  // Our code runs from the extension's folder and from the compiled tests (out/test).
  const ours = [vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath, path.resolve(__dirname, '..')].filter((p): p is string => p !== undefined);
  const rejections = new UnhandledRejectionWatch(ours);
  try {
    results = await runMocha(findTestFiles(__dirname), (title) => {
      rejections.during = title;
      progress(title);
    });
  } catch (err) {
    // Loading a test file threw, or mocha itself did: still one failure, never silence.
    results = { passed: 0, failed: 1, report: `The integration tests could not run:\n${describeError(err)}\n\n0 passing, 1 failing\n` };
  }
  results = withUnhandled(results, rejections.stop());
  console.log(results.report); // reaches the terminal under the desktop runner
  writeResults(results);
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed.`);
}

function findTestFiles(dir: string): string[] {
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join(dir, f))
    .sort();
  if (files.length === 0) throw new Error(`No *.test.js files under ${dir}: was the test build run?`);
  return files;
}

/** One more failure when our code left rejections unhandled, each listed with the test that ran. */
function withUnhandled(results: Results, rejections: UnhandledRejection[]): Results {
  if (rejections.length === 0) return results;
  const list = rejections.map((r, i) => `  ${i + 1}) during "${r.during}":\n${indentBlock(r.description, '     ')}`);
  const heading = `The extension host saw ${rejections.length} unhandled rejection(s) from our code (a promise neither awaited nor handed to background()):`;
  return { passed: results.passed, failed: results.failed + 1, report: [results.report, heading, ...list, ''].join('\n') };
}

/** `onRunnable` hears the full title of each test and hook as it starts. */
function runMocha(files: string[], onRunnable: (title: string) => void): Promise<Results> {
  // forbidOnly: an `.only` left in a test would silently skip all the others.
  // MINTLIFY_TEST_GREP runs only the matching tests (a developer's shortcut; CI never sets it).
  const grep = process.env.MINTLIFY_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', timeout: 20_000, color: false, forbidOnly: true, reporter: ReportCollector, ...(grep && { grep }) });
  files.forEach((f) => mocha.addFile(f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run(() => {
      const collector = collectors.get(runner);
      if (collector) resolve(collector.results());
      else reject(new Error('The mocha reporter was never created.'));
    });
    // mocha starts a test, then runs its beforeEach hooks: after a hook, the test runs again.
    let test = 'between tests';
    runner.on(EVENT_TEST_BEGIN, (t) => onRunnable((test = t.fullTitle())));
    runner.on(EVENT_HOOK_BEGIN, (hook) => onRunnable(hook.fullTitle()));
    runner.on(EVENT_HOOK_END, () => onRunnable(test));
  });
}

/** Appends the title of what starts to `<results>.progress`: the launcher knows the run goes on, and where it stopped if it hangs. */
function progress(title: string): void {
  const file = process.env[RESULTS_ENV];
  if (file) fs.appendFileSync(`${file}.progress`, `${title.replace(/\n/g, ' ')}\n`);
}

function writeResults(results: Results): void {
  const file = process.env[RESULTS_ENV];
  if (!file) return;
  // Write then rename, so that a reader polling for the file never sees half of it.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, JSON.stringify(results));
  fs.renameSync(partial, file);
}

function describeError(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

// ---------------------------------------------------------------------------------------------
// Reporter: builds a spec-like text report. A pending (skipped) test counts as failed-to-run,
// not passed, so a skip can never hide a test that stopped running.

/** Lets run() find the reporter that mocha creates for its runner. */
const collectors = new WeakMap<Mocha.Runner, ReportCollector>();

interface Failure {
  title: string;
  reason: string;
}

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_HOOK_BEGIN, EVENT_HOOK_END } =
  Mocha.Runner.constants;

class ReportCollector extends Mocha.reporters.Base {
  private readonly lines: string[] = [];
  private readonly failedRuns: Failure[] = [];
  private passed = 0;
  private depth = 0;

  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    collectors.set(runner, this);
    runner.on(EVENT_SUITE_BEGIN, (suite) => this.onSuiteBegin(suite));
    runner.on(EVENT_SUITE_END, (suite) => this.onSuiteEnd(suite));
    runner.on(EVENT_TEST_PASS, (test) => this.onPass(test));
    runner.on(EVENT_TEST_FAIL, (test, err) => this.onFail(test, describeMochaError(err)));
    runner.on(EVENT_TEST_PENDING, (test) => this.onFail(test, 'skipped'));
  }

  results(): Results {
    const failed = this.failedRuns.length;
    // mocha's wording, not 'N passed, N failed': that line is left to the launcher's own summary.
    const report = [...this.lines, '', `${this.passed} passing, ${failed} failing`, '', ...this.failureDetails()].join('\n');
    return { passed: this.passed, failed, report };
  }

  private onSuiteBegin(suite: Mocha.Suite): void {
    if (suite.root) return;
    this.lines.push(`${this.indent()}${suite.title}`);
    this.depth++;
  }

  private onSuiteEnd(suite: Mocha.Suite): void {
    if (!suite.root) this.depth--;
  }

  private onPass(test: Mocha.Test): void {
    this.passed++;
    this.lines.push(`${this.indent()}✓ ${test.title} (${test.duration ?? 0}ms)`);
  }

  /** Also receives failed hooks (a `before` that threw), which mocha reports as runnables. */
  private onFail(runnable: Mocha.Runnable, reason: string): void {
    this.failedRuns.push({ title: runnable.fullTitle(), reason });
    const label = reason === 'skipped' ? ' (skipped)' : '';
    this.lines.push(`${this.indent()}✗ ${this.failedRuns.length}) ${runnable.title}${label}`);
  }

  private failureDetails(): string[] {
    if (this.failedRuns.length === 0) return [];
    const details = this.failedRuns.map((f, i) => `  ${i + 1}) ${f.title}:\n${indentBlock(f.reason, '     ')}\n`);
    return ['Failures:', '', ...details];
  }

  private indent(): string {
    return '  '.repeat(this.depth + 1);
  }
}

function describeMochaError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // The stack usually starts with the message; print the message once.
  const stack = err.stack ?? '';
  return stack.includes(err.message) ? stack : `${err.message}\n${stack}`;
}

function indentBlock(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}
