// `npm run bench`: measures activation, bundle sizes, status freshness, the request economy of
// polling and analytics, and the webview; prints one table and writes BENCHMARKS.md with the table
// and, for each figure, how it was measured and how to reproduce it. Timings live here, never in a
// test's assertion.
//
//   node out/bench/run.js [--starts N] [--trials N] [--export-runs N] [--no-host] [--no-write]
//     --starts N       fresh VS Code starts for activation (default 5; the last also measures the webview)
//     --trials N       freshness trials per phase (default 200)
//     --export-runs N  timed exports (default 5)
//     --review-runs N  timed Review Changes clicks on a 50-file branch (default 5)
//     --no-host        skip everything that needs VS Code (activation, webview, review, windows in VS Code)
//     --windows-only   only the several-windows figures (with VS Code unless --no-host); prints, never writes
//     --activation-only  only figure 1: bundles, what weighs in them, activation (with VS Code unless --no-host); prints, never writes
//     --preview-only   only figure 15 (requests for one preview); prints, never writes
//     --search-only    only figure 18 (requests of the site's search); prints, never writes
//     --team-only      only figure 16: a team of 1, 3 and 10 machines against the organisation's hour; prints its summary lines and section, never writes
//     --soak-only      only figure 17: a simulated day of 1 and 3 windows under faults; prints its summary lines and section, never writes
//     --versions-only  only figure 1b: activation and page → figure in VS Code 1.100 and 1.139 side by side (--starts N each); prints, never writes
//     --no-write       print the table only
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CODE_SERVER_VERSION } from '../test/host/codeServer';
import { measureInHost, type HostBenchResult } from './activation';
import { measureAnalytics } from './analytics';
import { bundleInputs, measureBundles } from './bundles';
import { measureFreshness } from './freshness';
import { measureLmTools } from './lmTools';
import { measurePollingHour } from './pollingHour';
import { measureReaders } from './readers';
import { renderMarkdown, renderTable, type BenchResults } from './report';
import { measureReview, type ReviewResult } from './review';
import { measureReviewRequests } from './reviewRequests';
import { measurePreviewRequests, previewRequestsRows } from './previewRequests';
import { measureSearchRequests, searchRequestsRows, searchRequestsSection } from './searchRequests';
import { measureMergeTime } from './mergeTime';
import { measurePaging } from './paging';
import { measureSignals } from './signals';
import { measurePageTrends, measureTrend } from './trend';
import { measureHourGate } from './hourGate';
import { measureSharedFile } from './sharedFile';
import { measureSoak, soakLines, soakSection, SOAK_WINDOWS } from './soak';
import { measureTeam, teamLines, teamSection, TEAM_SIZES } from './team';
import { measureVersions, versionLines, versionsSection, type VersionFigures } from './versions';
import { measureWindows } from './windows';
import { measurePropagationInVsCode } from './windowsInVsCode';

interface Options {
  starts: number;
  trials: number;
  exportRuns: number;
  reviewRuns: number;
  host: boolean;
  write: boolean;
  windowsOnly: boolean;
  activationOnly: boolean;
  previewOnly: boolean;
  searchOnly: boolean;
  teamOnly: boolean;
  soakOnly: boolean;
  versionsOnly: boolean;
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = {
    starts: 5,
    trials: 200,
    exportRuns: 5,
    reviewRuns: 5,
    host: true,
    write: true,
    windowsOnly: false,
    activationOnly: false,
    previewOnly: false,
    searchOnly: false,
    teamOnly: false,
    soakOnly: false,
    versionsOnly: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const count = () => {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a whole number of at least 1`);
      return value;
    };
    if (arg === '--starts') options.starts = count();
    else if (arg === '--trials') options.trials = count();
    else if (arg === '--export-runs') options.exportRuns = count();
    else if (arg === '--review-runs') options.reviewRuns = count();
    else if (arg === '--no-host') options.host = false;
    else if (arg === '--no-write') options.write = false;
    else if (arg === '--windows-only') options.windowsOnly = true;
    else if (arg === '--activation-only') options.activationOnly = true;
    else if (arg === '--preview-only') options.previewOnly = true;
    else if (arg === '--search-only') options.searchOnly = true;
    else if (arg === '--team-only') options.teamOnly = true;
    else if (arg === '--soak-only') options.soakOnly = true;
    else if (arg === '--versions-only') options.versionsOnly = true;
    else throw new Error(`unknown option ${arg}; see the top of bench/run.ts`);
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const repoRoot = path.resolve(__dirname, '..', '..');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const began = Date.now();
  if (options.windowsOnly) return windowsOnly(options, repoRoot, log);
  if (options.activationOnly) return activationOnly(options, repoRoot, log);
  if (options.previewOnly) {
    for (const row of previewRequestsRows(await measurePreviewRequests())) log(`${row.figure}: ${row.value}`);
    return;
  }
  if (options.searchOnly) {
    const runs = await measureSearchRequests();
    for (const row of searchRequestsRows(runs)) process.stdout.write(`| 18 Search | ${row.figure} | ${row.value.replaceAll('|', '\\|')} |\n`);
    process.stdout.write(`\n${searchRequestsSection(runs)}`);
    return;
  }
  if (options.teamOnly) return teamOnly(log);
  if (options.soakOnly) return soakOnly(log);
  if (options.versionsOnly) return versionsOnly(options, log);
  const loadAtStart = os.loadavg()[0] ?? 0;
  if (loadAtStart > os.cpus().length / 2) {
    log(
      `note: load average ${loadAtStart.toFixed(2)} on ${os.cpus().length} cores; wall-clock figures (activation, export rows/s, webview) will be slower than on a quiet machine`,
    );
  }

  log('bundles…');
  const bundles = measureBundles(path.join(repoRoot, 'out', 'bench', 'extension', 'dist'));
  const inputs = bundleInputs(path.join(repoRoot, 'out', 'bench', 'extension', 'extension-meta.json'));
  let host: HostBenchResult | undefined;
  if (options.host) {
    log(`activation: ${options.starts} fresh starts of VS Code (code-server ${CODE_SERVER_VERSION})…`);
    host = await measureInHost({ repoRoot, starts: options.starts, webview: true, log });
  }
  log(`status freshness: ${options.trials} trials per phase…`);
  const freshness = await measureFreshness(options.trials);
  log('polling: one scripted hour, ours and the naive loop…');
  const hour = await measurePollingHour();
  log('windows: one scripted hour with 1, 2 and 3 windows, and propagation between windows…');
  const windows = await measureWindows();
  log('the shared file after a year of daily use…');
  const sharedFile = measureSharedFile();
  const windowsInVsCode = options.host ? await propagationInVsCode(repoRoot, log) : undefined;
  log('analytics: scripted session and timed exports…');
  const analytics = await measureAnalytics(options.exportRuns);
  log('readers: 50 pages over an hour on 400 and 10,000 paths…');
  const readers = await measureReaders();
  log('signals: one snapshot on the default and the large site…');
  const signals = await measureSignals();
  log('paging: every paging fetch against a never-ending server and the default and large data…');
  const paging = await measurePaging();
  log("language model tools: the size of each reading tool's answer on the default and the large site…");
  const lmTools = await measureLmTools();
  log('merge lookup: findMerge on local histories of 100 and 4,000 commits after the merge…');
  const mergeTime = await measureMergeTime();
  log('trend: a 12-week, a Last 90 days and a Last 30 days trend drawn four times on a fixed clock…');
  const trend = await measureTrend();
  log('trend: Show Trend for one page, then another over the same days…');
  const pageTrend = await measurePageTrends();
  log("hour gate: each action a writer takes, with 100, 50 and 6 of the hour's analytics requests left…");
  const hourGate = await measureHourGate();
  log('review: agent requests for a review of 1 to 50 comments, and one follow-up per comment…');
  const reviewRequests = await measureReviewRequests();
  log('preview: requests for one preview from the click to ready, builds of 30 s to 10 min…');
  const previewRequests = await measurePreviewRequests();
  log("site search: checking the gap inbox's searches, and one job's before and after…");
  const searchRequests = await measureSearchRequests();
  log(`team: ${TEAM_SIZES.join(', ')} machines, each its own extension, against one organisation's hour, through working days…`);
  const team = measureTeam();
  log(`soak: a simulated day of ${SOAK_WINDOWS.join(' and ')} windows under faults, and an export through a bad Retry-After…`);
  const soak = await measureSoak();

  let review: ReviewResult | undefined;
  let versions: VersionFigures[] | undefined;
  if (options.host) {
    log(`versions: ${options.starts} fresh starts each of VS Code 1.100 and 1.139, the release build installed…`);
    versions = await measureVersions({ starts: options.starts, log });
    log(`review: ${options.reviewRuns} clicks on Review Changes for a branch of 50 changed files…`);
    review = await measureReview({ repoRoot, runs: options.reviewRuns, log });
  }

  const results: BenchResults = {
    when: new Date().toISOString(),
    machine: `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.cpus().length} cores, node ${process.versions.node}, ${os.platform()} ${os.release()}`,
    codeServer: CODE_SERVER_VERSION,
    load: { start: loadAtStart, end: os.loadavg()[0] ?? 0, cores: os.cpus().length },
    options: { starts: options.starts, trials: options.trials, exportRuns: options.exportRuns },
    bundles,
    bundleInputs: inputs,
    host,
    freshness: freshness.phases,
    freshnessRequestMs: freshness.requestMs,
    hour,
    analytics,
    review,
    windows,
    windowsInVsCode,
    sharedFile,
    readers,
    signals,
    paging,
    mergeTime,
    lmTools,
    trend,
    pageTrend,
    hourGate,
    reviewRequests,
    previewRequests,
    searchRequests,
    team,
    soak,
    versions,
    seconds: (Date.now() - began) / 1000,
  };
  process.stdout.write(`${renderTable(results)}\n`);
  if (options.write) {
    const file = path.join(repoRoot, 'BENCHMARKS.md');
    fs.writeFileSync(file, renderMarkdown(results));
    log(`wrote ${path.relative(process.cwd(), file) || file} (${results.seconds.toFixed(0)} s)`);
  }
}

const IN_VS_CODE_CHANGES = 50;

function propagationInVsCode(repoRoot: string, log: (line: string) => void) {
  log(`windows: ${IN_VS_CODE_CHANGES} changes shown from one window of VS Code in another…`);
  return measurePropagationInVsCode({ repoRoot, changes: IN_VS_CODE_CHANGES, log });
}

/** The several-windows figures alone, for whoever works on src/sync. */
async function windowsOnly(options: Options, repoRoot: string, log: (line: string) => void): Promise<void> {
  const { runs, propagation } = await measureWindows();
  for (const run of runs) log(`${run.windows} window(s): ${run.gets} GETs; ledger ${run.ledger} vs simulator ${run.simulator}`);
  log(`files on disk: median ${propagation.medianMs.toFixed(0)} ms, max ${propagation.maxMs.toFixed(0)} ms over ${propagation.changes} changes`);
  if (!options.host) return;
  const v = await propagationInVsCode(repoRoot, log);
  log(`inside VS Code: median ${v.medianMs.toFixed(0)} ms, max ${v.maxMs.toFixed(0)} ms over ${v.changes} changes`);
}

/** Figure 16 alone (the team against the organisation's hour), its section printed and not written: for whoever changes the hour's gate or background work. */
function teamOnly(log: (line: string) => void): void {
  log(`team: ${TEAM_SIZES.join(', ')} machines, each its own extension, against one organisation's hour, through working days…`);
  const team = measureTeam();
  // Its lines of the summary table, then its section: what a full run writes into BENCHMARKS.md.
  for (const line of teamLines(team)) process.stdout.write(`| 16 Team | ${line.figure} | ${line.value.replaceAll('|', '\\|')} |\n`);
  process.stdout.write(`\n${teamSection(team)}`);
}

/** Figure 17 alone (a day under faults), its section printed and not written: for whoever changes the shared state or the hour. */
async function soakOnly(log: (line: string) => void): Promise<void> {
  log(`soak: a simulated day of ${SOAK_WINDOWS.join(' and ')} windows under faults, and an export through a bad Retry-After…`);
  const soak = await measureSoak();
  for (const line of soakLines(soak)) process.stdout.write(`| 17 Soak | ${line.figure} | ${line.value.replaceAll('|', '\\|')} |\n`);
  process.stdout.write(`\n${soakSection(soak)}`);
}

/** Figure 1b alone (VS Code 1.100 and today's side by side), printed and not written: for whoever changes activation or the readers' figure. */
async function versionsOnly(options: Options, log: (line: string) => void): Promise<void> {
  const versions = await measureVersions({ starts: options.starts, log });
  for (const line of versionLines(versions)) process.stdout.write(`| 1b Versions | ${line.figure} | ${line.value.replaceAll('|', '\\|')} |\n`);
  process.stdout.write(`\n${versionsSection(versions)}`);
}

/** Figure 1 alone (bundles, their biggest inputs, activation), printed and not written: for whoever changes what activate() builds or imports. */
async function activationOnly(options: Options, repoRoot: string, log: (line: string) => void): Promise<void> {
  const dist = path.join(repoRoot, 'out', 'bench', 'extension');
  const bundles = measureBundles(path.join(dist, 'dist'));
  const inputs = bundleInputs(path.join(dist, 'extension-meta.json'));
  for (const b of bundles) log(`${b.file}: ${b.rawBytes} bytes, ${b.gzipBytes} gzip`);
  for (const input of inputs) log(`  ${input.name}: ${input.bytes} bytes (biggest ${input.biggest.file}, ${input.biggest.bytes})`);
  if (!options.host) return;
  const host = await measureInHost({ repoRoot, starts: options.starts, webview: false, log });
  for (const start of host.starts) {
    log(
      `start: activate() ${start.activateMs ?? '?'} ms, start() ${start.startMs?.toFixed(1) ?? '?'} ms, load ${start.loadCodeMs ?? '?'} ms, caller ${start.callerMs?.toFixed(1) ?? '?'} ms, requests ${start.requests}/${start.simulatorRequests}`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
