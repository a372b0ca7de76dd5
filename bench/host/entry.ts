// The bench's extensionTestsPath: runs inside VS Code's real extension host (code-server), once per
// fresh start. It reads how long VS Code took to load and activate the extension, checks that no
// request left during activation and the startup delay after it, and on the webview start opens
// Visitor Analytics against the simulator and keeps the window until the launcher has measured.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { TestSeam } from '../../test/support/extensionUnderTest';
import {
  BENCH_KEY,
  DONE_ENV,
  EXTENSION_ID,
  REPORT_ENV,
  WEBVIEW_ENV,
  type ActivationReport,
  type HostReport,
  type ReadersTiming,
  type SignalsTiming,
} from './protocol';
import { measureSignalsDraw } from './signalsDraw';

/** Past JobTracker's 1 s startup delay, the first moment the extension could poll. */
const QUIET_MS = 3_000;
const PANEL_TIMEOUT_MS = 30_000;
const DONE_TIMEOUT_MS = 180_000;
/** Timed draws of the Reader Signals view on the large site. */
const SIGNALS_DRAWS = 20;

interface PerformanceMarks {
  getMarks(): { name: string; startTime: number }[];
}

export async function run(): Promise<void> {
  const reportFile = process.env[REPORT_ENV];
  if (!reportFile) throw new Error(`${REPORT_ENV} is not set`);
  const report: HostReport = {};
  try {
    const { activation, seam } = await measureActivation();
    report.activation = activation;
    write(reportFile, report);
    if (process.env[WEBVIEW_ENV]) {
      const panelRows = await openPanel(seam);
      // Before the launcher hears of the panel, so its webview measurement runs alone.
      report.readers = await measureReaders(seam);
      report.signals = { ...(await measureSignals(seam)), draw: await measureSignalsDraw(seam, SIGNALS_DRAWS) };
      // Both put docs pages in front of the panel: bring it back for the webview figures.
      await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
      report.panelRows = panelRows;
      write(reportFile, report);
      await waitForFile(process.env[DONE_ENV], DONE_TIMEOUT_MS);
    }
  } catch (error) {
    report.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    write(reportFile, report);
  }
}

async function measureActivation(): Promise<{ activation: ActivationReport; seam: TestSeam }> {
  const extension = vscode.extensions.getExtension<TestSeam | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  const activeAtEntry = extension.isActive;
  const started = performance.now();
  const seam = await extension.activate();
  const callerMs = activeAtEntry ? undefined : performance.now() - started;
  if (!seam) throw new Error('the extension returned no parts: is the bench loading dist/extensionUnderTest.js (bench/build.mjs)?');
  await delay(QUIET_MS);
  const span = (from: string, to: string) => {
    const marks = (globalThis as { MonacoPerformanceMarks?: PerformanceMarks }).MonacoPerformanceMarks?.getMarks() ?? [];
    const at = (name: string) => marks.find((m) => m.name === `code/extHost/${name}/${EXTENSION_ID}`)?.startTime;
    const a = at(from);
    const b = at(to);
    return a === undefined || b === undefined ? undefined : b - a;
  };
  return {
    seam,
    activation: {
      activeAtEntry,
      callerMs,
      loadCodeMs: span('willLoadExtensionCode', 'didLoadExtensionCode'),
      activateMs: span('willActivateExtension', 'didActivateExtension'),
      startMs: seam.startMs,
      requests: seam.requests.length,
      quietMs: QUIET_MS,
    },
  };
}

/** Stores the key as a user would (the Set API Key command, its input box answered), then opens the panel. */
async function openPanel(seam: TestSeam): Promise<number> {
  const { ui } = seam;
  const original = { showInputBox: ui.showInputBox, showMessage: ui.showMessage };
  ui.showInputBox = async () => BENCH_KEY;
  ui.showMessage = async () => undefined;
  try {
    await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
  } finally {
    Object.assign(ui, original);
  }
  await vscode.commands.executeCommand('mintlifyAgent.openAnalytics');
  const deadline = Date.now() + PANEL_TIMEOUT_MS;
  for (;;) {
    const state = seam.analytics.panel()?.model.state;
    if (state?.data) return state.data.rows.length;
    if (state?.error || state?.setup) throw new Error(`the panel did not load: ${state.error?.message ?? state.setup?.message}`);
    if (Date.now() > deadline) throw new Error(`the panel showed no rows within ${PANEL_TIMEOUT_MS / 1000} s`);
    await delay(50);
  }
}

const READERS_PAGES = ['/quickstart', '/introduction', '/installation', '/changelog', '/concepts/projects', '/guides/custom-domains'];

/** Opening a docs page until its status-bar figure shows: cold (range fetched) and warm (kept). */
async function measureReaders(seam: TestSeam): Promise<ReadersTiming> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('the bench window has no workspace folder');
  const docs = vscode.Uri.joinPath(root, 'docs');
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(docs, 'docs.json'), new TextEncoder().encode('{ "name": "Bench" }\n'));
  const uris = READERS_PAGES.map((p) => vscode.Uri.joinPath(docs, `${p.slice(1)}.mdx`));
  for (const uri of uris) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('# Page\n'));
  await until('the docs root', async () => (await seam.readers.docs.pageOf(uris[0])) !== undefined);
  // Cold: the writer's click on the item (a page shown is background work, held to this machine's
  // share of a few requests an hour: a 40-page range is the writer's to load). Its question is answered yes.
  const time = async (uri: vscode.Uri, asked = false) => {
    const started = performance.now();
    await vscode.window.showTextDocument(uri, { preview: false });
    if (asked) {
      const original = seam.ui.showMessage;
      seam.ui.showMessage = async (_level, _message, ...actions) => actions[0];
      try {
        await seam.readers.statusBar.update({ asked: true });
      } finally {
        seam.ui.showMessage = original;
      }
    }
    await until(`the figure of ${uri.path}`, () => {
      const shown = seam.readers.statusBar.shown;
      return shown?.figures !== undefined && shown.page.uri.toString() === uri.toString();
    });
    return performance.now() - started;
  };
  const visitors = () => seam.requests.filter((r) => r.path.includes('/visitors')).length;
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  let coldRequests = 0;
  // Two cold figures: each takes 40 requests of the hour's 100 on the 10,100-path data set.
  for (let round = 0; round < 2; round++) {
    // Each cold round as in a new hour: opening a page is background work, held under the shared
    // ledger's ceiling (60 of 100), and two 40-request rounds would cross it.
    await seam.sync.update((state) => {
      for (const bucket of Object.keys(state.ledger)) if (bucket.startsWith('analytics:')) delete state.ledger[bucket];
    });
    await seam.readers.pageReaders.store.clear();
    const before = visitors();
    coldMs.push(await time(uris[(round * 2) % uris.length], true));
    coldRequests = visitors() - before;
    warmMs.push(await time(uris[(round * 2 + 1) % uris.length]));
  }
  for (const uri of uris) warmMs.push(await time(uri));
  return { coldMs, warmMs, coldRequests };
}

/** Opening a docs page until its tooltip holds the page's reader signals, with both snapshots kept. */
async function measureSignals(seam: TestSeam): Promise<SignalsTiming> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('the bench window has no workspace folder');
  const uris = READERS_PAGES.map((p) => vscode.Uri.joinPath(root, 'docs', `${p.slice(1)}.mdx`));
  const analytics = () => seam.requests.filter((r) => r.path.includes('/v1/analytics/') && !r.path.includes('/visitors')).length;
  const before = analytics();
  await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
  const fetchRequests = analytics() - before;
  if (!seam.signals.store.current()) throw new Error('Fetch Reader Signals kept no snapshot');
  const tooltip = () => {
    const t = seam.readers.statusBar.shown?.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  };
  const warmMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const uri of uris) {
      const started = performance.now();
      await vscode.window.showTextDocument(uri, { preview: false });
      await until(
        `the reader signals of ${uri.path}`,
        () => seam.readers.statusBar.shown?.page.uri.toString() === uri.toString() && tooltip().includes('Reader signals'),
      );
      warmMs.push(performance.now() - started);
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  if (analytics() !== before + fetchRequests) throw new Error('opening pages sent signals requests');
  return { warmMs, fetchRequests };
}

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + PANEL_TIMEOUT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await delay(5);
  }
}

async function waitForFile(file: string | undefined, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (file && !fs.existsSync(file) && Date.now() < deadline) await delay(100);
}

function write(file: string, report: HostReport): void {
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, JSON.stringify(report));
  fs.renameSync(partial, file);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
