/**
 * Everything the UI tier runs against, started in the mocha process: the API simulator, a fresh
 * copy of the fixture workspace (no project ID: the person sets it through the welcome view), and
 * a live Extension Development Host (code-server + headless Chromium, no test entry) whose user
 * settings point the extension at the simulator. stop() undoes all of it and is safe to call
 * after a start that failed half-way.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureRelease, findRepoRoot, FLOOR_RELEASE, TODAY_RELEASE } from '../host/codeServer';
import { startHost, type Host } from '../host/host';
import { DEFAULT_PROJECT, startSimulator, type Simulator } from '../simulator/server';
import { makeTestRepository, type TestRepository } from '../support/gitRepo';
import { waitFor } from '../support/waitFor';
import { activationsLogged } from './hostLogs';
import { Workbench } from './workbench';

export const PROJECT = DEFAULT_PROJECT;

/**
 * Set by test/run.ts's `today` tier: the folder of the packaged `.vsix` (test/host/vsix.ts). With it
 * the session runs today's VS Code (code-server 1.139, which ignores a development extension) with
 * that folder installed, as a user installs the extension; without it, the engine floor (1.100)
 * with the checkout loaded as the development extension.
 */
export const INSTALLED_EXTENSION_ENV = 'MINTLIFY_UI_INSTALLED_EXTENSION';

/** Screenshots, the host log and failure captures, git-ignored: artifacts/ui, or artifacts/ui-today for today's VS Code. */
export const ARTIFACTS_DIR = path.join(findRepoRoot(__dirname), 'artifacts', process.env[INSTALLED_EXTENSION_ENV] ? 'ui-today' : 'ui');

/** Copies a screenshot into media/screenshots/ for the README, which shows the floor's workbench (1.100); today's run keeps its own in ARTIFACTS_DIR. */
export function keepForReadme(shot: string, name: string): void {
  if (process.env[INSTALLED_EXTENSION_ENV]) return;
  fs.copyFileSync(shot, path.join(findRepoRoot(__dirname), 'media', 'screenshots', name));
}

/**
 * Jobs stay active this long after a start or a follow-up: longer than the 5 s between polls in a
 * job's first minute, so the first poll still finds it active (the spinning icon stays on screen
 * while the test looks) and the second, about 10 s after the prompt, finds it completed.
 */
export const JOB_DURATION_MS = 6_000;

/** A second root beside the first, in a multi-root workspace: its own copy of the fixture, its settings naming `project`. */
export interface SecondRoot {
  project: string;
}

/** What VS Code's workbench logs when the remote extension host did not start in time (it then runs without one). */
const EXTENSION_HOST_LATE = 'remote extension host took longer than 60s to send its ready message';
/** Longer than the 60 s VS Code waits for the extension host, plus its activation of the extension. */
const EXTENSION_HOST_START_MS = 150_000;

export class UiSession {
  private host: Host | undefined;
  /** Set when the workbench said the extension host missed its start (EXTENSION_HOST_LATE). */
  private extensionHostLate = false;
  /** The folder the workbench has open: a fresh copy of test/fixtures/workspace. */
  workspaceFolder = '';
  /** With a SecondRoot: the second folder of the multi-root workspace. */
  secondFolder = '';
  /** The workspace's origin: a bare repository on disk (test/support/gitRepo.ts). */
  repository: TestRepository | undefined;
  private simulator: Simulator | undefined;
  private readonly logFile = path.join(ARTIFACTS_DIR, 'host.log');

  private constructor(
    private readonly extraSettings: Record<string, unknown> = {},
    /** Folders of more extensions installed beside ours (a test harness's own, e.g. test/fixtures/lm-tool-invoker). */
    private readonly extraExtensions: readonly string[] = [],
    private readonly secondRoot?: SecondRoot,
  ) {}

  static async start(
    progress: (line: string) => void,
    userSettings: Record<string, unknown> = {},
    extraExtensions: readonly string[] = [],
    secondRoot?: SecondRoot,
  ): Promise<UiSession> {
    const session = new UiSession(userSettings, extraExtensions, secondRoot);
    try {
      await session.init(progress);
      return session;
    } catch (error) {
      await session.stop();
      throw error;
    }
  }

  get sim(): Simulator {
    if (!this.simulator) throw new Error('The simulator is not running.');
    return this.simulator;
  }

  /** The workbench's URL: another page opening it in the same browser context is a second window. */
  get url(): string {
    if (!this.host) throw new Error('The host is not running.');
    return this.host.url;
  }

  get userDataDir(): string {
    if (!this.host) throw new Error('The host is not running.');
    return this.host.userDataDir;
  }

  get workbench(): Workbench {
    if (!this.host) throw new Error('The host is not running.');
    return new Workbench(this.host.page, ARTIFACTS_DIR);
  }

  async stop(): Promise<void> {
    try {
      await this.host?.stop();
    } finally {
      this.host = undefined;
      await this.simulator?.close();
      this.simulator = undefined;
      if (this.workspaceFolder) fs.rmSync(path.dirname(this.workspaceFolder), { recursive: true, force: true });
      if (this.repository) fs.rmSync(path.dirname(this.repository.bare), { recursive: true, force: true });
    }
  }

  private async init(progress: (line: string) => void): Promise<void> {
    // Old screenshots are cleared once per run by test/run.ts (each suite is its own bundle, so a
    // flag here would clear them once per suite and lose an earlier suite's failure captures).
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    fs.appendFileSync(this.logFile, `\nUI session, ${new Date().toISOString()}\n`);
    const log = (line: string): void => fs.appendFileSync(this.logFile, `${line}\n`);

    // The first run installs code-server (one to three minutes): say so on the terminal.
    const repoRoot = findRepoRoot(__dirname);
    const installedExtension = process.env[INSTALLED_EXTENSION_ENV];
    const release = installedExtension ? TODAY_RELEASE : FLOOR_RELEASE;
    const codeServer = await ensureRelease(
      release,
      (line) => {
        log(line);
        progress(line);
      },
      { repoRoot },
    );
    log(
      `VS Code ${release.vscode} (code-server ${release.codeServer}), the extension ${installedExtension ? `installed from ${installedExtension}` : 'under development'}`,
    );

    // A small data set: 400 paths keep the CSV export to two requests of 250 rows.
    this.simulator = await startSimulator({
      projects: [PROJECT, ...(this.secondRoot ? [this.secondRoot.project] : [])],
      jobDurationMs: JOB_DURATION_MS,
      pathCount: 400,
      days: 90,
    });

    // A clone of a bare repository made from the fixture, with an agent branch to review.
    this.workspaceFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-ui-ws-')), 'docs-site');
    this.repository = makeTestRepository(path.join(repoRoot, 'test', 'fixtures', 'workspace'), this.workspaceFolder);
    const workspaceFile = this.secondRoot && this.makeSecondRoot(path.join(repoRoot, 'test', 'fixtures', 'workspace'), this.secondRoot);

    this.host = await startHost({
      workspaceFolder: this.workspaceFolder,
      workspaceFile,
      extensionDevelopmentPath: installedExtension ? undefined : repoRoot,
      installedExtensions: [...(installedExtension ? [installedExtension] : []), ...this.extraExtensions],
      serverMain: codeServer.serverMain,
      node: codeServer.node,
      // View actions always on screen: a person sees them on hover, Playwright needs them without one.
      userSettings: { 'mintlifyAgent.apiBaseUrl': this.simulator.url, 'workbench.view.alwaysShowHeaderActions': true, ...this.extraSettings },
      log,
      output: (source, line) => {
        if (source === 'browser' && line.includes(EXTENSION_HOST_LATE)) this.extensionHostLate = true;
        log(`[${source}] ${line}`);
      },
    });
    // Wide enough for the sidebar, an editor and the analytics table side by side.
    await this.host.page.setViewportSize({ width: 1280, height: 800 });
    await this.waitForActivation(progress);
    await this.workbench.hideSecondarySideBarIfShown();
    log(`Workbench: ${this.host.url}`);
  }

  /**
   * Waits until the window's extension host has activated the extension. VS Code gives a remote
   * extension host 60 s to say it is ready, then leaves the window without one; on a loaded 2-core
   * machine node 24 (today's VS Code) has missed that. The window is then reloaded once, as a person
   * would, with a line on the output.
   */
  private async waitForActivation(progress: (line: string) => void): Promise<void> {
    const activated = () => activationsLogged(this.userDataDir) > 0;
    await waitFor('the extension activated, or VS Code giving up on the extension host', () => activated() || this.extensionHostLate, EXTENSION_HOST_START_MS);
    if (activated()) return;
    progress('(the extension host did not start within the 60 s VS Code gives it: reloading the window once)');
    this.extensionHostLate = false;
    await this.workbench.reload();
    await waitFor('the extension activated after the reload', activated, EXTENSION_HOST_START_MS);
  }

  /** A second copy of the fixture beside the first, naming its own project, and the workspace file that opens both. */
  private makeSecondRoot(fixture: string, root: SecondRoot): string {
    const parent = path.dirname(this.workspaceFolder);
    this.secondFolder = path.join(parent, 'docs-site-b');
    fs.cpSync(fixture, this.secondFolder, { recursive: true });
    fs.mkdirSync(path.join(this.secondFolder, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(this.secondFolder, '.vscode', 'settings.json'), JSON.stringify({ 'mintlifyAgent.projectId': root.project }, null, 2));
    const file = path.join(parent, 'docs.code-workspace');
    fs.writeFileSync(file, JSON.stringify({ folders: [{ path: this.workspaceFolder }, { path: this.secondFolder }] }, null, 2));
    return file;
  }
}

/**
 * For a suite whose steps build on each other (several windows, the walkthrough): once a step
 * fails, the later steps of that suite are not run (they count as failed, and the run says so)
 * instead of each waiting out its bounds on a state that never came. The other suites still run.
 */
/** After each failed step, a screenshot of the workbench named `<name>-failed-<step title>` (best effort: a closed page takes none). */
export function screenshotOnFailure(name: string, workbench: () => Workbench | undefined): void {
  afterEach(async function () {
    const wb = workbench();
    if (this.currentTest?.state !== 'failed' || !wb || wb.page.isClosed()) return;
    await wb.screenshot(`${name}-failed-${this.currentTest.title.replace(/[^\w]+/g, '-').slice(0, 50)}`).catch(() => undefined);
  });
}

export function stepsBuildOnEachOther(): void {
  let failed: string | undefined;
  beforeEach(function () {
    if (failed) throw new Error(`not run: step "${failed}" failed, and the steps of this suite build on each other.`);
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') failed ??= this.currentTest.title;
  });
}
