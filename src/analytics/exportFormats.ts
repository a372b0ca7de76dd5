// The export file formats. Paths come from the public internet and end up in spreadsheets, so the
// CSV both follows RFC 4180 and keeps a spreadsheet from running a path as a formula.
// No vscode import: unit-tested directly.
import type { VisitorRow, VisitorTotals } from '../api/schemas';

export const CSV_HEADER = 'path,human,ai,total';

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
export function toCsv(rows: readonly VisitorRow[]): string {
  const lines = [CSV_HEADER];
  for (const row of rows) lines.push(`${csvField(row.path)},${row.human},${row.ai},${row.total}`);
  return lines.join('\r\n') + '\r\n';
}

export interface JsonExport {
  projectId: string;
  /** `from`/`to` are the inclusive days shown in the panel; `dateFrom`/`dateTo` what the API was asked (dateTo exclusive). */
  range: { label: string; from: string | null; to: string | null; dateFrom: string | null; dateTo: string | null };
  exportedAt: string;
  /** Site-wide: `total` is deduplicated across human and AI, so it is not human + ai. */
  totals: VisitorTotals;
  rows: readonly VisitorRow[];
}

export function toJson(data: JsonExport): string {
  return JSON.stringify(data, null, 2) + '\n';
}
