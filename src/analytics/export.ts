// "Export Visitors…": every page of a range into a CSV or JSON file the user picks, of unique
// visitors or view events. A visitors range the readers' snapshot covers is written from it with no
// request, and a visitors range fetched here becomes that snapshot (snapshotReuse.ts).
//
// The file lands wherever the save dialog pointed: the extension host's disk in a remote window, or
// a virtual file system. It is written by the extension's one safe writer (sync/atomicWrite.ts):
// a temporary file next to the target, renamed over it at the end, so a cancel or a failure at any
// point leaves no half file and no temporary one (and an older file at the target untouched).
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { isApiError, type ApiClient } from '../api';
import { cutShortText } from '../cutShortText';
import { failureView, type FailureView } from '../errorMessages';
import type { Logger } from '../log';
import { showFailure } from '../showFailure';
import { type ExportFormat, type ExportStatus, type Metric } from '../shared/protocol';
import { ENDPOINTS } from '../api/endpoints';
import { countingSent } from '../api/paging';
import type { HourGate } from '../sync/hourGate';
import { writeUriAtomically } from '../sync/safeWrite';
import type { Ui } from '../ui';
import type { ResolvedRange } from './dateRange';
import { toCsv, toJson, type TrendExport, trendToCsv, trendToJson } from './exportFormats';
import { exportFileStem, fetcherFor } from './metric';
import { snapshotKeyOf, type SnapshotReuse } from './snapshotReuse';
import type { SnapshotSource } from './visitorsSnapshot';
import { fetchAllVisitors, type AllVisitors, type FetchVisitors } from './visitorsQuery';
import { background } from '../util/background';
import { errorText } from '../util/errorText';

export interface ExportRequest {
  projectId: string;
  range: ResolvedRange;
  /** Preferred format; a `.csv` or `.json` name picked in the save dialog wins. */
  format: ExportFormat;
  metric: Metric;
}

export interface ExporterDeps {
  api: ApiClient;
  ui: Ui;
  log: Logger;
  /** Progress and outcome, for the panel's status line. */
  onStatus: (status: ExportStatus) => void;
  /** The readers' whole-range snapshots, written from when they cover the range. */
  reuse?: SnapshotReuse;
  /** The organisation's analytics hour: asked first when the export may need more than is left, and held to what it grants. */
  gate: HourGate;
  /** What fetching a range of visitors may cost (the readers' kept snapshots: snapshotSource.estimate). */
  estimate?: (...args: Parameters<SnapshotSource['estimate']>) => ReturnType<SnapshotSource['estimate']> | undefined;
}

// Counted phrases are whole strings for the translators (plural rules differ by language); the
// number is formatted for the editor's display language.
const count = (n: number) => n.toLocaleString(vscode.env.language);
const rows = (n: number) => (n === 1 ? vscode.l10n.t('1 row') : vscode.l10n.t('{0} rows', count(n)));
const pages = (n: number) => (n === 1 ? vscode.l10n.t('1 page') : vscode.l10n.t('{0} pages', count(n)));
const afterRequests = (n: number) => (n === 1 ? vscode.l10n.t('after 1 request') : vscode.l10n.t('after {0} requests', count(n)));

export class VisitorsExporter implements vscode.Disposable {
  private running = false;
  /** The export under way, so dispose() can stop it: no request outlives deactivate. */
  private current: AbortController | undefined;

  constructor(private readonly deps: ExporterDeps) {}

  /** Resolves with the outcome once the file is written or the export has failed; undefined when the user closed the save dialog. */
  async run(request: ExportRequest): Promise<ExportStatus | undefined> {
    if (this.running) {
      void this.deps.ui.showMessage('info', vscode.l10n.t('An export of visitors is already running.'));
      return undefined;
    }
    this.running = true; // from the save dialog on: a second click must not open a second one
    try {
      return await this.exportTo(request);
    } finally {
      this.running = false;
    }
  }

  private async exportTo(request: ExportRequest): Promise<ExportStatus | undefined> {
    const { ui, log } = this.deps;
    const views = request.metric === 'views';
    const key = snapshotKeyOf({ projectId: request.projectId, ...request.range });
    const kept = this.deps.reuse?.usable(key, request.metric);
    // Its cost before the save dialog: about the pages the range's kept snapshot took, else up to the table's cap.
    const cap = ENDPOINTS.getVisitors.maxPages;
    const cost = (!views && this.deps.estimate?.(key, cap)) || { estimate: cap, upTo: true, cap, perPage: true };
    const what = views ? vscode.l10n.t('Exporting view events ({0})', request.range.label) : vscode.l10n.t('Exporting visitors ({0})', request.range.label);
    const grant = kept ? undefined : await this.deps.gate.ask({ what, ...cost });
    if (!kept && !grant) return undefined;
    const target = await ui.showSaveDialog({
      title: views ? vscode.l10n.t('Export view events: {0}', request.range.label) : vscode.l10n.t('Export visitors: {0}', request.range.label),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: defaultTarget(exportFileStem(request.metric), request.projectId, request.range, request.format),
      filters: request.format === 'json' ? { JSON: ['json'], CSV: ['csv'] } : { CSV: ['csv'], JSON: ['json'] },
    });
    if (!target) return undefined;
    const extension = posix.extname(target.path).toLowerCase();
    const format: ExportFormat = extension === '.json' ? 'json' : extension === '.csv' ? 'csv' : request.format;
    const fileName = posix.basename(target.path);

    const cancel = new AbortController();
    this.current = cancel;
    let requests = 0;
    const fetchPage = fetcherFor(this.deps.api, request.metric);
    const counted: FetchVisitors = countingSent(fetchPage, () => requests++);

    let status: ExportStatus;
    try {
      this.deps.onStatus({ state: 'running', pages: 0, rows: 0 });
      const all = await ui.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: views ? vscode.l10n.t('Exporting view events ({0})', request.range.label) : vscode.l10n.t('Exporting visitors ({0})', request.range.label),
          cancellable: true,
        },
        async (progress, token) => {
          const subscription = token.onCancellationRequested(() => cancel.abort());
          try {
            const startedAt = Date.now();
            if (!kept) progress.report({ message: vscode.l10n.t('page 1…') });
            const result: AllVisitors = kept
              ? { totals: kept.totals, rows: kept.rows, pages: 0 }
              : await fetchAllVisitors(counted, request.projectId, request.range, {
                  signal: cancel.signal,
                  grant,
                  onPage: (pageCount, rowCount) => {
                    progress.report({
                      message: vscode.l10n.t({
                        message: '{0}, {1}',
                        args: [pages(pageCount), rows(rowCount)],
                        comment: ['{0} is a count of pages ("3 pages"), {1} a count of rows ("750 rows")'],
                      }),
                    });
                    this.deps.onStatus({ state: 'running', pages: pageCount, rows: rowCount });
                  },
                });
            if (!kept && !result.cutShort && request.metric === 'visitors') {
              this.deps.reuse?.offer({ key, totals: result.totals, rows: result.rows, fetchedAt: startedAt, pages: result.pages, capped: false });
            }
            progress.report({ message: vscode.l10n.t('writing {0}…', fileName) });
            await writeUriAtomically(target, encode(format, request, result), { signal: cancel.signal });
            return result;
          } finally {
            grant?.end(); // the export's leave ends with it
            subscription.dispose();
          }
        },
      );
      status = { state: 'done', rows: all.rows.length, requests, fileName };
      const done =
        requests === 1
          ? vscode.l10n.t('Exported {0} to {1} with 1 request.', rows(all.rows.length), fileName)
          : vscode.l10n.t('Exported {0} to {1} with {2} requests.', rows(all.rows.length), fileName, count(requests));
      // Cut short is not a failure: the file holds every row read, and the message says what may be missing.
      const caveat = all.cutShort ? ' ' + cutShortText(vscode.l10n.t('The export'), all.cutShort, vscode.l10n) : '';
      log.info(
        `export (${request.metric}): ${all.rows.length} rows, ${all.pages} pages, ${requests} requests → ${target.toString(true)}${all.cutShort ? ` (cut short: ${all.cutShort.reason})` : ''}`,
      );
      const openFile = vscode.l10n.t('Open File');
      const opened = Promise.resolve(ui.showMessage(caveat ? 'warning' : 'info', done + caveat, openFile)).then(async (choice) => {
        if (choice === openFile) await vscode.window.showTextDocument(target);
      });
      background(opened, log, `opening ${fileName}`);
    } catch (error) {
      status = this.failure(error, requests, cancel.signal.aborted, fileName);
    }
    this.deps.onStatus(status);
    return status;
  }

  dispose(): void {
    this.current?.abort();
  }

  private failure(error: unknown, requests: number, cancelled: boolean, fileName: string): ExportStatus {
    const { ui, log } = this.deps;
    const used = afterRequests(requests);
    if (cancelled || (isApiError(error) && error.kind === 'cancelled')) {
      log.info(`export cancelled after ${requests} request(s)`); // the log stays English
      const message = vscode.l10n.t('Export cancelled {0}. No file was written.', used);
      void ui.showMessage('info', message);
      return { state: 'cancelled', requests };
    }
    let message: string;
    let view: FailureView | undefined;
    if (isApiError(error)) {
      // The shared failure table, plus what the export adds: how far it got, and that no file was written.
      view = failureView(error, 'export', vscode.l10n);
      message = vscode.l10n.t('{0} ({1}) No file was written.', view.message, used);
    } else {
      message = vscode.l10n.t('Could not write {0}: {1}. No file was written.', fileName, errorText(error));
    }
    if (isApiError(error)) log.warn(`export failed after ${requests} request(s): ${[error.message, ...error.details].join('\n')}`);
    else log.error(error instanceof Error ? error : String(error));
    background(showFailure(ui, { severity: view?.severity ?? 'error', actions: view?.actions ?? ['showLog'], message }), log, 'the export failure message');
    return { state: 'failed', requests, message };
  }
}

function encode(format: ExportFormat, request: ExportRequest, all: AllVisitors): Uint8Array {
  const { range } = request;
  const text =
    format === 'csv'
      ? toCsv(all.rows, request.metric)
      : toJson({
          projectId: request.projectId,
          metric: request.metric,
          range: { label: range.label, from: range.from ?? null, to: range.to ?? null, dateFrom: range.dateFrom ?? null, dateTo: range.dateTo ?? null },
          exportedAt: new Date().toISOString(),
          totals: all.totals,
          rows: all.rows,
        });
  return new TextEncoder().encode(text);
}

/**
 * Export Trend: the points on screen saved as CSV or JSON (by the name picked in the save dialog),
 * one row a bucket; nothing is fetched. Resolves with the file's name, or undefined when not saved.
 */
export async function exportTrend(trend: TrendExport, ui: Ui, log: Logger): Promise<string | undefined> {
  const target = await ui.showSaveDialog({
    title: vscode.l10n.t('Export trend: {0}', trend.range.label),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: defaultTarget(`${exportFileStem(trend.metric)}-trend`, trend.projectId, trend.range, 'csv'),
    filters: { CSV: ['csv'], JSON: ['json'] },
  });
  if (!target) return undefined;
  const json = posix.extname(target.path).toLowerCase() === '.json';
  const fileName = posix.basename(target.path);
  try {
    await writeUriAtomically(target, json ? trendToJson(trend, new Date().toISOString()) : trendToCsv(trend));
  } catch (error) {
    log.error(error instanceof Error ? error : String(error));
    background(ui.showMessage('error', vscode.l10n.t('Could not save the trend to {0}: {1}', fileName, errorText(error))), log, 'the trend export failure');
    return undefined;
  }
  log.info(`exported the trend (${trend.points.length} points) to ${fileName}`);
  background(ui.showMessage('info', vscode.l10n.t('Saved the trend’s {0} points to {1}.', trend.points.length, fileName)), log, 'the trend export message');
  return fileName;
}

/** `<stem>-<project>-<from>-to-<to>.<format>` in the first workspace folder: what the save dialog proposes. */
function defaultTarget(stem: string, projectId: string, range: { from?: string | null; to?: string | null }, format: ExportFormat): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) return undefined;
  const days = range.from && range.to ? `${range.from}-to-${range.to}` : 'all-time';
  const project = projectId.replace(/[^\w.-]+/g, '-').slice(0, 60);
  return vscode.Uri.joinPath(folder, `${stem}-${project}-${days}.${format}`);
}
