// `npm start`: the extension in a real VS Code (code-server's web workbench) that you open in your
// own browser, against the API simulator and its demo data set. No account, no internet.
//   npm start                      the simulator: jobs in every state, 90 days of visitors
//   npm start -- --real            the real API (https://api.mintlify.com); bring your own key and project ID
//   MINTLIFY_DEMO_REAL=1 npm start  the same
// Everything listens on 127.0.0.1 only. Ctrl+C stops everything this started (processGuard).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCodeServer, findRepoRoot } from './host/codeServer';
import { startHost, type ServerHost } from './host/host';
import { guard } from './host/processGuard';
import { DEMO_API_KEY, seedDemo, type DemoJob } from './simulator/demo';
import { DEFAULT_PROJECT, startSimulator, type Simulator } from './simulator/server';

const REAL_API = 'https://api.mintlify.com';
const API_KEYS_PAGE = 'https://app.mintlify.com/settings/organization/api-keys';
/** How often to check that code-server is still there, so that a crash does not leave a dead URL. */
const WATCHDOG_MS = 2_000;

const USAGE = `Usage: npm start [-- --real]
  (no option)  VS Code in your browser with the extension, against the API simulator and demo data
  --real       against the real Mintlify API instead (or MINTLIFY_DEMO_REAL=1); you need your own
               admin API key and project ID
  --help       show this help`;

const repoRoot = findRepoRoot(__dirname);
const logFile = path.join(repoRoot, 'artifacts', 'demo', 'demo.log');
const say = (line = ''): void => void process.stdout.write(`${line}\n`);
const toLog = (line: string): void => fs.appendFileSync(logFile, `${line}\n`);

function parseArgs(args: readonly string[]): { real: boolean } | 'help' {
  let real = process.env.MINTLIFY_DEMO_REAL === '1';
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--real') real = true;
    else throw new UsageError(`Unknown option ${JSON.stringify(arg)}`);
  }
  return { real };
}

class UsageError extends Error {}

/** What the demo made besides the host (which guards itself): the simulator and the workspace copy. */
class DemoResources {
  sim: Simulator | undefined;
  workspace: string | undefined;
  /** Notices a code-server that died on its own; cleared first on a stop, which kills it on purpose. */
  watchdog: NodeJS.Timeout | undefined;
  private readonly unguard = guard(this);

  async stop(): Promise<void> {
    clearInterval(this.watchdog);
    try {
      await this.sim?.close();
    } finally {
      this.killNow();
      this.unguard();
    }
  }

  /** Synchronous, for process exit: the simulator dies with this process anyway. */
  killNow(): void {
    if (this.workspace) fs.rmSync(this.workspace, { recursive: true, force: true });
  }
}

/** A copy of the fixture workspace; with a project ID in its settings for the simulator's project. */
function demoWorkspace(projectId: string | undefined): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-demo-'));
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'workspace'), folder, { recursive: true });
  if (projectId) {
    fs.mkdirSync(path.join(folder, '.vscode'));
    fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), `${JSON.stringify({ 'mintlifyAgent.projectId': projectId }, null, 2)}\n`);
  }
  return folder;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options === 'help') return say(USAGE);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, `npm start, ${new Date().toISOString()}\n`);

  const resources = new DemoResources();
  // The first run installs code-server (about a minute): its progress goes to the terminal.
  const serverMain = await ensureCodeServer(
    (line) => {
      toLog(line);
      say(line);
    },
    { repoRoot },
  );

  let jobs: DemoJob[] = [];
  if (!options.real) {
    // A few hundred paths over 90 days: the panel's presets all have data, exports stay small.
    resources.sim = await startSimulator({ projects: [DEFAULT_PROJECT], pathCount: 400, days: 90 });
    jobs = seedDemo(resources.sim, DEFAULT_PROJECT);
  }
  resources.workspace = demoWorkspace(options.real ? undefined : DEFAULT_PROJECT);

  const host = await startHost({
    browser: false,
    // The URL carries a secret token: no other user or process on this machine can drive a
    // workbench that may hold a real admin key (--real).
    connectionToken: randomBytes(18).toString('base64url'),
    workspaceFolder: resources.workspace,
    extensionDevelopmentPath: repoRoot,
    serverMain,
    // apiBaseUrl is read from user settings only (a workspace must not redirect the key).
    userSettings: resources.sim ? { 'mintlifyAgent.apiBaseUrl': resources.sim.url } : {},
    log: toLog,
    output: (source, line) => toLog(`[${source}] ${line}`),
  });

  printInstructions(host, resources.sim, jobs);
  resources.watchdog = setInterval(() => {
    if (host.serverAlive()) return;
    clearInterval(resources.watchdog);
    say(`code-server stopped unexpectedly; its output is in ${logFile}.`);
    void Promise.allSettled([host.stop(), resources.stop()]).then(() => process.exit(1));
  }, WATCHDOG_MS);
  // Ctrl+C: processGuard stops the host and the resources, then exits.
}

function printInstructions(host: ServerHost, sim: Simulator | undefined, jobs: readonly DemoJob[]): void {
  say();
  say('Mintlify Agent & Analytics is running in VS Code. Open this in your browser:');
  say();
  say(`  ${host.url}`);
  say();
  if (sim) {
    say('Then click the Mintlify icon in the activity bar, click Set API Key and paste the demo key:');
    say();
    say(`  ${DEMO_API_KEY}`);
    say();
    say(`The workspace's project ID is already set (${DEFAULT_PROJECT}). Start a job (it finishes in about 30 s),`);
    say('or click Track Job… and paste one of these (jobs in every state, some still running):');
    for (const { job, prompt, note } of jobs) say(`  ${job.id}  ${truncate(prompt, 60)}${note ? `\n${' '.repeat(job.id.length + 4)}(${note})` : ''}`);
    say('The graph icon opens Visitor Analytics: 400 paths over 90 days, humans and AI agents.');
    say();
    say(`Everything listens on 127.0.0.1 only: VS Code on port ${host.port}, the API simulator on port ${new URL(sim.url).port}.`);
  } else {
    say(`This window talks to the real Mintlify API (${REAL_API}). You need your own admin API key and`);
    say(`project ID, both on the dashboard's API keys page (${API_KEYS_PAGE}):`);
    say('click the Mintlify icon, then Set API Key and Set Project ID.');
    say();
    say(`VS Code listens on 127.0.0.1 only, port ${host.port}. Its profile is temporary and removed on Ctrl+C.`);
  }
  say(`Log: ${path.relative(process.cwd(), logFile) || logFile}. Press Ctrl+C to stop.`);
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`The demo could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  // 'exit' runs processGuard's synchronous kill of whatever had started.
  process.exit(1);
});
