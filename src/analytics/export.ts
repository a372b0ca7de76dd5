// "Export Visitors…": every page of a range into a CSV or JSON file the user picks, of unique
// visitors or view events. A visitors range the readers' snapshot covers is written from it with no
// request, and a visitors range fetched here becomes that snapshot (snapshotReuse.ts).
//
// The file lands wherever the save dialog pointed: the extension host's disk in a remote window, or
// a virtual file system. It is written by the extension's one safe writer (util/atomicWrite.ts):
// a temporary file next to the target, renamed over it at the end, so a cancel or a failure at any
// point leaves no half file and no temporary one (and an older file at the target untouched).
//
// A 429 mid-way (teammates spent the organisation's hour) does not end it: the pages fetched are
// kept, the progress notification says so and when it goes on, and after the wait the platform
// named it fetches the rest under the same grant (exportPages.ts). Cancel while it has kept pages
// across a wait offers to write them as a partial file, or to discard them.
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { isApiError, type ApiClient } from '../api';
import { cutShortText } from '../cutShortText';
import { failureView } from '../errorMessages';
import type { Logger } from '../log';
import { reportFailure } from '../reportFailure';
import { type ExportFormat, type ExportStatus, type Metric } from '../shared/protocol';
import { ENDPOINTS } from '../api/endpoints';
import { countingSent } from '../api/paging';
import type { HourGate } from '../hour/hourGate';
import { writeUriAtomically } from '../util/safeWrite';
import type { Ui } from '../ui';
import type { ResolvedRange } from './dateRange';
import { exportText, type TrendExport, trendToCsv, trendToJson } from './exportFormats';
import { exportFileStem, fetcherFor } from './metric';
import { snapshotKeyOf, type SnapshotReuse } from './snapshotReuse';
import type { SnapshotSource } from './visitorsSnapshot';
import { type AllVisitors, type FetchVisitors } from './visitorsQuery';
import { ExportPages, type ExportPagesOptions, fetchExportPages, rangeSettled } from './exportPages';
import { background } from '../util/background';
import { type Clock, systemClock } from '../util/clock';
import { errorText } from '../util/errorText';

export interface ExportRequest {
  projectId: string;
  range: ResolvedRange;
  /** Preferred format; a `.csv` or `.json` name picked in the save dialog wins. */
  format: ExportFormat;
  metric: Metric;
}

interface ExporterDeps {
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
  /** The clock a 429's wait runs on (the system's; the bench's simulated one). */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
}

// Counted phrases are whole strings for the translators (plural rules differ by language); the
// number is formatted for the editor's display language.
const count = (n: number) => n.toLocaleString(vscode.env.language);
const rows = (n: number) => (n === 1 ? vscode.l10n.t('1 row') : vscode.l10n.t('{0} rows', count(n)));
const pages = (n: number) => (n === 1 ? vscode.l10n.t('1 page') : vscode.l10n.t('{0} pages', count(n)));
const afterRequests = (n: number) => (n === 1 ? vscode.l10n.t('after 1 request') : vscode.l10n.t('after {0} requests', count(n)));
/** "18 of ~40 pages kept", or "18 pages kept" while the range's size is not known. */
const keptPages = (n: number, expected: number | undefined) =>
  expected === undefined || expected < n ? vscode.l10n.t('{0} kept', pages(n)) : vscode.l10n.t('{0} of ~{1} kept', count(n), pages(expected));
/** When a wait ends, on the writer's clock: minutes, and seconds too for a short wait. */
const clockTime = (at: number, now: number) =>
  new Date(at).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit', ...(at - now < 120_000 && { second: '2-digit' }) });

export class VisitorsExporter implements vscode.Disposable {
  private running = false;
  /** The export under way, so dispose() can stop it: no request (and no wait) outlives deactivate. */
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
    const reused = this.deps.reuse?.usable(key, request.metric);
    // Its cost before the save dialog: about the pages the range's kept snapshot took, else up to the table's cap.
    const cap = ENDPOINTS.getVisitors.maxPages;
    const cost = (!views && this.deps.estimate?.(key, cap)) || { estimate: cap, upTo: true, cap, perPage: true };
    const expected = cost.upTo || cost.perPage ? undefined : cost.estimate;
    const what = views ? vscode.l10n.t('Exporting view events ({0})', request.range.label) : vscode.l10n.t('Exporting visitors ({0})', request.range.label);
    const grant = reused ? undefined : await this.deps.gate.ask({ what, ...cost });
    if (!reused && !grant) return undefined;
    const saved = await this.saveTarget(request);
    if (!saved) return undefined;
    const { target, format, fileName } = saved;

    // The writer's Cancel, and the window closing (dispose): only the first may ask what to do with the pages kept.
    const cancel = new AbortController();
    const closing = new AbortController();
    this.current = closing;
    const signal = AbortSignal.any([cancel.signal, closing.signal]);
    const clock = this.deps.clock ?? systemClock;
    let requests = 0;
    const fetchPage = fetcherFor(this.deps.api, request.metric);
    const counted: FetchVisitors = countingSent(fetchPage, () => requests++);
    const kept = new ExportPages();

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
            if (!reused) progress.report({ message: vscode.l10n.t('page 1…') });
            const result: AllVisitors = reused
              ? { totals: reused.totals, rows: reused.rows, pages: 0 }
              : {
                  ...(await fetchExportPages(counted, request.projectId, request.range, kept, {
                    signal,
                    grant,
                    clock,
                    ...this.pageProgress(progress, request.metric, expected, clock),
                  })),
                  totals: kept.totals ?? { human: 0, ai: 0, total: 0 },
                  rows: kept.rows,
                  pages: kept.pages,
                };
            // Only a range read in one go is the range's snapshot: one read in parts around a 429 is
            // from more than one moment (a path may have changed page between its parts).
            if (!reused && !result.cutShort && kept.waits === 0 && request.metric === 'visitors') {
              this.deps.reuse?.offer({ key, totals: result.totals, rows: result.rows, fetchedAt: startedAt, pages: result.pages, capped: false });
            }
            progress.report({ message: vscode.l10n.t('writing {0}…', fileName) });
            await writeUriAtomically(target, encode(format, request, result), { signal });
            return result;
          } finally {
            grant?.end(); // the export's grant ends with it
            subscription.dispose();
          }
        },
      );
      const moved = kept.moved ? movedCaveat(request.range, clock.now()) : '';
      status = { state: 'done', rows: all.rows.length, requests, fileName, ...(moved && { caveat: moved }) };
      const done =
        requests === 1
          ? vscode.l10n.t('Exported {0} to {1} with 1 request.', rows(all.rows.length), fileName)
          : vscode.l10n.t('Exported {0} to {1} with {2} requests.', rows(all.rows.length), fileName, count(requests));
      // Cut short is not a failure: the file holds every row read, and the message says what may be missing.
      const caveat = [all.cutShort ? cutShortText(vscode.l10n.t('The export'), all.cutShort, vscode.l10n) : '', moved].filter(Boolean).join(' ');
      log.info(
        `export (${request.metric}): ${all.rows.length} rows, ${all.pages} pages, ${requests} requests, ${kept.waits} wait(s) → ${target.toString(true)}${all.cutShort ? ` (cut short: ${all.cutShort.reason})` : ''}${kept.moved ? ' (read in parts while its figures moved)' : ''}`,
      );
      this.offerToOpen(caveat ? 'warning' : 'info', caveat ? `${done} ${caveat}` : done, target, fileName);
    } catch (error) {
      // Cancel after the export has waited for the hour: the pages kept cost the writer that wait, so they are offered.
      const keptAcrossWait = cancel.signal.aborted && !closing.signal.aborted && kept.waits > 0 && kept.pages > 0;
      status = keptAcrossWait
        ? await this.writeOrDiscard(kept, { request, format, target, fileName, expected, requests, signal: closing.signal })
        : this.failure(error, requests, signal.aborted, fileName);
    }
    this.deps.onStatus(status);
    return status;
  }

  /** The file the writer picks in the save dialog, and its format: a `.csv` or `.json` name wins over the request's. */
  private async saveTarget(request: ExportRequest): Promise<{ target: vscode.Uri; format: ExportFormat; fileName: string } | undefined> {
    const views = request.metric === 'views';
    const target = await this.deps.ui.showSaveDialog({
      title: views ? vscode.l10n.t('Export view events: {0}', request.range.label) : vscode.l10n.t('Export visitors: {0}', request.range.label),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: defaultTarget(exportFileStem(request.metric), request.projectId, request.range, request.format),
      filters: request.format === 'json' ? { JSON: ['json'], CSV: ['csv'] } : { CSV: ['csv'], JSON: ['json'] },
    });
    if (!target) return undefined;
    const extension = posix.extname(target.path).toLowerCase();
    const format: ExportFormat = extension === '.json' ? 'json' : extension === '.csv' ? 'csv' : request.format;
    return { target, format, fileName: posix.basename(target.path) };
  }

  /** What each page fetched, and each wait for the hour, says in the progress notification and the panel's export line. */
  private pageProgress(
    progress: vscode.Progress<{ message?: string }>,
    metric: Metric,
    expected: number | undefined,
    clock: Pick<Clock, 'now'>,
  ): Pick<ExportPagesOptions, 'onPage' | 'onWait'> {
    return {
      onPage: ({ pages: pageCount, rows: { length: rowCount } }) => {
        progress.report({
          message: vscode.l10n.t({
            message: '{0}, {1}',
            args: [pages(pageCount), rows(rowCount)],
            comment: ['{0} is a count of pages ("3 pages"), {1} a count of rows ("750 rows")'],
          }),
        });
        this.deps.onStatus({ state: 'running', pages: pageCount, rows: rowCount });
      },
      onWait: ({ pages: pageCount, rows: { length: rowCount } }, until) => {
        // Said where the writer looks: the notification (cancellable) and the panel's export line.
        const message = vscode.l10n.t('{0}; the organisation’s hour is spent, going on at {1}', keptPages(pageCount, expected), clockTime(until, clock.now()));
        progress.report({ message });
        this.deps.onStatus({ state: 'running', pages: pageCount, rows: rowCount, message });
        this.deps.log.info(`export (${metric}): 429 after ${pageCount} page(s); ${pageCount} kept, going on in ${Math.round((until - clock.now()) / 1000)} s`);
      },
    };
  }

  /** Cancel with pages kept across a wait: the writer says whether they become a partial file or go. */
  private async writeOrDiscard(
    kept: ExportPages,
    what: {
      request: ExportRequest;
      format: ExportFormat;
      target: vscode.Uri;
      fileName: string;
      expected: number | undefined;
      requests: number;
      signal: AbortSignal;
    },
  ): Promise<ExportStatus> {
    const { ui, log } = this.deps;
    const { fileName, requests } = what;
    const write = vscode.l10n.t('Write Partial File');
    const discard = vscode.l10n.t('Discard');
    const choice = await ui.showMessage(
      'warning',
      vscode.l10n.t(
        'Export cancelled with {0} ({1}). Write them to {2} as a partial export (the rows of the pages not fetched are missing), or discard them?',
        keptPages(kept.pages, what.expected),
        rows(kept.rows.length),
        fileName,
      ),
      write,
      discard,
    );
    if (choice !== write) {
      log.info(`export cancelled after ${requests} request(s); the ${kept.pages} page(s) kept were discarded`);
      void ui.showMessage('info', vscode.l10n.t('Export cancelled {0}. No file was written.', afterRequests(requests)));
      return { state: 'cancelled', requests };
    }
    const all: AllVisitors = { totals: kept.totals ?? { human: 0, ai: 0, total: 0 }, rows: kept.rows, pages: kept.pages };
    try {
      await writeUriAtomically(what.target, encode(what.format, what.request, all), { signal: what.signal });
    } catch (error) {
      return this.failure(error, requests, what.signal.aborted, fileName);
    }
    const caveat = vscode.l10n.t('Partial: only the first {0} of the range were fetched; the rows of the pages after them are missing.', pages(kept.pages));
    log.info(`export (${what.request.metric}): partial, ${kept.rows.length} rows of ${kept.pages} pages kept → ${what.target.toString(true)}`);
    this.offerToOpen('warning', `${vscode.l10n.t('Wrote {0} to {1}.', rows(kept.rows.length), fileName)} ${caveat}`, what.target, fileName);
    return { state: 'done', rows: kept.rows.length, requests, fileName, caveat };
  }

  /** The outcome's message, with Open File. */
  private offerToOpen(level: 'info' | 'warning', message: string, target: vscode.Uri, fileName: string): void {
    const { ui, log } = this.deps;
    const openFile = vscode.l10n.t('Open File');
    const opened = Promise.resolve(ui.showMessage(level, message, openFile)).then(async (choice) => {
      if (choice === openFile) await vscode.window.showTextDocument(target);
    });
    background(opened, log, `opening ${fileName}`);
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
    // The shared failure table, plus what the export adds: how far it got, and that no file was written.
    const message = isApiError(error)
      ? vscode.l10n.t('{0} ({1}) No file was written.', failureView(error, 'export', vscode.l10n).message, used)
      : vscode.l10n.t('Could not write {0}: {1}. No file was written.', fileName, errorText(error));
    const doing = isApiError(error) ? `export failed after ${requests} request(s)` : `writing the export to ${fileName}`;
    background(reportFailure({ ui, log }, error, { context: 'export', doing, message: () => message }), log, 'the export failure message');
    return { state: 'failed', requests, message };
  }
}

/** Read in parts around a wait while its figures moved: said, since a path may have changed page meanwhile. */
function movedCaveat(range: ResolvedRange, now: number): string {
  return !rangeSettled(range, now)
    ? vscode.l10n.t(
        'The range includes today and was read before and after a wait for the organisation’s hour, so its figures are from more than one moment, and a path that changed page meanwhile may be missing. A range that ended yesterday does not change.',
      )
    : vscode.l10n.t(
        'The range’s figures changed while the export waited for the organisation’s hour, so they are from more than one moment, and a path that changed page meanwhile may be missing. A range that ended yesterday does not change.',
      );
}

function encode(format: ExportFormat, request: ExportRequest, all: AllVisitors): Uint8Array {
  return new TextEncoder().encode(exportText(format, request, all, new Date().toISOString()));
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
    const message = vscode.l10n.t('Could not save the trend to {0}: {1}', fileName, errorText(error));
    background(
      reportFailure({ ui, log }, error, { context: 'export', doing: `saving the trend to ${fileName}`, message: () => message }),
      log,
      'the trend export failure',
    );
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
