// Visitor analytics, wired into the window: the "Open Visitor Analytics" and "Export Visitors…"
// commands (each a function of its ports in commands/), the serializer that brings the panel back
// after a reload, and the page memory and exporter the panel shares with the commands. Nothing here
// sends a request until the user asks.
import * as vscode from 'vscode';
import type { ApiClient } from '../api';
import type { Settings } from '../config';
import type { Logger } from '../log';
import { type FailurePorts, showNotice } from '../reportFailure';
import type { HourGate } from '../hour/hourGate';
import type { Ui } from '../ui';
import { AnalyticsPanel, type AnalyticsPanelDeps } from './analyticsPanel';
import { type AnalyticsCommandPorts, guard } from './commands/analyticsCommandPorts';
import { exportVisitorsCommand } from './commands/exportVisitors';
import { openAnalyticsCommand } from './commands/openAnalytics';
import { exportTrend, VisitorsExporter } from './export';
import type { SnapshotSource } from './visitorsSnapshot';
import type { FetchPrevious } from './comparison';
import { type FetchVisitors, VisitorsPager } from './visitorsQuery';
import { fetcherFor } from './metric';
import type { Metric } from '../shared/protocol';
import type { WholeRange } from './pageFocus';
import { PanelPages, SnapshotReuse } from './snapshotReuse';
import { COMMANDS, type RegisterCommand } from '../commands';
import { BucketRows } from './trend/bucketRows';
import { TrendSeries, type KeptTrendStore } from './trend/trendSeries';
import { trendTotals } from './trend/trendTotals';

interface AnalyticsPorts {
  command: RegisterCommand;
  api: ApiClient;
  settings: Settings;
  ui: Ui;
  log: Logger;
  /** Fires when the API key is stored or deleted (in this window or another). */
  onDidChangeApiKey: vscode.Event<void>;
  /**
   * Whole-range snapshots (the readers' cache): the previous period of "Compare" comes from there,
   * the panel pages and exports from them when they cover its range, and fills them when it fetched one.
   */
  snapshots?: SnapshotSource;
  /** The organisation's analytics hour: every request the panel, Compare, exports and the trend send passes it. */
  gate: HourGate;
  /** Where settled trend buckets are kept for every window (the shared store). */
  trends?: KeptTrendStore;
}

/** For tests: the panel of this window, if one is open. */
export interface AnalyticsHandle {
  panel(): AnalyticsPanel | undefined;
  /** Brings back a panel VS Code restored after a reload (the serializer is registered in activate()). */
  revive(webviewPanel: vscode.WebviewPanel): void;
}

const PAGE_SIZE_SETTING = 'mintlifyAgent.analytics.pageSize';

export function registerAnalytics(context: vscode.ExtensionContext, ports: AnalyticsPorts): AnalyticsHandle {
  const { command, ...deps } = ports;
  const { settings, ui, gate } = deps;
  const log = deps.log.scoped('analytics');
  // Window-wide, so closing and reopening the panel does not spend requests on pages seen before;
  // one pager per metric, with the readers' snapshot in front of the API for visitors.
  const pagers = { visitors: new VisitorsPager(pageFetcher(deps.api, 'visitors', gate)), views: new VisitorsPager(pageFetcher(deps.api, 'views', gate)) };
  const reuse = deps.snapshots && new SnapshotReuse(deps.snapshots);
  let current: AnalyticsPanel | undefined;
  const exporter = new VisitorsExporter({
    api: deps.api,
    ui,
    log,
    reuse,
    gate,
    estimate: (key, cap) => deps.snapshots?.estimate(key, cap),
    onStatus: (status) => current?.showExportStatus(status),
  });

  const panelDeps: AnalyticsPanelDeps = {
    extensionUri: context.extensionUri,
    pager: new PanelPages(pagers, reuse),
    settings,
    ui,
    log,
    onDidChangeApiKey: deps.onDidChangeApiKey,
    pageSizeSetting: pageSizeWarner(settings, { ui, log }),
    exportVisitors: (request) => exporter.run(request),
    exportTrend: (trend) => exportTrend(trend, ui, log),
    fetchPrevious: deps.snapshots && previousFetcher(deps.snapshots, gate, ui),
    requestsThisHour: () => gate.used(),
    wholeRange: deps.snapshots && reuse && wholeRangeFetcher(deps.snapshots, reuse, gate, ui),
    trend: deps.trends && trendDeps(deps.api, deps.trends, gate, deps.snapshots),
  };

  const adopt = (panel: AnalyticsPanel) => {
    current = panel;
    panel.onDidDispose(() => {
      if (current === panel) current = undefined;
    });
    return panel;
  };
  const commandPorts: AnalyticsCommandPorts = { settings, ui, log, exporter, panel: () => current, createPanel: () => adopt(AnalyticsPanel.create(panelDeps)) };

  context.subscriptions.push(pagers.visitors, pagers.views, exporter, { dispose: () => current?.dispose() });
  command(COMMANDS.openAnalytics, guard(commandPorts, 'analytics', openAnalyticsCommand(commandPorts)));
  command(COMMANDS.exportVisitors, guard(commandPorts, 'export', exportVisitorsCommand(commandPorts)));

  return {
    panel: () => current,
    revive(webviewPanel) {
      // One panel per window: a second restored tab (two windows merged) is closed.
      if (current) webviewPanel.dispose();
      else adopt(AnalyticsPanel.revive(webviewPanel, panelDeps));
    },
  };
}

/**
 * The panel's page requests, one each, through the hour's gate: a page never needs a question, and
 * when none is left the gate refuses it unsent and the panel says so (the failure table's words).
 */
function pageFetcher(api: ApiClient, metric: Metric, gate: HourGate): FetchVisitors {
  const fetch = fetcherFor(api, metric);
  return (projectId, query, options) => fetch(projectId, query, { ...options, grant: gate.granted(1) });
}

/**
 * The previous period through the snapshot cache: free when kept and fresh; otherwise its cost goes
 * through the hour's gate (a yes first when it may exceed 4 requests, what fits when the hour has
 * less), the fetch shows its progress, and what it left out is said beside the comparison.
 */
function previousFetcher(snapshots: SnapshotSource, gate: HourGate, ui: Ui): FetchPrevious {
  return async (projectId, range, label) => {
    const key = { projectId, ...range };
    const kept = snapshots.cached(key);
    const previous = kept && snapshots.isFresh(kept) ? kept : await fetchWhole();
    return previous.capped
      ? {
          ...previous,
          leftOut: vscode.l10n.t(
            'Only the {0} most read paths of the previous period were fetched ({1} requests): paths beyond them show as new.',
            previous.rows.length,
            previous.pages,
          ),
        }
      : previous;

    async function fetchWhole() {
      const grant = await gate.ask({
        what: vscode.l10n.t('Fetching every path of {0} to compare', label),
        ...snapshots.estimate(key),
        confirm: vscode.l10n.t('Compare'),
      });
      if (!grant) throw new Error(vscode.l10n.t('Not compared: the previous period was not fetched.'));
      return ui.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching {0} to compare…', label) }, () =>
        snapshots.get(key, { grant }).finally(() => grant.end()),
      );
    }
  };
}

/**
 * Every row of a range for the panel opened on one page: the readers' snapshot while it may stand in
 * (fresh, newer than the last Refresh), else one fetch through the readers' store (so the status
 * item gets it too), its cost through the hour's gate (a yes first when it may exceed 4 requests),
 * with its progress shown.
 */
function wholeRangeFetcher(snapshots: SnapshotSource, reuse: SnapshotReuse, gate: HourGate, ui: Ui): WholeRange {
  return async (key, { refresh }) => {
    if (refresh) reuse.markRefreshed(key);
    const kept = refresh ? undefined : reuse.current(key);
    if (kept) return kept;
    const old = snapshots.cached(key);
    const grant = await gate.ask({
      what: vscode.l10n.t('Finding one page among every path of the range'),
      ...snapshots.estimate(key),
      confirm: vscode.l10n.t('Fetch'),
    });
    if (!grant) throw new Error(vscode.l10n.t('Not fetched: the range’s paths were not fetched. Clear shows every path page by page.'));
    // A kept snapshot still under an hour old but older than Refresh must not come back from the store.
    const stale = refresh || (old !== undefined && snapshots.isFresh(old));
    return ui.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fetching every path of the range…') }, () =>
      snapshots.get(key, { grant, refresh: stale }).finally(() => grant.end()),
    );
  };
}

/**
 * The trend's figures (trendTotals.ts), kept when settled, and the hour's gate they pass. A page's
 * cost is estimated per bucket: the pages a kept bucket alike took, else the panel range's pages (a
 * bucket of it has no more paths); undefined when neither is kept.
 */
function trendDeps(api: ApiClient, kept: KeptTrendStore, gate: HourGate, snapshots: SnapshotSource | undefined): AnalyticsPanelDeps['trend'] {
  const rows = new BucketRows();
  const fetchTotals = trendTotals(api, rows, () => snapshots?.maxPages(), vscode.l10n);
  return {
    series: new TrendSeries({ kept, fetchTotals, rows }),
    gate,
    pagesPerBucket: (bucket, range) => rows.pagesLike(bucket) ?? snapshots?.cached(range)?.pages,
  };
}

/**
 * Reads the page size setting; a value outside 1..250 falls back to 50 with a line in the panel
 * every time and a notification once per bad value (not again on every settings change).
 */
function pageSizeWarner(settings: Settings, ports: FailurePorts): AnalyticsPanelDeps['pageSizeSetting'] {
  let warnedAbout: string | undefined;
  return () => {
    const { value, invalid } = settings.analyticsPageSize;
    if (invalid === undefined) {
      warnedAbout = undefined;
      return { value, notice: undefined };
    }
    const shown = (JSON.stringify(invalid) ?? typeof invalid).slice(0, 40);
    const notice = vscode.l10n.t(
      'The setting "{0}" is {1}, which is not a whole number from 1 to 250, so pages have {2} rows.',
      PAGE_SIZE_SETTING,
      shown,
      value,
    );
    if (warnedAbout !== shown) {
      warnedAbout = shown;
      showNotice(ports, 'warning', notice, {
        label: vscode.l10n.t('Open Settings'),
        run: () => vscode.commands.executeCommand('workbench.action.openSettings', PAGE_SIZE_SETTING),
      });
    }
    return { value, notice };
  };
}
