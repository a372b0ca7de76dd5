// The analytics panel's view state (src/analytics/panelModel.ts), driven like the webview and the
// settings drive it, against a fake API whose answers the test releases one by one, and a fake
// clock. What is asserted is what the webview is sent and which requests leave. The page memory
// itself is test/unit/analytics/visitorsQuery.test.ts.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { PanelModel } from '../../../src/analytics/panelModel';
import type { PanelSettings, ViewMessage } from '../../../src/analytics/panelPorts';
import { PageCache, VisitorsPager } from '../../../src/analytics/visitorsQuery';
import type { ExportStatus, ExtensionMessage, ViewState } from '../../../src/shared/protocol';
import { HeldApi } from '../../support/heldApi';
import { l10n } from '../../support/l10n';

const MINUTE = 60_000;

/** Lets the promise callbacks queued so far run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function harness(settings: Partial<PanelSettings> = {}, { requestsThisHour }: { requestsThisHour?: () => number | undefined } = {}) {
  const api = new HeldApi();
  let time = Date.parse('2025-03-07T10:00:00');
  let today = '2025-03-07';
  const now = () => time;
  const pager = new VisitorsPager(api.fetch, new PageCache(), now);
  const sent: ExtensionMessage[] = [];
  const warnings: string[] = [];
  const model = new PanelModel(
    {
      pager,
      l10n,
      log: { warn: (m) => warnings.push(m), error: (m) => warnings.push(String(m)) },
      send: (m) => sent.push(m),
      now,
      today: () => today,
      requestsThisHour,
    },
    { projectId: 'p', pageSize: 50, notice: undefined, ...settings },
  );
  const states = () => sent.flatMap((m) => (m.type === 'state' ? [m.state] : []));
  return {
    api,
    pager,
    model,
    sent,
    warnings,
    states,
    last: (): ViewState => {
      const state = states().at(-1);
      assert.ok(state, 'a state was sent');
      return state;
    },
    act: (message: ViewMessage) => model.handle(message),
    advance: (ms: number) => (time += ms),
    setToday: (day: string) => (today = day),
  };
}

describe('analytics panel view state', () => {
  it('sends nothing before the webview is ready, then loads the last 30 days with one request', async () => {
    const h = harness();
    await h.model.settingsChanged({ projectId: 'p', pageSize: 50, notice: 'a notice' });
    assert.equal(h.sent.length, 0, 'the webview is not listening yet');
    const ready = h.act({ type: 'ready' });
    await flush();
    assert.equal(h.last().loading, true, 'it says it is loading while the request is out');
    assert.deepEqual(
      h.api.calls.map((c) => c.query),
      [{ dateFrom: '2025-02-06', dateTo: '2025-03-08', limit: 50, offset: 0 }],
    );
    h.api.answer(0);
    await ready;
    const state = h.last();
    assert.equal(state.loading, false);
    assert.equal(state.data?.rows.length, 50);
    assert.equal(state.data?.current, true);
    assert.equal(state.data?.rangeLabel, 'Last 30 days (2025-02-06 to 2025-03-07)');
    assert.equal(state.notice, 'a notice');
    assert.deepEqual(state.resolved, { from: '2025-02-06', to: '2025-03-07', label: 'Last 30 days (2025-02-06 to 2025-03-07)' });
  });

  it('pages forward only while the API has more, and back from memory', async () => {
    const h = harness();
    const ready = h.act({ type: 'ready' });
    await flush();
    h.api.answer(0);
    await ready;
    const next = h.act({ type: 'setPage', page: 2 });
    await flush();
    assert.equal(h.api.calls[1]?.query.offset, 50);
    h.api.answer(1, { count: 10, hasMore: false });
    await next;
    assert.equal(h.last().data?.page, 2);
    assert.equal(h.last().data?.hasMore, false);
    await h.act({ type: 'setPage', page: 3 });
    assert.equal(h.last().view.page, 2, 'no page 3 when the API said there is no more');
    assert.match(h.warnings.join('\n'), /ignored a move to page 3/);
    await h.act({ type: 'setPage', page: 1 });
    assert.equal(h.last().data?.fromCache, true);
    assert.equal(h.api.calls.length, 2, 'going back costs no request');
  });

  it('a custom range with an end before its start sends nothing and says why', async () => {
    const h = harness();
    void h.act({ type: 'ready' }); // its request is never answered
    await flush();
    await h.act({ type: 'setRange', range: { kind: 'custom', from: '2025-03-05', to: '2025-03-01' } });
    assert.match(String(h.last().rangeError), /before the start/);
    assert.equal(h.api.calls.length, 1, 'only the first page of the opening range was asked for');
  });

  it('a failure keeps the last good rows (not current) and offers Retry; Retry loads afresh', async () => {
    const h = harness();
    const ready = h.act({ type: 'ready' });
    await flush();
    h.api.answer(0);
    await ready;
    const refresh = h.act({ type: 'refresh' });
    await flush();
    h.api.calls[1]?.fail(new ApiError('serverError', 'The Mintlify API had a problem (502).', { status: 502 }));
    await refresh;
    assert.match(String(h.last().error?.message), /502/);
    assert.deepEqual(h.last().error?.actions, ['retry']);
    assert.equal(h.last().data?.rows.length, 50, 'the last good rows stay');
    const retry = h.act({ type: 'retry' });
    await flush();
    assert.equal(h.api.calls.length, 3, 'the failed load was forgotten: Retry sends a new request');
    h.api.answer(2);
    await retry;
    assert.equal(h.last().error, undefined);
  });

  it('after a 429 no request leaves before Retry-After has passed', async () => {
    const h = harness();
    const ready = h.act({ type: 'ready' });
    await flush();
    h.api.calls[0]?.fail(new ApiError('rateLimited', 'Too many requests.', { status: 429, retryAfterMs: 2 * MINUTE }));
    await ready;
    assert.match(String(h.last().error?.message), /429.*in 2 min/);
    await h.act({ type: 'retry' });
    assert.equal(h.api.calls.length, 1, 'Retry before the wait is over sends nothing');
    h.advance(2 * MINUTE);
    const retry = h.act({ type: 'retry' });
    await flush();
    assert.equal(h.api.calls.length, 2);
    h.api.answer(1);
    await retry;
    assert.equal(h.last().error, undefined);
  });

  it('no key shows only the setup hint; a new key loads', async () => {
    const h = harness();
    const ready = h.act({ type: 'ready' });
    await flush();
    h.api.calls[0]?.fail(new ApiError('noApiKey', 'No API key.'));
    await ready;
    assert.equal(h.last().setup?.action, 'setApiKey');
    const keyed = h.model.apiKeyChanged();
    await flush();
    h.api.answer(1);
    await keyed;
    assert.equal(h.last().setup, undefined);
    assert.equal(h.last().data?.current, true);
  });

  it('without a project ID it asks for one and sends nothing', async () => {
    const h = harness({ projectId: undefined });
    await h.act({ type: 'ready' });
    assert.equal(h.last().setup?.action, 'setProjectId');
    assert.equal(h.api.calls.length, 0);
  });

  it('a page that arrives after the range changed is not shown as the new range', async () => {
    const h = harness();
    const first = h.act({ type: 'ready' });
    await flush();
    const second = h.act({ type: 'setRange', range: { kind: 'preset', preset: 'last7' } });
    await flush();
    assert.equal(h.api.calls.length, 2);
    h.api.answer(0); // Last 30 days, late
    await first;
    assert.equal(h.last().data, undefined, 'the old range is not shown');
    assert.equal(h.last().loading, true, 'still waiting for Last 7 days');
    h.api.answer(1);
    await second;
    assert.equal(h.last().data?.rangeLabel, 'Last 7 days (2025-03-01 to 2025-03-07)');
    assert.ok(h.last().data?.rows.every((r) => r.path.includes('/2025-03-01/')));
  });

  it('a page that arrives after the project changed is not shown as the new project', async () => {
    const h = harness();
    const first = h.act({ type: 'ready' });
    await flush();
    const switched = h.model.settingsChanged({ projectId: 'q', pageSize: 50, notice: undefined });
    await flush();
    h.api.answer(0);
    await first;
    assert.equal(h.last().data, undefined);
    h.api.answer(1);
    await switched;
    assert.equal(h.last().projectId, 'q');
    assert.ok(h.last().data?.rows.every((r) => r.path.startsWith('/q/')));
  });

  it('a panel open past midnight moves "Last 7 days" to the new day on its next load', async () => {
    const h = harness();
    const opened = h.act({ type: 'setRange', range: { kind: 'preset', preset: 'last7' } });
    await flush();
    h.api.answer(0);
    await opened;
    await h.act({ type: 'ready' }); // the tab shown again the same day: nothing is fetched
    assert.equal(h.api.calls.length, 1);
    h.setToday('2025-03-08');
    h.advance(14 * 60 * MINUTE);
    const next = h.act({ type: 'ready' }); // shown again after midnight
    await flush();
    assert.deepEqual(
      h.api.calls.map((c) => [c.query.dateFrom, c.query.dateTo]),
      [
        ['2025-03-01', '2025-03-08'],
        ['2025-03-02', '2025-03-09'],
      ],
    );
    h.api.answer(1);
    await next;
    assert.equal(h.last().data?.rangeLabel, 'Last 7 days (2025-03-02 to 2025-03-08)');
  });

  it('sends the export status, and again to a webview that reloads', async () => {
    const h = harness();
    const status: ExportStatus = { state: 'done', rows: 3, requests: 1, fileName: 'v.csv' };
    h.model.showExportStatus(status);
    assert.equal(h.sent.length, 0);
    const ready = h.act({ type: 'ready' });
    await flush();
    assert.deepEqual(h.sent[0], { type: 'export', status });
    h.api.answer(0);
    await ready;
    assert.deepEqual(h.model.exportRequest('json')?.range.dateFrom, '2025-02-06');
  });

  it('a restored view is resumed; a forged one is ignored', async () => {
    const h = harness();
    const ready = h.act({ type: 'ready', restore: { range: { kind: 'preset', preset: 'last90' }, page: 3, pageSize: 100 } });
    await flush();
    assert.deepEqual(h.api.calls[0]?.query, { dateFrom: '2024-12-08', dateTo: '2025-03-08', limit: 100, offset: 200 });
    h.api.answer(0, { count: 100 });
    await ready;
    assert.equal(h.last().view.page, 3);
    const other = harness();
    const forged = other.act({ type: 'ready', restore: { range: 'everything', page: -1 } });
    await flush();
    other.api.answer(0);
    await forged;
    assert.deepEqual(other.last().view, { range: { kind: 'preset', preset: 'last30' }, page: 1, pageSize: 50, metric: 'visitors' });
    assert.match(other.warnings.join('\n'), /ignored the saved view/);
  });

  it('closing the panel aborts its request and sends nothing more', async () => {
    const h = harness();
    void h.act({ type: 'ready' });
    await flush();
    const before = h.sent.length;
    h.model.dispose();
    await flush();
    assert.equal(h.api.calls[0]?.signal?.aborted, true, 'the request is aborted');
    assert.equal(h.pager.pending, 0, 'and forgotten: the next panel asks afresh');
    assert.equal(h.sent.length, before);
  });

  it('shows the request count of the shared ledger when there is one', async () => {
    let count = 7;
    const h = harness({}, { requestsThisHour: () => count });
    await h.act({ type: 'setPageSize', pageSize: 50 });
    void h.act({ type: 'ready' });
    await flush();
    assert.equal(h.last().requestsThisHour, 7);
    count = 8;
    h.api.answer(0);
    await flush();
    assert.equal(h.last().requestsThisHour, 8);
    assert.equal(harness().model.state.requestsThisHour, undefined);
  });
});
