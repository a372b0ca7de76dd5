// The export formats (src/analytics/exportFormats.ts): Export's CSV and JSON of the visitors, and
// Export Trend's. No vscode import.
import assert from 'node:assert/strict';
import type { VisitorRow } from '../../../src/api/schemas';
import { CSV_HEADER, csvField, toCsv, toJson, trendToCsv, trendToJson } from '../../../src/analytics/exportFormats';
import { readCsv } from '../../support/csv';

const row = (path: string, human = 1, ai = 2, total = 3): VisitorRow => ({ path, human, ai, total });

describe('CSV export', () => {
  it('starts with the header and ends every line with CRLF', () => {
    assert.equal(toCsv([row('/a', 5, 2, 6)]), `${CSV_HEADER}\r\n/a,5,2,6\r\n`);
    assert.equal(toCsv([]), 'path,human,ai,total\r\n');
  });
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    assert.equal(csvField('/a,b'), '"/a,b"');
    assert.equal(csvField('/say "hi"'), '"/say ""hi"""');
    assert.equal(csvField('/line\nbreak'), '"/line\nbreak"');
    assert.equal(csvField('/cr\r\nlf'), '"/cr\r\nlf"');
    assert.equal(csvField('/plain-path_1.2'), '/plain-path_1.2');
  });
  for (const start of ['=', '+', '-', '@', '\t', '\r']) {
    it(`neutralises a cell starting with ${JSON.stringify(start)}`, () => {
      const cell = csvField(`${start}1+1`);
      const value = readCsv(`${cell}\r\n`)[0]?.[0];
      assert.equal(value, `'${start}1+1`);
    });
  }
  it('neutralises and quotes at once', () => {
    assert.equal(csvField('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
  });
  it('does not touch a formula character later in the cell', () => assert.equal(csvField('/a=b+c-d@e'), '/a=b+c-d@e'));
  it('reads back as the same rows, whatever the paths hold', () => {
    const rows = [row('/<img src=x onerror=alert(1)>'), row('/a,"b"\r\nc'), row('/ünïcödé/页面'), row('/x'.repeat(2500), 0, 0, 0), row('-1', 7, 8, 9)];
    const csv = toCsv(rows);
    assert.ok(csv.endsWith('\r\n'), 'every record ends with CRLF');
    const records = readCsv(csv);
    assert.deepEqual(records[0], ['path', 'human', 'ai', 'total']);
    assert.equal(records.length, rows.length + 1);
    assert.deepEqual(
      records.slice(1, 4).map((r) => r[0]),
      [rows[0].path, rows[1].path, rows[2].path],
    );
    assert.deepEqual(records[5], ["'-1", '7', '8', '9']);
  });
});

describe('JSON export', () => {
  it('holds the range, the totals and the rows', () => {
    const json = JSON.parse(
      toJson({
        projectId: 'p',
        metric: 'visitors',
        range: { label: 'Last 7 days', from: '2025-03-01', to: '2025-03-07', dateFrom: '2025-03-01', dateTo: '2025-03-08' },
        exportedAt: '2025-03-07T12:00:00.000Z',
        totals: { human: 5, ai: 3, total: 7 },
        rows: [row('/a')],
      }),
    ) as Record<string, unknown>;
    assert.deepEqual(json.totals, { human: 5, ai: 3, total: 7 });
    assert.deepEqual(json.rows, [row('/a')]);
    assert.equal((json.range as { dateTo: string }).dateTo, '2025-03-08');
  });
});

const TODAY = '2026-11-25';

describe('Export Trend’s formats (src/analytics/exportFormats.ts)', () => {
  const point = (from: string, to: string, total: number, extra: Partial<{ partial: boolean; open: boolean }> = {}) => ({
    from,
    to,
    partial: false,
    open: false,
    human: total,
    ai: 1,
    total,
    ...extra,
  });
  const trend = {
    projectId: 'p',
    metric: 'visitors' as const,
    unit: 'week' as const,
    range: { label: 'Last 90 days', from: '2026-08-28', to: TODAY },
    points: [point('2026-08-28', '2026-08-30', 5, { partial: true }), point('2026-11-23', TODAY, 9, { partial: true, open: true })],
    previous: undefined,
  };

  it('writes one CSV row a bucket, with the previous period beside it when compared', () => {
    assert.equal(
      trendToCsv(trend),
      'from,to,partial,open,human,ai,total\r\n2026-08-28,2026-08-30,true,false,5,1,5\r\n2026-11-23,2026-11-25,true,true,9,1,9\r\n',
    );
    const compared = trendToCsv({
      ...trend,
      previous: [point('2026-05-30', '2026-06-01', 4, { partial: true }), point('2026-08-25', '2026-08-27', 7, { partial: true })],
    });
    assert.equal(
      compared.split('\r\n')[0],
      'from,to,partial,open,human,ai,total,previous_from,previous_to,previous_partial,previous_open,previous_human,previous_ai,previous_total',
    );
    assert.equal(compared.split('\r\n')[2], '2026-11-23,2026-11-25,true,true,9,1,9,2026-08-25,2026-08-27,true,false,7,1,7');
  });

  it('writes the JSON with its range, unit and metric, and null for no previous period', () => {
    const json = JSON.parse(trendToJson(trend, '2026-11-25T12:00:00.000Z')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['projectId', 'metric', 'unit', 'range', 'points', 'previous', 'exportedAt']);
    assert.equal(json.previous, null);
    assert.equal((json.points as unknown[]).length, 2);
  });
});
