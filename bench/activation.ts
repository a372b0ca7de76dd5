// Figures 1 and 5: fresh starts of a real VS Code (code-server + headless Chromium, through the test
// launcher in test/host), each with a new user-data-dir, a new workspace folder and a simulator the
// settings point at. The extension is the release build (out/bench/extension, see build.mjs); the
// bench's host entry (host/entry.ts) runs inside the extension host as its extensionTestsPath.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCodeServer } from '../test/host/codeServer';
import type { Host } from '../test/host/host';
import { startSimulator } from '../test/simulator/server';
import { startBenchHost } from './benchHost';
import {
  BENCH_PROJECT,
  DONE_ENV,
  REPORT_ENV,
  WEBVIEW_ENV,
  type ActivationReport,
  type HostReport,
  type ReadersTiming,
  type SignalsTiming,
} from './host/protocol';
import { measureWebview, type WebviewResult } from './webview';

const REPORT_TIMEOUT_MS = 120_000;
const WEBVIEW_REPEATS = 15;

export interface StartResult extends ActivationReport {
  /** Requests the simulator received from the start of the host until the entry's report. */
  simulatorRequests: number;
  startSeconds: number;
}

export interface HostBenchResult {
  starts: StartResult[];
  webview: WebviewResult | undefined;
  readers: ReadersTiming | undefined;
  signals?: SignalsTiming;
}

export async function measureInHost(opts: { repoRoot: string; starts: number; webview: boolean; log: (s: string) => void }): Promise<HostBenchResult> {
  const logFile = path.join(opts.repoRoot, 'artifacts', 'bench', 'host.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, `bench hosts, ${new Date().toISOString()}\n`);
  const transcript = (line: string) => fs.appendFileSync(logFile, `${line}\n`);
  const serverMain = await ensureCodeServer(opts.log, { repoRoot: opts.repoRoot });
  const starts: StartResult[] = [];
  let webview: WebviewResult | undefined;
  let readers: ReadersTiming | undefined;
  let signals: SignalsTiming | undefined;
  for (let i = 1; i <= opts.starts; i++) {
    const withWebview = opts.webview && i === opts.starts;
    opts.log(`  start ${i}/${opts.starts}${withWebview ? ' (+ webview)' : ''}…`);
    const result = await oneStart({ ...opts, serverMain, withWebview, transcript, logFile });
    starts.push(result.start);
    webview ??= result.webview;
    readers ??= result.readers;
    signals ??= result.signals;
  }
  return { starts, webview, readers, signals };
}

async function oneStart(opts: {
  repoRoot: string;
  serverMain: string;
  withWebview: boolean;
  transcript: (line: string) => void;
  logFile: string;
}): Promise<{ start: StartResult; webview: WebviewResult | undefined; readers: ReadersTiming | undefined; signals?: SignalsTiming }> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-bench-'));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  const reportFile = path.join(scratch, 'report.json');
  const doneFile = path.join(scratch, 'done');
  // 10,100 paths give the webview figures 10,000 rows with visitors; the panel's own first load uses it too.
  const sim = await startSimulator({ projects: [BENCH_PROJECT], pathCount: 10_100 });
  let host: Host | undefined;
  try {
    const started = Date.now();
    host = await startBenchHost({
      repoRoot: opts.repoRoot,
      workspaceFolder: workspace,
      apiBaseUrl: sim.url,
      projectId: BENCH_PROJECT,
      serverMain: opts.serverMain,
      transcript: opts.transcript,
      extensionTestsPath: path.join(opts.repoRoot, 'out', 'bench', 'hostEntry.js'),
      env: { [REPORT_ENV]: reportFile, [DONE_ENV]: doneFile, ...(opts.withWebview && { [WEBVIEW_ENV]: '1' }) },
    });
    const report = await waitForReport(reportFile, host, (r) => r.activation !== undefined, opts.logFile);
    const activation = report.activation as ActivationReport;
    const start: StartResult = { ...activation, simulatorRequests: sim.requests.length, startSeconds: (Date.now() - started) / 1000 };
    let webview: WebviewResult | undefined;
    let readers: ReadersTiming | undefined;
    let signals: SignalsTiming | undefined;
    if (opts.withWebview) {
      // The readers figures come first: two fetches of 40 pages each on a loaded machine take a while.
      const hostReport = await waitForReport(reportFile, host, (r) => r.panelRows !== undefined, opts.logFile, 3 * REPORT_TIMEOUT_MS);
      readers = hostReport.readers;
      signals = hostReport.signals;
      const rows = sim.visitorsFor(BENCH_PROJECT, {}).visitors;
      webview = await measureWebview(host.page, rows, WEBVIEW_REPEATS);
      fs.writeFileSync(doneFile, '');
    }
    return { start, webview, readers, signals };
  } finally {
    await host?.stop();
    await sim.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Polls the entry's report until `ready` holds, it reports an error, the server dies or the bound passes. */
async function waitForReport(file: string, host: Host, ready: (r: HostReport) => boolean, logFile: string, timeoutMs = REPORT_TIMEOUT_MS): Promise<HostReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let report: HostReport | undefined;
    try {
      report = JSON.parse(fs.readFileSync(file, 'utf8')) as HostReport;
    } catch {
      report = undefined; // not written yet
    }
    if (report?.error) throw new Error(`the bench entry failed in the extension host:\n${report.error}`);
    if (report && ready(report)) return report;
    if (!host.serverAlive()) throw new Error(`code-server exited before the bench entry reported (see ${logFile})`);
    if (Date.now() > deadline) throw new Error(`no report from the bench entry within ${timeoutMs / 1000} s (see ${logFile})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
