// The table and BENCHMARKS.md. Every figure says how it was measured; the numbers come from one run.
import type { HostBenchResult } from './activation';
import { DEFAULT_PAGE_SIZE as DEFAULT_SESSION_PAGE_SIZE, LATENCY_MS, SESSION_TEXT, type AnalyticsResult } from './analytics';
import { kb, type BundleInput, type BundleSize } from './bundles';
import type { FreshnessPhase } from './freshness';
import { DEFAULT_TIMINGS } from '../src/poll/pollTimings';
import { NAIVE_INTERVAL_MS } from './pollingClients';
import { SCENARIO_TEXT, summarizeDelays, type HourResult } from './pollingHour';
import { formatSpread, ratio, spread } from './stats';
import { REVIEW_FILES, type ReviewResult } from './review';
import { READERS_TEXT, type ReadersRun } from './readers';
import { SIGNALS_TEXT, type SignalsRun } from './signals';
import { pagingRows, pagingSection, type PagingRun } from './paging';
import { MERGE_TIME_TEXT, type MergeTimeRun } from './mergeTime';
import { LM_TOOLS_TEXT, type LmToolsRun } from './lmTools';
import { reviewRequestsRows, reviewRequestsSection, type ReviewRequestsRun } from './reviewRequests';
import { previewRequestsRows, previewRequestsSection, type PreviewRequestsRun } from './previewRequests';
import { searchRequestsRows, searchRequestsSection, type SearchRequestsRun } from './searchRequests';
import { PAGE_TREND_TEXT, TREND_NOW, TREND_TEXT, type TrendRun, type TrendStep } from './trend';
import { type HourGateRow, hourGateLines, hourGateSection } from './hourGate';
import { type SoakResult, soakLines, soakSection } from './soak';
import { teamLines, teamSection } from './team';
import type { TeamResult } from './teamResult';
import { FILTER_TERM } from './webview';
import { SHARED_FILE_SCENARIO, type SharedFileResult } from './sharedFile';
import { WINDOWS_SCENARIO, type WindowsResult } from './windows';
import { versionLines, versionsSection, type VersionFigures } from './versions';

export interface BenchResults {
  when: string;
  machine: string;
  codeServer: string;
  /** One-minute load averages, at the start and the end of the run. */
  load: { start: number; end: number; cores: number };
  options: { starts: number; trials: number; exportRuns: number };
  bundles: BundleSize[];
  /** What weighs in dist/extension.js, biggest first; absent in results made before it existed. */
  bundleInputs?: BundleInput[];
  host: HostBenchResult | undefined;
  freshness: FreshnessPhase[];
  /** Median real duration of the freshness runs' requests. */
  freshnessRequestMs: number;
  hour: HourResult;
  analytics: AnalyticsResult;
  /** Undefined with --no-host. */
  review?: ReviewResult;
  windows: WindowsResult;
  windowsInVsCode?: WindowsResult['propagation'];
  /** The shared file after a year of daily use; absent in results made before it existed. */
  sharedFile?: SharedFileResult;
  readers: ReadersRun[];
  signals: SignalsRun[];
  paging: PagingRun[];
  /** Figure 9; absent in results made before it existed. */
  mergeTime?: MergeTimeRun[];
  /** Figure 11; absent in results made before it existed. */
  lmTools?: LmToolsRun[];
  /** Figure 12; absent in results made before it existed. */
  trend?: TrendRun[];
  /** Figure 12, Show Trend for two pages; absent in results made before it existed. */
  pageTrend?: TrendStep[];
  /** Figure 13, the hour's gate; absent in results made before it existed. */
  hourGate?: HourGateRow[];
  /** Figure 14, Send Review to Agent; absent in results made before it existed. */
  reviewRequests?: ReviewRequestsRun[];
  previewRequests?: PreviewRequestsRun[];
  /** Figure 16, a team against the organisation's hour; absent in results made before it existed. */
  team?: TeamResult;
  /** Figure 17; absent in results made before it existed. */
  soak?: SoakResult;
  /** Figure 18, the site's search; absent in results made before it existed. */
  searchRequests?: SearchRequestsRun[];
  /** Figure 1b, VS Code 1.100 and today's side by side; absent with --no-host and in results made before it existed. */
  versions?: VersionFigures[];
  seconds: number;
}

/** The bundle's inputs named in the table; the rest are smaller than the last of these. */
const BUNDLE_INPUTS_SHOWN = 8;

interface Row {
  section: string;
  figure: string;
  value: string;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const defined = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

function rows(r: BenchResults): Row[] {
  const out: Row[] = [];
  const add = (section: string, figure: string, value: string) => out.push({ section, figure, value });

  // 1. Activation and bundles
  const starts = r.host?.starts ?? [];
  if (starts.length) {
    const activate = defined(starts.map((x) => x.activateMs));
    const load = defined(starts.map((x) => x.loadCodeMs));
    const caller = defined(starts.map((x) => x.callerMs));
    if (activate.length) add('1 Activation', "`activate()` in the VS Code host (VS Code's own marks)", formatSpread(spread(activate), 'ms', 0));
    const started = defined(starts.map((x) => x.startMs));
    if (started.length)
      add('1 Activation', 'start(): the objects built in the turn after `activate()` (every feature)', formatSpread(spread(started), 'ms', 1));
    if (load.length) add('1 Activation', "loading the release bundle (`require`, VS Code's marks)", formatSpread(spread(load), 'ms', 0));
    if (caller.length)
      add('1 Activation', '`extension.activate()` as a caller waits for it (load + context + activate)', formatSpread(spread(caller), 'ms', 1));
    const extRequests = Math.max(...starts.map((x) => x.requests));
    const simRequests = Math.max(...starts.map((x) => x.simulatorRequests));
    add(
      '1 Activation',
      `requests during activation and the ${s(starts[0]?.quietMs ?? 0)} after it`,
      `${extRequests} (extension's log), ${simRequests} (simulator), in every start`,
    );
  } else {
    add('1 Activation', 'activation in the VS Code host', 'not measured (--no-host)');
  }
  for (const line of r.versions ? versionLines(r.versions) : []) add('1b Versions', line.figure, line.value);
  for (const b of r.bundles) add('1 Bundles', `${b.file} (release build)`, `${kb(b.rawBytes)} raw, ${kb(b.gzipBytes)} gzip`);
  for (const input of (r.bundleInputs ?? []).slice(0, BUNDLE_INPUTS_SHOWN)) {
    add('1 Bundles', `in dist/extension.js: ${input.name}`, `${kb(input.bytes)} (biggest: ${input.biggest.file}, ${kb(input.biggest.bytes)})`);
  }

  // 2. Freshness
  for (const phase of r.freshness) {
    add(
      '2 Freshness',
      phase.name,
      `median ${s(phase.medianMs)}, p95 ${s(phase.p95Ms)}, max ${s(phase.maxMs)} (n=${phase.trials}, ${phase.pollsPerTrial.toFixed(1)} polls a job)`,
    );
  }

  // 3. Polling economy
  const { ours, naive, oracleMinimum, blindFloor } = r.hour;
  const delays = (run: HourResult['ours']) => {
    const d = summarizeDelays(run);
    return `changes seen after median ${s(d.medianMs)}, max ${s(d.maxMs)}`;
  };
  add('3 Polling, 1 h', 'our scheduler: GET requests', `${ours.getRequests} (${delays(ours)})`);
  add('3 Polling, 1 h', `naive loop (every ${NAIVE_INTERVAL_MS / 1000} s until finished): GET requests`, `${naive.getRequests} (${delays(naive)})`);
  add('3 Polling, 1 h', 'minimum: one read right at each change (clairvoyant)', `${oracleMinimum} (${ours.changes} jobs finished in the hour)`);
  add('3 Polling, 1 h', 'floor for our delay bounds without knowing when jobs finish', `${blindFloor}`);
  add(
    '3 Polling, 1 h',
    'ours / minimum; naive / ours; ours / floor',
    `${ratio(ours.getRequests, oracleMinimum)}; ${ratio(naive.getRequests, ours.getRequests)}; ${ratio(ours.getRequests, blindFloor)}`,
  );

  // 3b. Several windows
  const one = r.windows.runs[0];
  for (const run of r.windows.runs) {
    add(
      '3 Windows, 1 h',
      `${run.windows} window${run.windows === 1 ? '' : 's'} open: GET requests (ratio to one window)`,
      `${run.gets} (${one ? ratio(run.gets, one.gets) : '–'})`,
    );
  }
  add(
    '3 Windows, 1 h',
    'shared ledger vs simulator: agent requests the platform counts (sends) in the hour',
    r.windows.runs.map((x) => `${x.ledger} vs ${x.simulator}`).join('; '),
  );
  const p = r.windows.propagation;
  add('3 Windows', `a change shows in the other window (files on disk, ${p.changes} changes)`, `median ${ms(p.medianMs)}, max ${ms(p.maxMs)}`);
  const v = r.windowsInVsCode; // undefined with --no-host
  if (v)
    add(
      '3 Windows',
      `a job tracked in window A shows in window B's status bar (VS Code, ${v.changes} changes)`,
      `median ${ms(v.medianMs)}, max ${ms(v.maxMs)}`,
    );
  const f = r.sharedFile;
  if (f) {
    add(
      '3 Windows, 1 year',
      "one window's shared file after a year of daily use (trend buckets kept, by kind)",
      `${(f.yearBytes / 1024).toFixed(1)} KB (${Object.entries(f.kept)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')})`,
    );
    add('3 Windows', 'the shared file with every trend bound full (both metrics)', `${(f.fullBytes / 1024).toFixed(1)} KB`);
  }

  // 4. Analytics economy
  for (const session of r.analytics.sessions) {
    add(
      '4 Analytics',
      `session at ${session.pageSize} rows a page: requests (minimum; no cache, export at ${session.pageSize})`,
      `${session.requests} (${session.minimum}; ${session.naive}) → ours / minimum ${ratio(session.requests, session.minimum)}`,
    );
  }
  const a = r.analytics;
  add(
    '4 Analytics',
    `the same session at ${DEFAULT_SESSION_PAGE_SIZE} rows a page after the readers status item fetched Last 30 days: panel requests (readers' fetch; without reuse)`,
    `${a.withReaders.panel} (${a.withReaders.readers}; ${a.withReaders.withoutReuse})`,
  );
  add(
    '4 Analytics',
    `export at ${LATENCY_MS} ms a request`,
    `${Math.round(a.medianRowsPerSecond).toLocaleString('en-US')} rows/s (${a.exportRows.toLocaleString('en-US')} rows, ${a.exportPages} pages, ${s(a.medianExportMs)}; median of ${a.rowsPerSecond.length})`,
  );

  // 5. Webview
  if (r.host?.webview) {
    for (const f of r.host.webview.figures) {
      add('5 Webview', f.name, `median ${ms(f.medianMs)} (script ${ms(f.scriptMedianMs)}, the rest style and layout), max ${ms(f.maxMs)} (n=${f.runs})`);
    }
  } else {
    add('5 Webview', 'render, sort, filter', 'not measured (--no-host)');
  }

  // 7. Review Changes
  if (r.review) {
    add('7 Review', `Review Changes click → multi-file diff on screen, ${REVIEW_FILES} files, first click`, ms(r.review.firstMs));
    add('7 Review', `the same, later clicks (fetch again, diff again)`, formatSpread(r.review.later, 'ms', 0));
  } else {
    add('7 Review', 'Review Changes on a 50-file branch', 'not measured (--no-host)');
  }
  // 6. Readers
  for (const run of r.readers) {
    add(
      '6 Readers',
      `open 50 pages over an hour, ${run.paths.toLocaleString('en-US')} paths: requests (minimum; naive)`,
      `${run.requests} (${run.minimum}; ${run.naive}) → ours / minimum ${ratio(run.requests, run.minimum)}; ${run.rows.toLocaleString('en-US')} paths with readers`,
    );
  }
  const timing = r.host?.readers;
  if (timing) {
    add(
      '6 Readers',
      "opening a page → its status-bar figure, cold (the item's click: the writer loads the range)",
      `${formatSpread(spread(timing.coldMs), 'ms', 0)}, ${timing.coldRequests} requests each`,
    );
    add('6 Readers', 'opening a page → its status-bar figure, warm (kept snapshot)', formatSpread(spread(timing.warmMs), 'ms', 1));
  } else {
    add('6 Readers', 'opening a page → status-bar figure', 'not measured (--no-host)');
  }

  // 8. Reader signals
  for (const run of r.signals) {
    add(
      '8 Signals',
      `one snapshot, ${run.label}: requests (minimum; every row)`,
      `${run.requests} (${run.minimum}; ${run.fullMinimum}) → ours / minimum ${ratio(run.requests, run.minimum)}`,
    );
  }
  const health = r.host?.signals;
  add(
    '8 Signals',
    'opening a page → its health in the tooltip, warm (kept snapshots)',
    health ? formatSpread(spread(health.warmMs), 'ms', 1) : 'not measured (--no-host)',
  );
  const draw = health?.draw;
  add(
    '8 Signals',
    "drawing the Reader Signals view, large site: root and the three groups' rows",
    draw ? `${formatSpread(spread(draw.drawMs), 'ms', 1)} (${draw.rows.toLocaleString('en-US')} rows)` : 'not measured (--no-host)',
  );
  add(
    '8 Signals',
    'hovering a page row → its tooltip (resolveTreeItem), large site',
    draw ? formatSpread(spread(draw.hoverMs), 'ms', 2) : 'not measured (--no-host)',
  );

  // 9. Did It Help?: the merge lookup in local git
  for (const run of r.mergeTime ?? []) {
    add(
      '9 Merge lookup',
      `${run.found ? 'merged branch' : 'branch never merged'}, ${run.after.toLocaleString('en-US')} commits on main after the merge`,
      formatSpread(spread(run.ms), 'ms', 1),
    );
  }

  // 10. Paging that always ends
  for (const row of pagingRows(r.paging)) add('10 Paging', row.figure, row.value);

  // 11. Language model tools: what each reading tool puts in a model's context
  for (const run of r.lmTools ?? []) {
    for (const tool of run.sizes)
      add(
        '11 LM tools',
        `${tool.tool}, ${run.label}: characters`,
        tool.raw === tool.capped ? tool.raw.toLocaleString('en-US') : `${tool.raw.toLocaleString('en-US')} → ${tool.capped.toLocaleString('en-US')} (cut)`,
      );
  }

  // 12. Trend: requests a draw costs, and the draw in the real webview
  for (const run of r.trend ?? []) {
    for (const step of run.steps) {
      add(
        '12 Trend',
        `${run.label}, ${step.points} ${run.unit === 'day' ? 'daily' : 'weekly'} points, ${step.name}: requests (minimum; keeping nothing)`,
        `${step.requests} (${step.minimum}; ${step.naive})${step.minimum ? ` → ours / minimum ${ratio(step.requests, step.minimum)}` : ''}`,
      );
    }
  }
  for (const step of r.pageTrend ?? []) {
    add(
      '12 Trend',
      `Last 30 days, ${step.points} daily points, ${step.name}: requests (minimum; keeping nothing)`,
      `${step.requests} (${step.minimum}; ${step.naive})${step.minimum ? ` → ours / minimum ${ratio(step.requests, step.minimum)}` : ''}`,
    );
  }
  if (r.trend) {
    const draws = r.host?.webview?.trend;
    const baseline = draws?.find((f) => f.name.includes('(baseline)'));
    for (const f of draws ?? []) {
      const over = baseline && f !== baseline ? `; ${ms(f.medianMs - baseline.medianMs)} over the baseline` : '';
      add('12 Trend', f.name, `median ${ms(f.medianMs)} (script ${ms(f.scriptMedianMs)}, the rest style and layout${over}), max ${ms(f.maxMs)} (n=${f.runs})`);
    }
    if (!draws) add('12 Trend', 'drawing the trend in the webview', 'not measured (--no-host)');
  }

  // 13. The hour's gate: each action's requests against what it was allowed, at three states of the hour
  for (const line of hourGateLines(r.hourGate ?? [])) add('13 Hour gate', `${line.figure}: sent/allowed`, line.value);
  // 13. Send Review to Agent: one request for a review, against one per comment
  for (const row of reviewRequestsRows(r.reviewRequests ?? [])) add('14 Review', row.figure, row.value);
  for (const row of previewRequestsRows(r.previewRequests ?? [])) add('15 Preview', row.figure, row.value);
  for (const line of teamLines(r.team)) add('16 Team', line.figure, line.value);
  for (const line of soakLines(r.soak)) add('17 Soak', line.figure, line.value);
  for (const row of searchRequestsRows(r.searchRequests ?? [])) add('18 Search', row.figure, row.value);
  return out;
}

/** A plain-text table for the terminal. */
export function renderTable(r: BenchResults): string {
  const all = rows(r).map((row) => ({ ...row, figure: row.figure.replaceAll('`', '') }));
  const width = (key: keyof Row) => Math.max(key.length, ...all.map((row) => row[key].length));
  const [ws, wf] = [width('section'), width('figure')];
  const line = (row: Row) => `${row.section.padEnd(ws)}  ${row.figure.padEnd(wf)}  ${row.value}`;
  return [line({ section: 'section', figure: 'figure', value: 'value' }), '-'.repeat(ws + wf + 40), ...all.map(line)].join('\n');
}

export function renderMarkdown(r: BenchResults): string {
  const table = [
    '| | figure | value |',
    '|---|---|---|',
    ...rows(r).map((row) => `| ${row.section} | ${row.figure} | ${row.value.replaceAll('|', '\\|')} |`),
  ].join('\n');
  const sections = [
    activationSection,
    (results: BenchResults) => versionsSection(results.versions),
    freshnessSection,
    pollingSection,
    windowsSection,
    analyticsSection,
    webviewSection,
    readersSection,
    reviewSection,
    signalsSection,
    mergeTimeSection,
    (results: BenchResults) => pagingSection(results.paging),
    lmToolsSection,
    trendSection,
    (results: BenchResults) => hourGateSection(results.hourGate),
    (results: BenchResults) => reviewRequestsSection(results.reviewRequests),
    (results: BenchResults) => previewRequestsSection(results.previewRequests),
    (results: BenchResults) => teamSection(results.team),
    (results: BenchResults) => soakSection(results.soak),
    (results: BenchResults) => searchRequestsSection(results.searchRequests),
    findingsSection,
  ].map((section) => section(r));
  return `# Benchmarks

Written by \`npm run bench\` (bench/run.ts) on ${r.when.slice(0, 10)}: ${r.machine}; code-server ${r.codeServer}.
The whole run took ${Math.round(r.seconds)} s. Every figure below says how it was measured; re-run the command to reproduce
all of them (options: \`npm run bench -- --starts N --trials N --export-runs N --review-runs N --no-host --no-write\`, see bench/run.ts).
Load average (1 min) ${r.load.start.toFixed(2)} at the start and ${r.load.end.toFixed(2)} at the end, on ${r.load.cores} cores: the wall-clock figures (activation,
export rows per second, webview) slow down when other work shares the machine; request counts and the figures on the
simulated clock (freshness, polling) do not.

${table}

${sections.join('\n')}`;
}

function activationSection(r: BenchResults): string {
  const bundles = `- **Bundles**: bytes of out/bench/extension/dist/*.js, written by the project's own \`node esbuild.mjs --production\` (bench/build.mjs
  runs it in out/bench/extension so that dist/ is left alone; the bytes are the same), and of the same bytes through gzip
  level 9. **What weighs** in dist/extension.js is esbuild's own account of the same build (its metafile, written by
  \`node esbuild.mjs --production --metafile=…\`): the bytes each input left in the minified output, summed per library
  and per folder of src/, the ${BUNDLE_INPUTS_SHOWN} biggest in the table.

**Why one CommonJS file, above the 150 KB once aimed for** (measured 2026-11-26 on this machine, idle, with this
figure's \`--activation-only\` run, VS Code's loading marks, interleaved). Branch \`esm-split\` builds the extension as ESM
with esbuild's code splitting (VS Code 1.100, our engines floor, loads an .mjs main) and loads the analytics panel, the
tools' bodies, Review Changes, the signals' and jobs' commands and the API client with \`import()\` on first use: what
loads at activation falls from 256.6 KB in one file to 149.3 KB in 19 files (dist/extension.mjs and the 18 chunks it
imports). Loading got slower, not faster: median 102 ms (n=10) for the one CommonJS file, 131 ms (n=5) for the same
code as one ESM file, 166 ms (n=10) for the split; as a caller waits for activation, 72 ms against 136 ms. activate() and
start() did not change. VS Code's ESM path and the number of files cost more than the 107 KB saved, and in plain node
the same deferral built as CommonJS (the deferred modules' code not run until first use) loads no faster than today's
file (medians 66 and 66 ms, n=8). So the bundle stays one CommonJS file; its size is watched here.

**Its budget** is the bloat guard in esbuild.mjs, run by every release build and so by \`npm test\`: dist/extension.js
at most 420 KB, and no library in it that is not one of package.json's dependencies (or theirs). A change that adds
weight fails there and raises the number in a diff, with these rows beside it. It is not 280 KB, the figure once
asked for when the bundle was 300.7 KB: since then preview deployments, feedback on code blocks, the export that
goes on after a 429 and the readers' settled ranges added about 55 KB of code that runs, and what esbuild's table
blames is features, not waste (zod/mini and ky are 45 KB; the biggest file of src/ is 7.7 KB). Under 280 KB would
take about 80 KB of it loaded on first use instead, which the measurement above found slower in VS Code, not faster.
It went from 360 to 420 KB in one round (issues 47 to 50) for behaviour writers rely on, each measured in the rows above:
the shared state's fault handling (a replica that says when it could not write or read whole, capped and expiring waits),
Mintlify's own page, ignore and fence rules, a job's direct commits and the agent's instructions, build logs kept beside
the shared state with one fix in flight per build, and the site's search replayed before and after a fix.`;
  if (!r.host) return `## 1. Activation and bundles\n\nActivation was not measured in this run (\`--no-host\`).\n\n${bundles}\n`;
  const starts = r.host.starts;
  const enteredFirst = starts.filter((x) => !x.activeAtEntry).length;
  return `## 1. Activation and bundles

**Measured:** ${starts.length} fresh starts of a real VS Code (code-server ${r.codeServer}'s server and web workbench in
headless Chromium, started by test/host/host.ts), each with a new user-data-dir, server-data-dir, extensions dir and
workspace folder. The extension loaded is the release build (below), through the tests' entry: the manifest's main is
dist/extensionUnderTest.js, the same code minified the same way from test/support/extensionUnderTest.ts, whose
\`activate()\` returns the extension's parts to the bench (it adds only their getters; dist/extension.js, which ships, returns nothing). The settings point the extension at a simulator and
name a project; no API key is stored and no job is tracked (a fresh profile).

- **\`activate()\`**: VS Code's own performance marks in the extension host, \`code/extHost/willActivateExtension/<id>\` to
  \`didActivateExtension/<id>\`: the call of our \`activate(context)\` until what it returns has resolved. The marks are
  \`Date.now()\` values, so they have 1 ms resolution. **Loading** is \`willLoadExtensionCode\` to \`didLoadExtensionCode\`:
  the \`require\` of that bundle (zod/mini and ky included), which also covers VS Code building the \`vscode\` API
  object for the extension at its first \`require('vscode')\`. The bench's extensionTestsPath (bench/host/entry.ts)
  reads the marks from \`globalThis.MonacoPerformanceMarks\`, where the extension host keeps them.
  What \`activate()\` does: it registers every contributed command and the panel's serializer and returns. **start()**
  (src/extension.ts) builds the objects in the next turn of the event loop, or at once when a command comes first (a
  command that activated the extension finds its handler): output channel, settings, key store, API client, job store
  and tracker, the Agent Jobs view and status item, the readers' status item, Explorer marks and CodeLens, the reader
  signals' store and view; its time is \`performance.now()\` around it, read from the parts \`activate()\` returns to the bench. That turn is the
  only deferral: nothing waits longer to be built.
- **As a caller waits for it**: the entry calls \`extension.activate()\` itself when the extension is not active yet
  (VS Code activates it on \`onStartupFinished\`, which came after the entry in ${enteredFirst} of ${starts.length} starts) and
  times it with \`performance.now()\`: loading, VS Code building the ExtensionContext (storage, secrets), and \`activate()\`.
- **Requests**: the extension's own request log (every call of its API client, kept by the tests' entry) and the simulator's log, read
  ${s(starts[0]?.quietMs ?? 0)} after activation, past the job tracker's 1 s startup delay, its first chance to poll. A fresh profile has no
  key and no jobs, so this checks that activation itself sends nothing; the integration test \`activation\` asserts the
  same without timing.
${bundles}

Reproduce: \`npm run bench\` (needs code-server, installed on first use by test/host/codeServer.ts into .vscode-test/).
The server's and browser's output of every start goes to artifacts/bench/host.log.
`;
}

function freshnessSection(r: BenchResults): string {
  return `## 2. Status freshness

**Measured:** the extension's real \`StatusPoller\` with its shipped timings (every ${DEFAULT_TIMINGS.fastIntervalMs / 1000} s for the ${DEFAULT_TIMINGS.fastPhaseMs / 1000} s after a
create or follow-up, then the setting's default ${DEFAULT_TIMINGS.intervalMs / 1000} s; ${DEFAULT_TIMINGS.unfocusedFactor} times slower while the window is unfocused), wired as
\`JobTracker\` wires it, talking real HTTP through the real \`ApiClient\` to the real simulator. Poller and simulator share
one simulated clock (bench/simClock.ts): time jumps to the next timer only once every request in flight has been answered
and handled, so a request costs no simulated time and the figures are scheduling delay alone; each request's real
round trip (median ${ms(r.freshnessRequestMs)} here, from the client's own request log) comes on top. Each trial sends a real follow-up
(POST .../message) to a finished job, hands the job to the scheduler as JobTracker does after a prompt, and the job
finishes on the server at a random moment (seeded, so every run draws the same moments). The delay runs from the server's
change to the poll answer that shows it; from that answer the extension updates its job store, which refreshes the tree.
${r.freshness.map((p) => `- ${p.name}: change ${p.changeWindow}, ${p.trials} trials.`).join('\n')}

Percentiles are nearest-rank. Reproduce: \`npm run bench -- --no-host\` (seconds; no VS Code needed).
`;
}

function windowsSection(r: BenchResults): string {
  return `## 3b. Several windows, one client

**Scenario** (bench/windows.ts), one hour of simulated time run three times, with 1, 2 and 3 windows open on one project:
${WINDOWS_SCENARIO} Each window is the extension's own \`StatusPoller\` and \`SharedStore\` (lease, ledger, merge), wired as
\`JobTracker.followWindows\` wires them, on one simulated clock against the real HTTP simulator; the windows' files share
one in-memory folder. GETs and the agent requests the platform counts (sends; a status read is not counted) are counted by
the simulator; the ledger's count is what every window reads from the shared store at the end of the hour (they must be equal).

**Propagation**: ${r.windows.propagation.changes} changes written by one store over real files in a temp folder, shown by another that watches
the folder with node's \`fs.watch\` (standing in for VS Code's file watcher) and re-reads at least every second; wall-clock
time from the start of the write until the other store holds the change. In VS Code the watcher is
\`workspace.createFileSystemWatcher\` on \`globalStorageUri/sync\` with the same 1 s fallback read, so the bound is about 1 s.

**The shared file after a year** (bench/sharedFile.ts): ${SHARED_FILE_SCENARIO}. The state is pruned after each day as every
read prunes it (src/sync/trendBounds.ts: per project and metric 400 days and 110 calendar weeks; 200 other spans and 600
page-trend buckets, the least recently used first); the size is one window's file as the extension writes it (every window
writes its own, whole, at each heartbeat). "Every bound full" fills each kind to its bound. Reproduce: \`npm run bench -- --no-host\`.

**Propagation inside VS Code** (bench/windowsInVsCode.ts, ${r.windowsInVsCode ? `${r.windowsInVsCode.changes} changes` : 'not run: --no-host'}): two pages of one browser context (two windows, two extension hosts); A tracks a job from
the palette, a MutationObserver in each page notes when its status bar counts it; B's time minus A's covers A's write, VS Code's file watcher (or the 1 s fallback read), B's merge and B's status bar (goal: 2 s). Reproduce: \`npm run bench -- --no-host\` (files on disk), \`npm run bench -- --windows-only\` (both, with VS Code).
`;
}

function pollingSection(r: BenchResults): string {
  const { ours, naive, oracleMinimum, blindFloor } = r.hour;
  const noChange = ours.getRequests - ours.seen;
  return `## 3. Request economy of polling

**Scenario** (bench/pollingHour.ts), one hour of simulated time: ${SCENARIO_TEXT} Both schedulers run the same script
against their own simulator on their own simulated clock (as in figure 2), with the same job timelines; GET requests are
counted by the simulator. Both also send the same ${ours.postRequests} POSTs (the user's create and follow-ups), not counted above.

- **Ours**: \`StatusPoller\` as in figure 2, plus what \`JobTracker\` adds: a catch-up read of every unfinished job 1 s after
  activation, and \`setFocused\` on window focus changes.
- **Naive**: the platform docs' loop, per job: GET, then again every ${NAIVE_INTERVAL_MS / 1000} s until the job is finished. Charitably
  it stops at archived too (as src/jobs/jobStore.ts isTerminal does), waits ${NAIVE_INTERVAL_MS / 1000} s after a follow-up (the POST's answer is a
  fresh read) and never polls a job it already knows is finished, so the 44 finished jobs cost neither scheduler anything.
- **Minimum**: a clairvoyant scheduler that knows when each job finishes reads it once, right then: one request per
  change, ${oracleMinimum} in this hour (delay 0).
- **Floor for our delay bounds**: the fewest reads for a scheduler that, like every real client, does not know when a
  job will finish, yet guarantees what ours promises: a change at time t is seen by t + 5 s in the minute after a prompt,
  t + 60 s after that, four times those while unfocused, the steady bound stretched so the jobs running at once share
  60 reads an hour (the slower of the two applies), and a job found active at startup is read once right away. Reads
  are placed as late as those bounds allow and stop at the one that sees the change or at the end of the hour.

**Ratios:** ours / minimum = ${ratio(ours.getRequests, oracleMinimum)}; naive / ours = ${ratio(naive.getRequests, ours.getRequests)}; ours / floor = ${ratio(ours.getRequests, blindFloor)}.

**Why ours is above the minimum:** ${noChange} of our ${ours.getRequests} reads found the job unchanged. That is the price of not
knowing when a job finishes: the platform has no webhook or event (the admin OpenAPI, test/contract/spec/, defines none), so any client must look, and each
look that comes before the change finds nothing new. Against the floor, which keeps the same freshness without
clairvoyance, ours is at ${ratio(ours.getRequests, blindFloor)}: it spends no request beyond what its own delay bounds require (the small
differences come from where the fast phase ends while the window is unfocused, and the catch-up read on refocus, which
shows a change that happened while the window was away at once instead of within 60 s). The naive loop is fresher
(every change within ${NAIVE_INTERVAL_MS / 1000} s, ${ratio(naive.getRequests, ours.getRequests)} the requests) because it pays the fast-phase price for the whole life of every job.

Reproduce: \`npm run bench -- --no-host\`.
`;
}

function analyticsSection(r: BenchResults): string {
  const [session50, session250] = r.analytics.sessions;
  return `## 4. Request economy of analytics

**Session** (bench/analytics.ts): ${SESSION_TEXT} It runs through the real \`VisitorsPager\` (the panel's page memory, used the
way \`AnalyticsPanel\` uses it: memory first, then one shared request), the real \`fetchAllVisitors\` (the export), the real
\`ApiClient\` and the real simulator; requests are counted by the simulator. **Minimum**: every distinct page of the
session once, plus the export's pages of 250 rows that the session had not already fetched at that size. **No cache**:
the same session with a request for every page shown and an export at the panel's page size.
Rows per second: ${r.options.exportRuns} exports of the Last 90 days range (${r.analytics.exportRows.toLocaleString('en-US')} rows) one after another with the simulator delaying
every answer by ${LATENCY_MS} ms, timed with \`performance.now()\` around \`fetchAllVisitors\`; the simulator's data is built before.

**Ratios:** at the default ${session50?.pageSize} rows a page, ours / minimum = ${session50 ? ratio(session50.requests, session50.minimum) : '–'} (no cache would make ${session50?.naive}).
At ${session250?.pageSize} rows a page, ours / minimum = ${session250 ? ratio(session250.requests, session250.minimum) : '–'}: the export fetches its first page again although the panel
already holds that very page (same range, same size), because \`fetchAllVisitors\` reads the API directly, not the pager's memory.

**With the readers' snapshot:** the same session at ${DEFAULT_SESSION_PAGE_SIZE} rows a page, run through the panel's \`PanelPages\` and
\`SnapshotReuse\` after the readers status item fetched Last 30 days whole (${r.analytics.withReaders.readers} requests, as opening a docs page does),
costs the panel ${r.analytics.withReaders.panel} requests instead of ${r.analytics.withReaders.withoutReuse}: the Last 30 days pages come from that snapshot, so only Last 90 days
(its page 1 and its export) reaches the API.

Reproduce: \`npm run bench -- --no-host\`.
`;
}

function webviewSection(r: BenchResults): string {
  if (!r.host) return `## 5. Webview\n\nNot measured in this run (\`--no-host\`).\n`;
  return `## 5. Webview

**Measured** in the real workbench, on the last start of figure 1: the bench entry stores a key through the Set API Key
command (its input box answered) and runs Open Visitor Analytics; the panel loads its first page from the simulator. In the
webview's own document (the inner \`#active-frame\` of its iframe, reached through Playwright), a state message shaped exactly
as the extension posts it (\`ViewState\` from src/shared/protocol.ts) is dispatched as a \`message\` event, and the real sort
buttons and filter box are clicked and typed into. Each figure is a \`performance.measure\` between marks set just before the
message, click or input and just after the table is laid out (the webview's handlers run synchronously; a forced layout read
ends the span; a mark when the handler returns splits off the script's own share), read back with \`performance.getEntriesByType('measure')\`. Paint is not included; each run starts on a fresh
animation frame. "Render" posts a new page of data each time (new \`fetchedAt\`), so rows are built afresh, as after a real
load. The rows are the simulator's, 10,000 paths; the filter term is "${FILTER_TERM}" (${r.host?.webview?.filterMatches ?? '–'} matches). Note that the extension
never posts more than 250 rows (the API's largest page): 10,000 rows is the stress case the issue asks for; the webview
shows 500 of them and sorts and filters all.

The figure "state message with the same 250 rows" is what happens twice per page change: the panel posts its state with
\`loading\` on before each request (the old rows still in it) and again when the rows arrive; the webview re-sorts and
re-attaches the whole table both times, even when the rows did not change.

Reproduce: \`npm run bench\` (with \`--starts 1\` for this figure alone and one activation sample).
`;
}

function readersSection(r: BenchResults): string {
  const timing = r.host?.readers;
  return `## 6. Readers in the editor

**Requests**: ${READERS_TEXT} The real \`SnapshotStore\` and \`fetchSnapshot\` (src/analytics/visitorsSnapshot.ts) with the
default cap of 40 pages, the real ApiClient, the simulator counting requests; the clock is simulated so the hour passes at once.

**Time to the figure**: ${
    timing
      ? `in the real VS Code host, on the last start of figure 1 (simulator of 10,100 paths, no added latency): the bench entry writes a
docs.json and ${timing.warmMs.length + timing.coldMs.length} pages, opens each with \`showTextDocument\` and polls (every 5 ms) until the status item shows
that page's figure. Cold: the kept snapshots are cleared first and the writer clicks the item (Load readers: a page shown alone is background work, held to this machine's share of a few requests an hour, which a whole range of the 10,100-path data set passes), so the range is fetched (${timing.coldRequests} requests). Warm: the snapshot is kept.`
      : 'not measured in this run (`--no-host`).'
  }

Reproduce: \`npm run bench\` (\`--no-host\` for the request figures alone).
`;
}

function signalsSection(r: BenchResults): string {
  const health = r.host?.signals;
  const runs = r.signals
    .map(
      (run) =>
        `- ${run.label}: ${run.requests} requests, the minimum for the rows it keeps is ${run.minimum}, every row of every endpoint would take ${run.fullMinimum} (${run.rows.pending} pending feedback items, ${run.rows.turns} assistant turns, ${run.rows.searches} search terms, ${run.rows.views} pages with views).`,
    )
    .join('\n');
  return `## 8. Reader signals

**Requests**: ${SIGNALS_TEXT} The real \`fetchSnapshot\` (src/signals/snapshot.ts), the real ApiClient, the simulator counting requests.

${runs}

**Time to the health in the tooltip**: ${
    health
      ? `in the real VS Code host, on the last start of figure 1: after figure 6 (readers kept) the bench fetches the signals once (Fetch Reader
Signals, ${health.fetchRequests} requests), then opens ${health.warmMs.length} pages and polls (every 5 ms) until the page's status-bar tooltip holds its reader signals. No request is sent.`
      : 'not measured in this run (`--no-host`).'
  }

**Drawing the view**: ${
    health?.draw
      ? `in the same host (bench/host/signalsDraw.ts): a second simulator holds the large site, its snapshot is fetched once through the
real SignalsStore, and the real SignalsTreeProvider (with the window's job store and signal links) draws the root and the three
groups' ${health.draw.rows.toLocaleString('en-US')} rows as VS Code asks for them (getChildren, then getTreeItem for each row), ${health.draw.drawMs.length} times, each after
\`refresh()\` so the inbox, the ranking setting and the linked jobs are read afresh; \`performance.now()\` around each draw.
Tooltips are not part of a draw: VS Code asks for one on hover (\`resolveTreeItem\`), timed on ${health.draw.hoverMs.length} page rows.`
      : 'not measured in this run (`--no-host`).'
  }

Reproduce: \`npm run bench\` (\`--no-host\` for the request figures alone).
`;
}

function mergeTimeSection(r: BenchResults): string {
  return `## 9. Did It Help?: finding the merge in local git

${MERGE_TIME_TEXT} ${r.mergeTime?.length ? `${r.mergeTime[0].ms.length} lookups each.` : 'Not measured in this run.'}

Reproduce: \`npm run bench\` (it runs with \`--no-host\` too).
`;
}

function lmToolsSection(r: BenchResults): string {
  return `## 11. Language model tools: the size of each answer

${LM_TOOLS_TEXT} Lists are cut in src/tools/toolTexts.ts (10 rows, 5 question groups, 25 paths, 15 jobs, 120 characters
a quoted row) and reader text as in src/prompt/quotedEvidence.ts (8 items, 400 characters a quote); the whole answer at
\`MAX_RESULT_CHARS\`. ${r.lmTools?.length ? '' : 'Not measured in this run.'}

Reproduce: \`npm run bench\` (it runs with \`--no-host\` too).
`;
}

function trendSection(r: BenchResults): string {
  if (!r.trend?.length) return '## 12. Trend\n\nNot measured in this run.\n';
  const draws = r.host?.webview?.trend;
  return `## 12. Trend

**Requests** (bench/trend.ts): ${TREND_TEXT} Three ranges: twelve whole Monday-to-Sunday weeks as a custom range (weekly
points), Last 90 days (weekly points, the first week cut short) and Last 30 days (daily points). The real \`Trend\` and
\`TrendSeries\` draw each view (the user's Draw already given), fetching through the real ApiClient from the real simulator
over HTTP, one \`limit=1\` visitors request a bucket, through the panel's own src/analytics/trend/trendTotals.ts; the two windows
share one kept store, as every window shares WindowSync's. The clock is injected and fixed: the first view is at
${new Date(TREND_NOW).toISOString().replace('.000Z', 'Z')} (a Wednesday, the same calendar day on every clock from UTC−12 to UTC+11), so the figures do not depend on
the day the bench runs. Requests are counted by the simulator (visitors requests received). **Minimum**: one request per
bucket that no window fetched after it had settled (its last day over, and an hour of grace) or in the last 15 minutes;
the bench keeps its own account of what was fetched when. **Keeping nothing**: a request for every bucket at every view.
Today's bucket is kept in the shared store with its fetch time, so another window takes it for 15 minutes; the next day the buckets whose dates changed (yesterday's, fetched while still open; today's; and, when the range
moves, its first week cut short differently) are asked for.

${r.pageTrend ? PAGE_TREND_TEXT : '**Show Trend**: not measured in this run.'}

**Drawing**: ${
    draws
      ? `in the real webview of figure 5, the same way: a \`state\` message whose \`trend\` is \`ready\` (with the same 250 rows as
the message before it, so no row is built afresh) is dispatched into the webview's document, each run on a fresh frame, and
timed with \`performance.measure\` from a mark just before the message to one after a forced layout read of the chart (a mark
when the handler returns gives the script's share). Draws alternate with the baseline, the same message without a trend,
so each builds the SVG chart and its text table (#trend-table) afresh. Most of a message's time is the panel's own: the
table re-sorts and re-attaches its 250 rows at every state message (figure 5), so the trend's share is the difference from
the baseline. The points are made up (figures that rise and fall, the last one open); 90 daily points is more than the
panel draws (a point a day up to 31 days), 52 weekly ones about its most (53).`
      : 'not measured in this run (`--no-host`).'
  }

Reproduce: \`npm run bench\` (\`--no-host\` for the request figures alone).
`;
}

function findingsSection(r: BenchResults): string {
  const { ours } = r.hour;
  const session250 = r.analytics.sessions[1];
  return `## What spends requests or time that it need not

- **Polling against a budget.** In the scripted hour ours made ${ours.getRequests} GET requests, with at most ${r.hour.maxActive} jobs active at once.
  The simulator rate-limits only POSTs; if the platform's "100 agent requests per project per
  hour" counts GETs too, two jobs active for an hour at the default interval spend more than all of it (60 reads an hour
  each while focused). \`StatusPoller\` keeps no budget across jobs: the steady interval does not stretch with the number of
  active jobs or with a job's age.
- **Several windows, one project.** Each VS Code window runs its own \`JobTracker\`, so two windows on the same project poll
  the same jobs twice. Not measured here (one window per start).
- **Export after paging at 250 rows a page** fetches again the page the panel already holds (1 request in this session,
  ${session250 ? ratio(session250.requests, session250.minimum) : '–'} of the minimum): the export reads the API directly, not the pager's memory, and leaves nothing there.
- **The webview re-renders unchanged rows** on every state message (figure 5): a page change lays the old table out once
  more before the new rows arrive.
`;
}

function reviewSection(r: BenchResults): string {
  return `## 6. Review Changes on a branch of ${REVIEW_FILES} files

bench/review.ts makes a bare repository on disk from the test fixture (test/support/gitRepo.ts), pushes a branch that adds
${REVIEW_FILES - 3} pages of 40 paragraphs, changes one, renames one and deletes one, and opens a clone of it in a fresh VS Code
(code-server + headless Chromium). Playwright sets the key, tracks the completed job whose \`source\` is that repository and
branch, then clicks the tree's Review Changes button and stops the clock when the editor tab says "(${REVIEW_FILES} files)" and the
first file's diff shows text. Each click fetches the branch again, finds the merge base and lists the changes again
(real git); editors are closed between clicks. ${r.review ? `First click ${ms(r.review.firstMs)}; later ones ${formatSpread(r.review.later, 'ms', 0)}.` : 'Not measured in this run (--no-host).'}

Reproduce: \`npm run bench\` (or \`--review-runs N\`); the host's output goes to artifacts/bench/review.log.
`;
}
