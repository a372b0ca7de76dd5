// Shared helpers for the suites that run inside the real VS Code host.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { MessageLevel, Ui } from '../../src/ui';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server';
import { waitFor } from '../support/waitFor';
import { DEFAULT_TIMINGS } from '../../src/jobs/pollTimings';
import { settledRange } from '../../src/readers/settledRanges';
import { localToday } from '../../src/util/days';
import { TEAMMATES_WAIT } from '../../src/sync/sharedWaits';
import type { ResolvedRange } from '../../src/analytics/dateRange';
import type { SnapshotKey } from '../../src/analytics/visitorsSnapshot';

export const EXTENSION_ID = 'mintlify-agent-analytics.mintlify-agent-analytics';
export const PROJECT = 'demo-project';
export const KEY = 'mint_integration_test_key';

/** Test-scale poll timings: the same scheduler, a minute shrunk to about a second. */
export const FAST_POLL_TIMINGS = {
  ...DEFAULT_TIMINGS,
  fastIntervalMs: 100,
  fastPhaseMs: 1_500,
  intervalMs: 500,
  backoffBaseMs: 200,
  backoffMaxMs: 1_000,
  unfocusedFactor: 1,
  steadyReadsPerHour: 1_000_000,
};

export async function seam(): Promise<TestSeam> {
  const extension = vscode.extensions.getExtension<TestSeam | undefined>(EXTENSION_ID);
  assert.ok(extension, 'the extension is installed');
  const exports = extension.isActive ? extension.exports : await extension.activate();
  assert.ok(exports, 'the extension under test (out/test/extension, test/support/extensionUnderTest.ts) returns its parts');
  return exports;
}

// The one bounded wait of the tests, for the host tests that import it from here.
export { waitFor };

export interface ShownMessage {
  level: MessageLevel;
  message: string;
  actions: string[];
}

/**
 * Stands in for the user: answers input boxes and quick picks from a script and records every
 * message. Whatever the script does not expect fails the test instead of hanging it.
 */
export class ScriptedUser {
  readonly messages: ShownMessage[] = [];
  readonly inputBoxes: vscode.InputBoxOptions[] = [];
  readonly opened: string[] = [];
  /** Every progress message reported, in order (a countdown shows here). */
  readonly progressReports: string[] = [];
  private readonly inputs: ((options: vscode.InputBoxOptions) => string | undefined)[] = [];
  private readonly picks: ((items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined)[] = [];
  private readonly saves: (vscode.Uri | undefined)[] = [];
  private readonly saved = new Map<keyof Ui, unknown>();
  /** Press Cancel on the next progress notification after this many progress reports. */
  cancelAfterReports: number | undefined;
  /** The Cancel buttons of the progress notifications showing now. */
  private readonly showing = new Set<vscode.CancellationTokenSource>();
  /** Which button to press on a message; default: dismiss it. */
  answerMessage: (message: ShownMessage) => string | undefined | Promise<string | undefined> = () => undefined;

  constructor(private readonly ui: Ui) {
    const patch = <K extends keyof Ui>(name: K, replacement: Ui[K]) => {
      this.saved.set(name, ui[name]);
      ui[name] = replacement;
    };
    patch('showMessage', async (level, message, ...actions) => {
      const shown = { level, message, actions };
      this.messages.push(shown);
      return this.answerMessage(shown);
    });
    patch('showInputBox', async (options) => {
      this.inputBoxes.push(options);
      const answer = this.inputs.shift();
      if (!answer) throw new Error(`unexpected input box: ${options.title ?? options.prompt}`);
      const value = answer(options);
      // Like the real box: Enter is refused while validateInput returns a message.
      if (value !== undefined) {
        const problem = await options.validateInput?.(value);
        if (problem) throw new Error(`the input box refused ${JSON.stringify(value.slice(0, 40))}: ${typeof problem === 'string' ? problem : problem.message}`);
      }
      return value;
    });
    patch('showQuickPick', (async (items: readonly vscode.QuickPickItem[]) => {
      const answer = this.picks.shift();
      if (!answer) throw new Error('unexpected quick pick');
      return answer(items);
    }) as Ui['showQuickPick']);
    patch('withProgress', (_options, task) => {
      // Like pressing Cancel on the notification once it has reported `cancelAfterReports` times.
      const cancel = new vscode.CancellationTokenSource();
      let reports = 0;
      const progress = {
        report: (value: { message?: string }) => {
          if (value.message) this.progressReports.push(value.message);
          if (this.cancelAfterReports !== undefined && ++reports >= this.cancelAfterReports) cancel.cancel();
        },
      };
      this.showing.add(cancel);
      const done = () => this.showing.delete(cancel);
      const running = task(progress, cancel.token);
      // Bookkeeping only: the caller awaits `running` itself and sees its outcome.
      void running.then(done, done);
      return running;
    });
    patch('showSaveDialog', async () => {
      if (!this.saves.length) throw new Error('unexpected save dialog');
      return this.saves.shift();
    });
    patch('openExternal', async (uri) => {
      this.opened.push(uri.toString(true));
      return true;
    });
  }

  /** Queues an answer for the next input box (a value, or undefined for Escape). */
  type(answer: string | undefined | ((options: vscode.InputBoxOptions) => string | undefined)): this {
    this.inputs.push(typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  pick(choose: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined): this {
    this.picks.push(choose);
    return this;
  }

  /** Queues the file the next save dialog returns (undefined for Cancel). */
  saveAs(uri: vscode.Uri | undefined): this {
    this.saves.push(uri);
    return this;
  }

  /** Presses Cancel on every progress notification showing now (say, once the test sees git waiting). */
  pressCancel(): void {
    for (const cancel of this.showing) cancel.cancel();
  }

  lastMessage(): ShownMessage | undefined {
    return this.messages.at(-1);
  }

  restore(): void {
    for (const [name, original] of this.saved) (this.ui as unknown as Record<string, unknown>)[name] = original;
    assert.equal(this.inputs.length + this.picks.length + this.saves.length, 0, 'every scripted answer was used');
  }
}

/**
 * For a suite whose steps build on each other, as a writer's session does: each step gets a new
 * scripted user (handed to `onUser`, restored after it), and once a step fails the later ones are
 * skipped (test/run.ts counts a skipped test as failed).
 */
export function stepsBuildOnEachOther(seamOf: () => TestSeam, onUser: (user: ScriptedUser) => void): void {
  let failed = false;
  let user: ScriptedUser | undefined;
  beforeEach(function () {
    if (failed) this.skip();
    user = new ScriptedUser(seamOf().ui);
    onUser(user);
  });
  afterEach(function () {
    user?.restore();
    if (this.currentTest?.state === 'failed') failed = true;
  });
}

export async function withSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ projects: [PROJECT, 'other-project'], ...options });
  await vscode.workspace.getConfiguration('mintlifyAgent').update('apiBaseUrl', sim.url, vscode.ConfigurationTarget.Global);
  return sim;
}

export async function setProject(projectId: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('mintlifyAgent').update('projectId', projectId, vscode.ConfigurationTarget.Workspace);
}

/**
 * Sets (or, with undefined, clears) a user setting and waits until this extension host reads it:
 * the write resolves before the host's copy of the settings may have changed. Both tests that set a
 * 1 s deadline before a stalled request timed out once on a loaded machine, the stall lasting the 30 s default.
 */
export async function setUserSetting(key: string, value: unknown): Promise<void> {
  const config = () => vscode.workspace.getConfiguration('mintlifyAgent');
  await config().update(key, value, vscode.ConfigurationTarget.Global);
  await waitFor(`mintlifyAgent.${key} to read ${JSON.stringify(value)}`, () => config().inspect(key)?.globalValue === value);
}

/** Visitors requests that reached the simulator. */
export const visitorRequests = (sim: Simulator) => sim.requests.filter((r) => r.rawPath.endsWith('/visitors')).length;

/** A status-bar tooltip as it reads: appendText() escapes spaces and punctuation in the Markdown source. */
export const tooltipText = (tooltip: vscode.MarkdownString | string | undefined) =>
  (typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '')).replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');

/**
 * The commands the menus of a job's row offer: each `when` clause of the Agent Jobs view whose
 * `viewItem =~ /…/` matches the row's contextValue (other context keys in the clause not weighed).
 */
export function rowCommands(contextValue: string | undefined): string[] {
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
    contributes: { menus: Record<string, { command: string; when?: string }[]> };
  };
  const shown = manifest.contributes.menus['view/item/context'].filter((m) => {
    const pattern = m.when?.startsWith('view == mintlifyAgent.jobs ') ? /viewItem =~ \/(.+?)\/(?= |$)/.exec(m.when)?.[1] : undefined;
    return pattern !== undefined && new RegExp(pattern).test(String(contextValue));
  });
  return [...new Set(shown.map((m) => m.command))];
}

export function requestsTo(sim: Simulator, method: string, pathEnd: string) {
  return sim.requests.filter((r) => r.method === method && decodeURIComponent(r.rawPath).endsWith(pathEnd));
}

/** Stores the test key the way a person does: Set API Key, with the key typed into its box. */
export async function signIn(s: TestSeam): Promise<void> {
  const user = new ScriptedUser(s.ui);
  try {
    user.type(KEY);
    await vscode.commands.executeCommand('mintlifyAgent.setApiKey');
  } finally {
    user.restore();
  }
  // The key's bucket in the shared ledger is named in the background: until then the hour's count is
  // unknown, and a writer's fetch would ask about that first (a question no step here answers).
  await waitFor('the hour’s count known after signing in', () => s.gate.used() !== undefined);
}

/** Leaves the window as the other files expect it: no editors, no jobs polling, no project, no key. */
export async function leaveWindowClean(s: TestSeam): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  for (const tracked of s.jobs.all()) await s.tracker.stopTracking(tracked.id);
  await setProject(undefined);
  await vscode.commands.executeCommand('mintlifyAgent.clearApiKey');
}

/**
 * Forgets the analytics requests the shared ledger holds and any 429 wait (as an hour later): what
 * earlier suites spent, or a Retry-After they provoked, must not refuse or delay this suite's requests.
 */
export async function freshAnalyticsHour(s: TestSeam): Promise<void> {
  await s.sync.update((state) => {
    // The key's bucket, this machine's background share of it, and the reservations released in them.
    for (const area of [state.ledger, state.released]) for (const bucket of Object.keys(area)) if (/^(analytics|background):/.test(bucket)) delete area[bucket];
    // A 429's wait, and the teammates' 429 an earlier suite's export met (it holds background work for its wait).
    delete state.waits.analytics;
    delete state.waits[TEAMMATES_WAIT];
  });
  await waitFor(
    'an empty analytics hour',
    () => s.sync.ledger.analyticsRequestsThisHour() === 0 && s.sync.ledger.familyWaitMs('analytics') === 0 && s.sync.ledger.account.teammatesSeenUntil() === 0,
  );
  // The gate counts this window's requests still on their way too: a request that never ended would show here.
  await waitFor(`the hour's gate to see all 100 left (it sees ${String(s.gate.left())})`, () => s.gate.left() === 100);
}

/** Analytics requests other windows reserved this hour: in this window's ledger at once, each written and read back by the promise's end. */
export async function spendHour(s: TestSeam, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => s.sync.ledger.account.reserve(Number.POSITIVE_INFINITY)));
}

/** Forgets every trend point the windows keep (as a new profile): a suite that counts a trend's requests starts from none kept. */
export async function forgetTrends(s: TestSeam): Promise<void> {
  await s.sync.update((state) => {
    state.trends = {};
    state.openTrends = {};
  });
  await waitFor(
    'no trend kept',
    () => Object.keys(s.sync.trends.keptTrends(PROJECT)).length === 0 && Object.keys(s.sync.trends.openTrends(PROJECT)).length === 0,
  );
}

/** The settled range background readers fetch for the current preset (its days ending yesterday), and its snapshot key. */
export function backgroundRange(s: TestSeam): { range: ResolvedRange; key: SnapshotKey } {
  const now = s.readers.pageReaders.current();
  assert.ok(now, 'a project and a key are set');
  const range = settledRange(now.preset, localToday(), vscode.l10n);
  return { range, key: { projectId: now.key.projectId, dateFrom: range.dateFrom, dateTo: range.dateTo } };
}
