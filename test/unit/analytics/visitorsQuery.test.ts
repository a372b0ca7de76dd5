// The analytics panel's pure parts: date ranges, the export formats, the webview message
// validation, the page memory and the export's paging. No vscode import.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { VisitorsQuery } from '../../../src/api/inputs';
import type { VisitorRow, VisitorsPage } from '../../../src/api/schemas';
import { parseDay, resolveRange, type ResolvedRange } from '../../../src/analytics/dateRange';
import { addDays, localToday } from '../../../src/util/days';
import { CSV_HEADER, csvField, toCsv, toJson } from '../../../src/analytics/exportFormats';
import { contentSecurityPolicy, panelHtml } from '../../../src/analytics/panelHtml';
import { webviewStrings } from '../../../src/analytics/webviewStrings';
import { format } from '../../../src/shared/format';
import { fetchAllVisitors, PageCache, VisitorsPager, type FetchVisitors, type PageKey } from '../../../src/analytics/visitorsQuery';
import { MAX_PAGE, MAX_PATH_LENGTH, parseRestoredView, parseWebviewMessage, type RangeSelection } from '../../../src/shared/protocol';
import { readCsv } from '../../support/csv';
import { l10n } from '../../support/l10n';

const preset = (id: Extract<RangeSelection, { kind: 'preset' }>['preset']): RangeSelection => ({ kind: 'preset', preset: id });
const custom = (from: string, to: string): RangeSelection => ({ kind: 'custom', from, to });

function resolved(selection: RangeSelection, today: string): ResolvedRange {
  const result = resolveRange(selection, today, l10n);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.range;
}

function refused(selection: RangeSelection, today = '2025-03-07'): string {
  const result = resolveRange(selection, today, l10n);
  assert.equal(result.ok, false);
  return result.ok ? '' : result.message;
}

describe('date ranges', () => {
  describe('presets (today is included; dateTo is the exclusive day after)', () => {
    const today = '2025-03-07';
    const cases: [RangeSelection, string, string][] = [
      [preset('last7'), '2025-03-01', '2025-03-08'],
      [preset('last30'), '2025-02-06', '2025-03-08'],
      [preset('last90'), '2024-12-08', '2025-03-08'],
      [preset('thisMonth'), '2025-03-01', '2025-03-08'],
    ];
    for (const [selection, dateFrom, dateTo] of cases) {
      it(`${JSON.stringify(selection)} → ${dateFrom} … ${dateTo}`, () => {
        const range = resolved(selection, today);
        assert.equal(range.dateFrom, dateFrom);
        assert.equal(range.dateTo, dateTo);
        assert.equal(range.to, today, 'the last day shown is today');
      });
    }
    it('Last 7 days covers exactly 7 calendar days', () => {
      const range = resolved(preset('last7'), today);
      assert.equal(addDays(range.dateFrom!, 7), range.dateTo);
    });
    it('All time sends no bounds at all', () => {
      const range = resolved(preset('allTime'), today);
      assert.deepEqual([range.dateFrom, range.dateTo, range.from, range.to], [undefined, undefined, undefined, undefined]);
      assert.equal(range.label, 'All time');
    });
    it('labels name the preset and the inclusive days', () => {
      assert.equal(resolved(preset('last7'), today).label, 'Last 7 days (2025-03-01 to 2025-03-07)');
    });
  });

  describe('month, year and leap boundaries', () => {
    it('Last 7 days on the 1st of March reaches back into February', () => {
      const range = resolved(preset('last7'), '2025-03-01');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2025-02-23', '2025-03-02']);
    });
    it('Last 7 days early in January reaches back into December', () => {
      assert.equal(resolved(preset('last7'), '2025-01-03').dateFrom, '2024-12-28');
    });
    it('counts 29 February in a leap year', () => {
      assert.equal(resolved(preset('last7'), '2024-03-01').dateFrom, '2024-02-24');
      assert.equal(resolved(preset('last7'), '2025-03-01').dateFrom, '2025-02-23');
    });
    it('This month on a leap day ends before 1 March', () => {
      const range = resolved(preset('thisMonth'), '2024-02-29');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2024-02-01', '2024-03-01']);
    });
    it('This month on the 1st is that one day', () => {
      const range = resolved(preset('thisMonth'), '2025-04-01');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2025-04-01', '2025-04-02']);
    });
    it('the last day of the year rolls over to the next', () => assert.equal(addDays('2025-12-31', 1), '2026-01-01'));
    it('adding days is immune to daylight saving changes', () => {
      assert.equal(addDays('2025-03-30', 1), '2025-03-31'); // Europe springs forward
      assert.equal(addDays('2025-11-02', 1), '2025-11-03'); // the US falls back
    });
  });

  describe('custom ranges (end inclusive)', () => {
    it('turns the inclusive end into the exclusive dateTo', () => {
      const range = resolved(custom('2025-02-01', '2025-02-28'), '2025-03-07');
      assert.deepEqual([range.dateFrom, range.dateTo], ['2025-02-01', '2025-03-01']);
    });
    it('a single day is from that day to the next', () => {
      const range = resolved(custom('2024-02-29', '2024-02-29'), '2025-03-07');
      assert.deepEqual([range.dateFrom, range.dateTo, range.label], ['2024-02-29', '2024-03-01', '2024-02-29']);
    });
    it('ignores surrounding spaces', () => assert.equal(resolved(custom(' 2025-01-01 ', '2025-01-02'), '2025-03-07').dateFrom, '2025-01-01'));
    it('refuses an end before the start, naming both', () => {
      assert.equal(refused(custom('2025-03-07', '2025-03-01')), 'The end date 2025-03-01 is before the start date 2025-03-07.');
    });
    for (const bad of ['2025-02-30', '2023-02-29', '2025-13-01', '2025-3-1', 'yesterday', '0099-01-01', '2025-01-01T00:00:00Z']) {
      it(`refuses the start date ${JSON.stringify(bad)}`, () => assert.match(refused(custom(bad, '2025-03-01')), /is not a valid start date/));
      it(`refuses the end date ${JSON.stringify(bad)}`, () => assert.match(refused(custom('2025-01-01', bad)), /is not a valid end date/));
    }
    it('asks for a missing start or end', () => {
      assert.equal(refused(custom('', '2025-03-01')), 'Choose a start date.');
      assert.equal(refused(custom('2025-03-01', ' ')), 'Choose an end date.');
    });
  });

  it('parseDay accepts real days only', () => {
    assert.equal(parseDay('2024-02-29'), '2024-02-29');
    assert.equal(parseDay('2023-02-29'), undefined);
  });
  it("today is the user's local calendar day", () => {
    assert.equal(localToday(new Date(2025, 2, 30, 0, 30)), '2025-03-30');
    assert.equal(localToday(new Date(2025, 11, 31, 23, 59)), '2025-12-31');
  });
});

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

describe('messages from the webview', () => {
  const accepted = (message: unknown) => {
    const parsed = parseWebviewMessage(message);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    return parsed.message;
  };
  const rejected = (message: unknown) => {
    const parsed = parseWebviewMessage(message);
    assert.equal(parsed.ok, false, `accepted ${JSON.stringify(message)?.slice(0, 100)}`);
    return parsed.ok ? '' : parsed.reason;
  };

  it('accepts every message the webview sends', () => {
    accepted({ type: 'ready' });
    accepted({ type: 'ready', restore: { range: preset('last7'), page: 2, pageSize: 50 } });
    accepted({ type: 'setRange', range: preset('thisMonth') });
    accepted({ type: 'setRange', range: custom('2025-01-01', '2025-01-31') });
    accepted({ type: 'setPage', page: 3 });
    accepted({ type: 'setPageSize', pageSize: 250 });
    accepted({ type: 'refresh' });
    accepted({ type: 'retry' });
    accepted({ type: 'export', format: 'json' });
    accepted({ type: 'openPath', path: '/quickstart' });
    accepted({ type: 'runCommand', command: 'setApiKey' });
  });
  it('accepts a 5,000-character path', () => assert.equal(accepted({ type: 'openPath', path: '/'.padEnd(5000, 'a') }).type, 'openPath'));
  it('passes a custom date it cannot parse on, so the panel can say what is wrong with it', () => {
    accepted({ type: 'setRange', range: custom('2025-02-30', 'nonsense') });
  });

  for (const message of [null, undefined, 42, 'ready', [], [{ type: 'ready' }], {}, { type: 'launchMissiles' }, { type: 'READY' }, { type: ['ready'] }]) {
    it(`ignores ${JSON.stringify(message) ?? 'undefined'}`, () => rejected(message));
  }
  for (const [name, message] of [
    ['a page as text', { type: 'setPage', page: '2' }],
    ['a fractional page', { type: 'setPage', page: 1.5 }],
    ['page 0', { type: 'setPage', page: 0 }],
    ['a negative page', { type: 'setPage', page: -1 }],
    ['a huge page', { type: 'setPage', page: MAX_PAGE + 1 }],
    ['page 1e12', { type: 'setPage', page: 1e12 }],
    ['an infinite page', { type: 'setPage', page: Infinity }],
    ['a page size of 251', { type: 'setPageSize', pageSize: 251 }],
    ['a page size of 0', { type: 'setPageSize', pageSize: 0 }],
    ['a page size as text', { type: 'setPageSize', pageSize: '50' }],
    ['an unknown preset', { type: 'setRange', range: { kind: 'preset', preset: 'last8' } }],
    ['an unknown range kind', { type: 'setRange', range: { kind: 'relative', days: 7 } }],
    ['dates that are not text', { type: 'setRange', range: { kind: 'custom', from: 20250101, to: 20250131 } }],
    ['a date of 33 characters', { type: 'setRange', range: custom('2025-01-01'.padEnd(33, ' '), '2025-01-02') }],
    ['a path that is too long', { type: 'openPath', path: '/'.padEnd(MAX_PATH_LENGTH + 1, 'a') }],
    ['an empty path', { type: 'openPath', path: '' }],
    ['an unknown format', { type: 'export', format: 'xlsx' }],
    ['an arbitrary command', { type: 'runCommand', command: 'workbench.action.terminal.new' }],
  ] as const) {
    it(`ignores ${name}`, () => rejected(message));
  }
  for (const [name, message] of [
    ['an offset next to the page', { type: 'setPage', page: 2, offset: 1e15 }],
    ['a field on refresh', { type: 'refresh', force: true }],
    ['a field inside the range', { type: 'setRange', range: { kind: 'preset', preset: 'last7', dateFrom: '1970-01-01' } }],
  ] as const) {
    it(`ignores extra fields: ${name}`, () => rejected(message));
  }
  it('names the message type in the reason, cut short', () => {
    const reason = rejected({ type: 'x'.repeat(1000) });
    assert.ok(reason.length < 700);
    assert.match(reason, /^"x+"/);
  });

  it('keeps a restored view only when it is a valid one', () => {
    assert.deepEqual(
      parseRestoredView({ range: preset('last90'), page: 4, pageSize: 100 }),
      { range: preset('last90'), page: 4, pageSize: 100, metric: 'visitors' },
      'a view saved before the metric switch counted visitors',
    );
    assert.equal(parseRestoredView({ range: preset('last90'), page: 4 }), undefined);
    assert.equal(parseRestoredView({ range: preset('last90'), page: MAX_PAGE * 10, pageSize: 100 }), undefined);
    assert.equal(parseRestoredView('garbage'), undefined);
    // A stale saved state must not break the handshake itself.
    accepted({ type: 'ready', restore: 'garbage' });
  });
});

// ---- The page memory and the export's paging, against a fake API ----------------------------------

const TOTALS = { human: 10, ai: 4, total: 12 };

function dataset(count: number): VisitorRow[] {
  return Array.from({ length: count }, (_, i) => row(`/page-${i}`, i, count - i, count));
}

/** Serves `rows` like the API; counts calls; `failOn` makes one call throw. */
function fakeApi(rows: VisitorRow[], failOn?: { call: number; error: Error }) {
  const calls: VisitorsQuery[] = [];
  const fetch: FetchVisitors = async (_projectId, query) => {
    calls.push(query);
    await Promise.resolve();
    if (failOn && calls.length === failOn.call) throw failOn.error;
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 50;
    return { totals: TOTALS, visitors: rows.slice(offset, offset + limit), hasMore: offset + limit < rows.length };
  };
  return { fetch, calls };
}

const key = (pageSize = 50, dateFrom: string | undefined = '2025-03-01'): PageKey => ({ projectId: 'p', dateFrom, dateTo: '2025-03-08', pageSize });

describe('VisitorsPager', () => {
  it('asks for offset (page - 1) × limit with the range', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    await pager.load(key(25), 3);
    assert.deepEqual(api.calls, [{ dateFrom: '2025-03-01', dateTo: '2025-03-08', limit: 25, offset: 50 }]);
  });
  it('going back to a page already fetched costs no request', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    assert.equal((await pager.load(key(), 1)).fromCache, false);
    await pager.load(key(), 2);
    const back = await pager.load(key(), 1);
    assert.equal(back.fromCache, true);
    assert.equal(back.page.visitors[0]?.path, '/page-0');
    assert.equal(api.calls.length, 2);
    assert.ok(pager.cached(key(), 2));
  });
  it('another page size or range is another key', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    await pager.load(key(50), 1);
    await pager.load(key(100), 1);
    await pager.load(key(50, '2025-02-01'), 1);
    assert.equal(api.calls.length, 3);
  });
  it('Refresh forgets the pages of its key only', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    await pager.load(key(50), 1);
    await pager.load(key(50), 2);
    await pager.load(key(100), 1);
    const fresh = await pager.load(key(50), 1, { refresh: true });
    assert.equal(fresh.fromCache, false);
    assert.equal(api.calls.length, 4);
    assert.equal(pager.cached(key(50), 2), undefined, 'page 2 of the refreshed key is forgotten');
    assert.ok(pager.cached(key(100), 1), 'other keys stay');
  });
  it('two asks for a page on its way make one request', async () => {
    const api = fakeApi(dataset(120));
    const pager = new VisitorsPager(api.fetch);
    const [a, b] = await Promise.all([pager.load(key(), 1), pager.load(key(), 1)]);
    assert.equal(api.calls.length, 1);
    assert.equal(a.page, b.page);
  });
  it('does not remember a failure: the next ask tries again', async () => {
    const api = fakeApi(dataset(10), { call: 1, error: new ApiError('network', 'offline') });
    const pager = new VisitorsPager(api.fetch);
    await assert.rejects(pager.load(key(), 1), { kind: 'network' });
    assert.equal((await pager.load(key(), 1)).page.visitors.length, 10);
    assert.equal(api.calls.length, 2);
  });
  it('remembers when a page was fetched', async () => {
    const pager = new VisitorsPager(fakeApi(dataset(5)).fetch, new PageCache(), () => 1234);
    await pager.load(key(), 1);
    assert.equal(pager.cached(key(), 1)?.fetchedAt, 1234);
  });
  it('cancels what is on its way when disposed', async () => {
    let seen: AbortSignal | undefined;
    const pager = new VisitorsPager(async (_p, _q, { signal }) => {
      seen = signal;
      return { totals: TOTALS, visitors: [], hasMore: false };
    });
    await pager.load(key(), 1);
    pager.dispose();
    assert.equal(seen?.aborted, true);
  });
});

describe('PageCache', () => {
  const page = (n: number): VisitorsPage => ({ totals: TOTALS, visitors: [row(`/${n}`)], hasMore: true });
  it('drops the least recently used page beyond its size', () => {
    const cache = new PageCache(2);
    cache.set(key(), 1, page(1), 0);
    cache.set(key(), 2, page(2), 0);
    cache.get(key(), 1); // page 1 is now the most recently used
    cache.set(key(), 3, page(3), 0);
    assert.equal(cache.size, 2);
    assert.ok(cache.get(key(), 1));
    assert.equal(cache.get(key(), 2), undefined);
  });
});

describe('fetchAllVisitors (export paging)', () => {
  const range = { dateFrom: '2025-03-01', dateTo: '2025-03-08' };

  for (const count of [0, 1, 249, 250, 251, 1234, 10_001]) {
    it(`${count} rows take ceil(${count}/250) requests (at least one) and come back whole`, async () => {
      const rows = dataset(count);
      const api = fakeApi(rows);
      const pages: number[] = [];
      const all = await fetchAllVisitors(api.fetch, 'p', range, { onPage: (n) => pages.push(n) });
      assert.equal(api.calls.length, Math.max(1, Math.ceil(count / 250)));
      assert.deepEqual(all.rows, rows);
      assert.deepEqual(all.totals, TOTALS);
      assert.equal(all.cutShort, undefined);
      assert.ok(api.calls.every((q, i) => q.limit === 250 && q.offset === i * 250 && q.dateFrom === range.dateFrom && q.dateTo === range.dateTo));
      assert.equal(pages.length, count ? api.calls.length : 0);
    });
  }
  it('stops on an empty page even when the API says there is more', async () => {
    let calls = 0;
    const all = await fetchAllVisitors(
      async (_p, q) => {
        calls++;
        return { totals: TOTALS, visitors: (q.offset ?? 0) === 0 ? dataset(250) : [], hasMore: true };
      },
      'p',
      range,
    );
    assert.equal(calls, 2);
    assert.equal(all.rows.length, 250);
    assert.deepEqual(all.cutShort, { reason: 'emptyPage', pages: 2 });
  });
  it('stops when the API ignores the offset and sends page 1 again', async () => {
    let calls = 0;
    const all = await fetchAllVisitors(
      async () => {
        calls++;
        return { totals: TOTALS, visitors: dataset(250), hasMore: true };
      },
      'p',
      range,
    );
    assert.equal(calls, 2);
    assert.equal(all.rows.length, 250);
    assert.deepEqual(all.cutShort, { reason: 'noNewRows', pages: 2 });
  });
  it('never loops forever: stops at the page limit, cut short, with the rows read', async () => {
    const api = fakeApi(dataset(10_000));
    const all = await fetchAllVisitors(api.fetch, 'p', range, { maxPages: 5 });
    assert.deepEqual(all.cutShort, { reason: 'cap', pages: 5 });
    assert.equal(all.rows.length, 1_250);
    assert.equal(api.calls.length, 5);
  });
  it('a 429 halfway through fails the whole export after the request that got it', async () => {
    const api = fakeApi(dataset(1000), { call: 3, error: new ApiError('rateLimited', 'slow down', { status: 429, retryAfterMs: 60_000 }) });
    await assert.rejects(fetchAllVisitors(api.fetch, 'p', range), { kind: 'rateLimited', retryAfterMs: 60_000 });
    assert.equal(api.calls.length, 3);
  });
  it('a dropped connection fails the export', async () => {
    const api = fakeApi(dataset(1000), { call: 2, error: new ApiError('network', 'Could not reach the API (ECONNRESET).') });
    await assert.rejects(fetchAllVisitors(api.fetch, 'p', range), { kind: 'network' });
  });
  it('stops between pages once cancelled', async () => {
    const api = fakeApi(dataset(1000));
    const cancel = new AbortController();
    await assert.rejects(fetchAllVisitors(api.fetch, 'p', range, { signal: cancel.signal, onPage: (pages) => pages === 2 && cancel.abort() }), {
      name: 'AbortError',
    });
    assert.equal(api.calls.length, 2);
  });
});

describe('panel HTML', () => {
  const input = {
    cspSource: 'https://webview.example',
    scriptUri: 'https://webview.example/dist/webview.js',
    styleUri: 'https://webview.example/media/analytics.css',
    nonce: 'abc123',
  };
  const html = panelHtml({ ...input, strings: webviewStrings(l10n) });
  it('has a strict content security policy', () => {
    assert.equal(
      contentSecurityPolicy('https://webview.example', 'abc123'),
      "default-src 'none'; style-src https://webview.example; script-src 'nonce-abc123'; img-src https://webview.example; font-src https://webview.example",
    );
    assert.ok(html.includes(`content="default-src 'none'; style-src https://webview.example; script-src 'nonce-abc123';`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
  });
  it('loads its one script by nonce and has no inline script, style or handler', () => {
    assert.deepEqual(html.match(/<script[^>]*>/g), ['<script nonce="abc123" src="https://webview.example/dist/webview.js">']);
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
  });
  it('labels every control', () => {
    for (const id of ['preset', 'from', 'to', 'page-size', 'filter']) assert.match(html, new RegExp(`<label for="${id}">`));
  });
  it('shows the words it is given, as text, and hands the whole set to the webview script', () => {
    // A translation that happens to contain markup must stay text in the static HTML and in data-strings.
    const strings = { ...webviewStrings(l10n), dateRange: 'Zeitraum <b>&</b>', presets: { ...webviewStrings(l10n).presets, last7: 'Letzte 7 Tage' } };
    const translated = panelHtml({ ...input, strings, lang: 'de' });
    assert.match(translated, /<html lang="de">/);
    assert.match(translated, /<label for="preset">Zeitraum &lt;b&gt;&amp;&lt;\/b&gt;<\/label>/);
    assert.match(translated, /<option value="last7">Letzte 7 Tage<\/option>/);
    assert.doesNotMatch(translated, /<b>/);
    const attribute = /data-strings="([^"]*)"/.exec(translated)?.[1] ?? '';
    const decoded = attribute.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
    assert.deepEqual(JSON.parse(decoded), strings);
  });
});

describe('webview strings', () => {
  it('every text the webview shows is worded by the extension, none empty', () => {
    const strings = webviewStrings(l10n);
    const empty = Object.entries(strings).filter(([, value]) => typeof value === 'string' && !value.trim());
    assert.deepEqual(empty, []);
    assert.deepEqual(Object.values(strings.presets), ['Last 7 days', 'Last 30 days', 'Last 90 days', 'This month', 'All time']);
  });
  it('fills the placeholders the way vscode.l10n.t does', () => {
    const strings = webviewStrings(l10n);
    assert.equal(format(strings.fromMemory, '2', '10:15'), 'Page 2 from memory, fetched at 10:15. Refresh fetches it again.');
    assert.equal(format(strings.exported, '1,200', 'visitors.csv', '5'), 'Exported 1,200 rows to visitors.csv with 5 requests.');
    assert.equal(format('{0} of {1}, {2}', 'a', 'b'), 'a of b, {2}', 'a missing value leaves its placeholder');
    assert.equal(format('{0}', '{1}', 'x'), '{1}', 'a value is not read as a template again');
  });
});
