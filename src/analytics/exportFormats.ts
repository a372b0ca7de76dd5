// The export file formats. Paths come from the public internet and end up in spreadsheets, so the
// CSV both follows RFC 4180 and keeps a spreadsheet from running a path as a formula.
// No vscode import: unit-tested directly.
import type { VisitorRow, VisitorTotals } from '../api/schemas';
import type { ExportFormat, Metric, TrendPoint } from '../shared/protocol';

/** Unchanged for visitors (scripts read it); view events say so in every count's column. */
const CSV_HEADERS: Record<Metric, string> = { visitors: 'path,human,ai,total', views: 'path,human_views,ai_views,total_views' };
export const CSV_HEADER = CSV_HEADERS.visitors;

/**
 * A cell that starts with one of these is read as a formula by Excel, LibreOffice and Sheets
 * (OWASP "CSV injection"); tab and carriage return are on the list because some importers strip
 * them and then see the character that follows.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: neutralised with a leading `'` when it could run as a formula, quoted when RFC 4180 requires it. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * RFC 4180: CRLF line ends (after the last row too), a header row, and the counts as plain integers.
 * No byte-order mark, so the header reads exactly `path,human,ai,total` for tools and scripts.
 */
export function toCsv(rows: readonly VisitorRow[], metric: Metric = 'visitors'): string {
  const lines = [CSV_HEADERS[metric]];
  for (const row of rows) lines.push(`${csvField(row.path)},${row.human},${row.ai},${row.total}`);
  return lines.join('\r\n') + '\r\n';
}

interface JsonExport {
  projectId: string;
  /** What the counts are: unique visitors or view events. */
  metric: Metric;
  /** `from`/`to` are the inclusive days shown in the panel; `dateFrom`/`dateTo` what the API was asked (dateTo exclusive). */
  range: { label: string; from: string | null; to: string | null; dateFrom: string | null; dateTo: string | null };
  exportedAt: string;
  /** Site-wide. For visitors `total` is deduplicated across human and AI, so it is not human + ai; for views it is. */
  totals: VisitorTotals;
  rows: readonly VisitorRow[];
}

export function toJson(data: JsonExport): string {
  return JSON.stringify(data, null, 2) + '\n';
}

/** What an export file says of itself: its project, metric and range (ResolvedRange's fields). */
interface ExportSubject {
  projectId: string;
  metric: Metric;
  range: { label: string; from?: string; to?: string; dateFrom?: string; dateTo?: string };
}

/** The text of an export file: the CSV of its rows, or the JSON with its range and totals. */
export function exportText(
  format: ExportFormat,
  subject: ExportSubject,
  all: { totals: VisitorTotals; rows: readonly VisitorRow[] },
  exportedAt: string,
): string {
  const { range } = subject;
  return format === 'csv'
    ? toCsv(all.rows, subject.metric)
    : toJson({
        projectId: subject.projectId,
        metric: subject.metric,
        range: { label: range.label, from: range.from ?? null, to: range.to ?? null, dateFrom: range.dateFrom ?? null, dateTo: range.dateTo ?? null },
        exportedAt,
        totals: all.totals,
        rows: all.rows,
      });
}

/** The trend on screen, as Export Trend saves it: one row a bucket, the previous period beside it. */
export interface TrendExport {
  projectId: string;
  metric: Metric;
  /** Days or Monday-to-Sunday weeks. */
  unit: 'day' | 'week';
  range: { label: string; from: string | null; to: string | null };
  points: readonly TrendPoint[];
  previous: readonly TrendPoint[] | undefined;
}

const TREND_COLUMNS = 'from,to,partial,open,human,ai,total';

/** RFC 4180 like toCsv; `partial` and `open` as true/false; with a previous period, its columns after. */
export function trendToCsv({ points, previous }: TrendExport): string {
  const cells = (p: TrendPoint) => `${p.from},${p.to},${p.partial},${p.open},${p.human},${p.ai},${p.total}`;
  const lines = [
    previous ? `${TREND_COLUMNS},previous_from,previous_to,previous_partial,previous_open,previous_human,previous_ai,previous_total` : TREND_COLUMNS,
  ];
  points.forEach((point, i) => lines.push(previous?.[i] ? `${cells(point)},${cells(previous[i])}` : cells(point)));
  return lines.join('\r\n') + '\r\n';
}

export function trendToJson(data: TrendExport, exportedAt: string): string {
  return JSON.stringify({ ...data, previous: data.previous ?? null, exportedAt }, null, 2) + '\n';
}
