// The team figure's one adapter to the extension: a teammate's machine built from the extension's
// own modules, wired as src/extension.ts start() wires them (one window: its WindowSync over its own
// shared-state folder, the API client counting in that window's ledger and holding back a family
// after a 429, the hour's gate, the readers, the signals store, the panel's trend and the
// exporter), and the writer's actions as the extension's commands and views call them. Every
// contact with the extension's API is in this file, so a change of those modules is followed here
// alone; bench/teamDay.ts drives the day and counts at the simulator.
//
// What each action says back is what a writer would see, read from the modules' own state: a
// page's figure (and when it was fetched), whether what a fetch received was kept (a snapshot, the
// kept signals, trend buckets, a written file).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createApiClient, type ApiClient } from '../src/api';
import { resolvePreset } from '../src/analytics/dateRange';
import { VisitorsExporter } from '../src/analytics/export';
import { SnapshotReuse } from '../src/analytics/snapshotReuse';
import { BucketRows } from '../src/analytics/trend/bucketRows';
import { Trend, type TrendAsk } from '../src/analytics/trend/trend';
import { TrendSeries } from '../src/analytics/trend/trendSeries';
import { trendTotals } from '../src/analytics/trend/trendTotals';
import { readersOf, type SnapshotSource, type VisitorsSnapshot } from '../src/analytics/visitorsSnapshot';
import { Settings } from '../src/config';
import type { Logger } from '../src/log';
import { PageReaders } from '../src/readers/pageReaders';
import { MOST_REQUESTS } from '../src/signals/snapshot';
import { SignalsStore } from '../src/signals/signalsStore';
import { HourGate } from '../src/hour/hourGate';
import { WindowSync } from '../src/sync/windowSync';
import type { Ui } from '../src/ui';
import { localToday } from '../src/util/days';
import { memoryFs } from '../test/support/memorySyncFs';
import type { SimulatedClock } from './simClock';

/** How often a visible Reader Signals view checks whether its hourly background refresh is due (registerSignals.ts CHECK_EVERY_MS). */
export const SIGNALS_CHECK_EVERY_MS = 5 * 60_000;

/** The design the adapter drives, for the figure's text. */
export const DESIGN =
  'issue 37’s design: every request reserved in the shared ledger before it is sent; background work held per machine to 20 / analytics.teamSize (10: 2 an hour) once a teammates’ 429 was seen (one while this machine had spent under 90), ' +
  'none during a 429’s wait and half after it, doubling each half hour up to 60 on a machine that has seen none; background readers gather the settled range (whole days ending yesterday), ' +
  'keep every page (a 429 included) and go on for the range they started across midnight, showing the last whole range meanwhile; signals stand for a day; ' +
  'an export keeps every page across a 429 and goes on after the wait the platform named';

/** What an action left a writer with. */
export interface Outcome {
  /** Of what the simulator answered 200 for this action: everything kept ('all'), nothing ('none'), or this many. */
  kept: 'all' | 'none' | number;
  /** A page shown: when the figure the status item shows was fetched; undefined: no figure for the page shown. */
  figureFetchedAt?: number;
  /** Why a page shows no figure, or an action did not finish, in a word. */
  note?: string;
  /** The writer was asked a question (a dialog) before anything was sent. */
  asked?: boolean;
  /**
   * The range an action that outlasts its instant (an export waiting out a 429) asked for: its
   * requests at the simulator are this machine's for this range, not everything received meanwhile.
   */
  range?: { dateFrom?: string; dateTo?: string };
}

export interface MachineOptions {
  /** This machine's own folder (its globalStorage): the signals file and exports. */
  dir: string;
  projectId: string;
  /** Each teammate's own key of the one organisation. */
  apiKey: string;
  /** Every request is work the simulated clock waits for. */
  clock: SimulatedClock;
  /** What the machine keeps between its windows (newStorage): a window that closes at night opens on it the next morning. */
  storage: MachineStorage;
}

/** A machine's lasting state: the install's and the workspace's Mementos, the shared-state folder (in memory). */
export interface MachineStorage {
  globalState: vscode.Memento;
  workspaceState: vscode.Memento;
  sharedFiles: Map<string, string>;
}

export function newStorage(): MachineStorage {
  return { globalState: memento(), workspaceState: memento(), sharedFiles: new Map() };
}

const silent: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  scoped: () => silent,
};

/** A Memento that stores JSON, as VS Code's does. */
function memento(): vscode.Memento {
  const values = new Map<string, string>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (JSON.parse(values.get(key)!) as T) : fallback),
    update: (key: string, value: unknown) => {
      if (value === undefined) values.delete(key);
      else values.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  };
}

/** The writer: says yes to every question with its first button (the action, or "Fetch N": what fits). */
function writerUi(dir: string, asked: { count: number }): Ui {
  return {
    showMessage: (_level, _message, ...actions) => {
      if (actions.length) asked.count++;
      return Promise.resolve(actions[0]);
    },
    showInputBox: () => Promise.resolve(undefined),
    showQuickPick: () => Promise.resolve(undefined),
    showSaveDialog: () => Promise.resolve(vscode.Uri.file(join(dir, 'visitors.csv'))),
    withProgress: (_options, task) =>
      task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) }),
    openExternal: () => Promise.resolve(false),
    writeClipboard: () => Promise.resolve(),
  };
}

/** Every API call is work the simulated clock waits for before it moves on. */
function tracked(api: ApiClient, clock: SimulatedClock): ApiClient {
  return new Proxy(api, {
    get: (target, name) => {
      const method = target[name as keyof ApiClient] as (...args: unknown[]) => Promise<unknown>;
      return typeof method === 'function' ? (...args: unknown[]) => clock.track(method(...args)) : method;
    },
  });
}

/** Sets what every machine's settings read (the shim's user settings): the simulator and the project. */
export function configureTeam(simUrl: string, projectId: string): void {
  const shim = vscode as unknown as { setUserSetting(key: string, value: unknown): void };
  shim.setUserSetting('mintlifyAgent.apiBaseUrl', simUrl);
  shim.setUserSetting('mintlifyAgent.projectId', projectId);
}

export class TeamMachine {
  private readonly asked = { count: 0 };
  private readonly settings: Settings;
  private readonly sync: WindowSync;
  private readonly gate: HourGate;
  private readonly readers: PageReaders;
  private readonly signals: SignalsStore;
  private readonly trend: Trend;
  private readonly exporter: VisitorsExporter;

  private constructor(private readonly options: MachineOptions) {
    mkdirSync(options.dir, { recursive: true });
    const { globalState, workspaceState, sharedFiles } = options.storage;
    const ui = writerUi(options.dir, this.asked);
    this.settings = new Settings(globalState);
    this.sync = new WindowSync(vscode.Uri.file(join(options.dir, 'sync')), silent, globalState, () => this.settings.apiBaseUrl, memoryFs(sharedFiles));
    const api = tracked(
      createApiClient({
        baseUrl: () => this.settings.apiBaseUrl,
        getApiKey: async () => options.apiKey,
        onRequest: (entry) => this.sync.ledger.record(entry),
        familyWaitMs: (family) => this.sync.ledger.familyWaitMs(family),
      }),
      options.clock,
    );
    this.gate = new HourGate(this.sync.ledger.account, ui, vscode.l10n, Date.now, () => this.settings.analyticsTeamSize);
    this.readers = new PageReaders({
      api,
      settings: this.settings,
      keys: { hasKey: true, onDidChange: () => ({ dispose: () => undefined }) },
      storage: workspaceState,
      gate: this.gate,
      log: silent,
    });
    this.signals = new SignalsStore({
      api,
      projectId: () => this.settings.projectId,
      storageDir: vscode.Uri.file(join(options.dir, 'signals')),
      gate: this.gate,
      windowShare: () => this.settings.signals.backgroundShare,
      log: silent,
      apiBaseUrl: () => this.settings.apiBaseUrl,
    });
    // The readers' snapshots as registerReaders.ts hands them to the panel.
    const snapshots: SnapshotSource = {
      cached: (key) => this.readers.store.cached(key),
      isFresh: (snapshot) => this.readers.store.isFresh(snapshot),
      get: (key, o) => this.readers.store.get(key, o),
      put: (snapshot) => this.readers.store.put(snapshot),
      maxPages: () => this.settings.readers.maxPages,
      estimate: (key, cap) => this.readers.estimate(key, cap),
    };
    // The panel's trend as registerAnalytics.ts trendDeps and panelModel.ts build it.
    const rows = new BucketRows();
    const series = new TrendSeries({ kept: this.sync.trends, fetchTotals: trendTotals(api, rows, () => snapshots.maxPages(), vscode.l10n), rows });
    this.trend = new Trend({ series, l10n: vscode.l10n, today: () => localToday(), gate: this.gate });
    this.exporter = new VisitorsExporter({
      api,
      ui,
      log: silent,
      reuse: new SnapshotReuse(snapshots),
      gate: this.gate,
      estimate: (key, cap) => snapshots.estimate(key, cap),
      onStatus: () => undefined,
      // A 429's wait runs on the simulated clock; the export is parked meanwhile (simClock.ts waits).
      clock: options.clock.waits,
    });
  }

  /** A machine whose window has started (its shared state read, its key's bucket named). */
  static async start(options: MachineOptions): Promise<TeamMachine> {
    const machine = new TeamMachine(options);
    await machine.sync.ready;
    await machine.sync.ledger.setKey(options.apiKey);
    return machine;
  }

  /**
   * The docs page of `sitePath` shown: the status item's fetch (ReadersStatusBar.update on an editor
   * change: background work), and whether the item then shows the page's figure: its readers, or
   * "no readers" from a whole range; not a range still being gathered that lacks the page, nor one
   * cut at the cap ("beyond the top N").
   */
  async showPage(sitePath: string): Promise<Outcome> {
    const now = this.readers.current();
    if (!now) throw new Error('the machine has no project or key');
    // Background work may fetch another range than the one named (the settled one, where the design has it): any snapshot kept counts.
    let fetched = 0;
    const counting = this.readers.store.onDidFetch(() => fetched++);
    let shown: VisitorsSnapshot | undefined;
    let note: string | undefined;
    try {
      shown = await this.readers.load(now, {});
    } catch (error) {
      note = error instanceof Error ? ((error as { kind?: string }).kind ?? error.name) : String(error);
    } finally {
      counting.dispose();
    }
    const figure = shown && readersOf(shown, sitePath);
    // A range still being gathered (its `gathering` flag, where the design has one) lacks the pages not fetched yet.
    const gathering = shown !== undefined && 'gathering' in shown && shown.gathering === true;
    if (figure && figure.kind !== 'read') note = gathering ? 'still being gathered' : figure.kind === 'beyondCap' ? 'beyond the cap' : undefined;
    const hasFigure = figure !== undefined && note === undefined;
    return { kept: fetched > 0 ? 'all' : 'none', figureFetchedAt: hasFigure ? shown?.fetchedAt : undefined, note };
  }

  /** Fetch Reader Signals, as signals/commands/refreshSignals.ts runs it: asked first when the hour may not hold it. */
  async fetchSignals(): Promise<Outcome> {
    const before = this.signals.current();
    const asked = this.asked.count;
    const last = before?.requests;
    const grant = await this.gate.ask({
      what: vscode.l10n.t('Fetching reader signals'),
      estimate: last ?? MOST_REQUESTS,
      upTo: last === undefined,
      cap: MOST_REQUESTS,
    });
    let note: string | undefined;
    if (grant) await this.signals.refresh({ grant }).catch((error: unknown) => (note = error instanceof Error ? error.message : String(error)));
    else note = 'not granted';
    return { kept: this.signals.current() !== before ? 'all' : 'none', asked: this.asked.count > asked, note };
  }

  /**
   * The visible Reader Signals view's check (registerSignals.ts backgroundTick, every
   * SIGNALS_CHECK_EVERY_MS while the window is focused): a background refresh when one is kept and
   * it is an hour old. Undefined when it was not due.
   */
  async signalsCheck(): Promise<Outcome | undefined> {
    const before = this.signals.current();
    if (!before || !this.signals.isStale()) return undefined;
    let note: string | undefined;
    const outcome = await this.signals.refresh('background').catch((error: unknown) => (note = error instanceof Error ? error.message : String(error)));
    if (typeof outcome === 'object' && outcome.kind === 'skipped') note = outcome.reason;
    return { kept: this.signals.current() !== before ? 'all' : 'none', note };
  }

  /** The panel's trend of Last 30 days, drawn after the writer's Draw (the cost was shown first when it asks). */
  async drawTrend(): Promise<Outcome> {
    const projectId = this.options.projectId;
    const ask: TrendAsk = { projectId, metric: 'visitors', range: resolvePreset('last30', localToday(), vscode.l10n), compare: false };
    const keptBefore = this.keptBuckets();
    const asked = this.trend.view(ask)?.status === 'confirm';
    await this.trend.load(ask, { approve: true });
    const keptAfter = this.keptBuckets();
    let changed = 0;
    for (const [key, value] of keptAfter) if (keptBefore.get(key) !== value) changed++;
    const view = this.trend.view(ask);
    return { kept: changed, asked, note: view?.status === 'ready' ? undefined : view?.status };
  }

  /** Export Visitors… of Last 90 days to a CSV file (the writer picks the range and the file). */
  async exportVisitors(): Promise<Outcome> {
    const asked = this.asked.count;
    const range = resolvePreset('last90', localToday(), vscode.l10n);
    const status = await this.exporter.run({ projectId: this.options.projectId, range, format: 'csv', metric: 'visitors' });
    return {
      kept: status?.state === 'done' ? 'all' : 'none',
      asked: this.asked.count > asked,
      note: status?.state === 'done' ? undefined : (status?.state ?? 'not started'),
      range: { dateFrom: range.dateFrom, dateTo: range.dateTo },
    };
  }

  close(): void {
    this.signals.dispose();
    this.readers.dispose();
    this.exporter.dispose();
    this.sync.dispose();
    this.settings.dispose();
  }

  /** The trend buckets this machine keeps, settled and open, each with its figures as text (a changed entry is a kept answer). */
  private keptBuckets(): Map<string, string> {
    const project = this.options.projectId;
    const all = new Map<string, string>();
    for (const [key, value] of Object.entries(this.sync.trends.keptTrends(project))) all.set(`settled ${key}`, JSON.stringify(value));
    for (const [key, value] of Object.entries(this.sync.trends.openTrends(project))) all.set(`open ${key}`, JSON.stringify(value));
    return all;
  }
}
