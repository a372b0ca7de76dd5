// Figure 5, the webview: how long the real Visitor Analytics webview takes to render 250 rows, and to
// sort and filter 10,000 loaded rows (and the real maximum, 250), read from the browser's own
// performance timeline.
//
// Method: inside the real workbench (code-server in headless Chromium, the start that measured
// activation last), the panel is opened for real and loads its first page from the simulator. Then,
// in the webview's own document (the inner #active-frame of its iframe), a state message shaped
// exactly like the extension's (ViewState) is dispatched as a `message` event, and the real sort
// buttons and filter box are used. Each figure is a performance.measure from just before the
// message, click or input event to just after the table's layout is up to date (the handler runs
// synchronously; a forced layout read ends the span), with a second mark when the handler returns
// (script alone). Paint is not included. Each run starts on a fresh frame.
import type { Frame, Page } from 'playwright-core';
import type { TrendView, ViewState, VisitorRowView } from '../src/shared/protocol';
import { median } from './stats';
import { benchTrendPoints } from './trend';

export const FILTER_TERM = 'guide';

export interface WebviewFigure {
  name: string;
  medianMs: number;
  maxMs: number;
  /** The webview's own script (the handler), without style and layout. */
  scriptMedianMs: number;
  runs: number;
}

/** Suffix of the measure that ends when the handler returns, before layout. */
const SCRIPT = ' [script]';

export interface WebviewResult {
  figures: WebviewFigure[];
  /** Rows matching the filter term among the 10,000. */
  filterMatches: number;
  /** Figure 12: drawing the trend (names start with TREND). */
  trend?: WebviewFigure[];
}

/** Prefix of the trend's measures, reported in figure 12 rather than 5. */
const TREND = 'trend: ';

function readyTrend(unit: 'day' | 'week', count: number, withPrevious: boolean): TrendView {
  const period = unit === 'day' ? count : count * 7;
  return {
    status: 'ready',
    unit,
    message: undefined,
    points: benchTrendPoints(unit, count),
    previous: withPrevious ? benchTrendPoints(unit, count, -period) : undefined,
    cost: `${count} requests for ${count} points.`,
  };
}

/** The webview's document: the frame that holds the panel's table. */
async function panelFrame(page: Page, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      const found = await frame.evaluate(() => !!document.getElementById('rows') && !!document.getElementById('filter')).catch(() => false);
      if (found) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview frame with the analytics table within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function viewState(rows: VisitorRowView[], fetchedAt: number): ViewState {
  const totals = { human: 0, ai: 0, total: 0 };
  for (const row of rows) {
    totals.human += row.human;
    totals.ai += row.ai;
    totals.total += row.total;
  }
  const label = 'Last 30 days (bench)';
  return {
    projectId: 'demo-project',
    setup: undefined,
    view: { range: { kind: 'preset', preset: 'last30' }, page: 1, pageSize: 250, metric: 'visitors' },
    resolved: { from: undefined, to: undefined, label },
    rangeError: undefined,
    loading: false,
    data: { totals, rows, hasMore: true, page: 1, pageSize: 250, rangeLabel: label, current: true, fromCache: false, fetchedAt },
    error: undefined,
    notice: undefined,
    requestsThisHour: undefined,
    compare: undefined,
    focus: undefined,
    trend: undefined,
  };
}

interface InPageInput {
  small: ViewState;
  large: ViewState;
  /** The same 250 rows as `small` (same fetchedAt, the table is not rebuilt), with and without a trend. */
  trends: { name: string; state: ViewState }[];
  repeats: number;
  term: string;
}

export async function measureWebview(page: Page, rows: VisitorRowView[], repeats: number): Promise<WebviewResult> {
  const frame = await panelFrame(page, 30_000);
  const now = Date.now();
  const small = viewState(rows.slice(0, 250), now);
  const trends = [
    { name: `${TREND}the same 250 rows without a trend (baseline)`, state: small },
    { name: `${TREND}draw 90 daily points`, state: { ...small, trend: readyTrend('day', 90, false) } },
    { name: `${TREND}draw 52 weekly points`, state: { ...small, trend: readyTrend('week', 52, false) } },
    { name: `${TREND}draw 52 weekly points with the previous period`, state: { ...small, trend: readyTrend('week', 52, true) } },
  ];
  const input: InPageInput = { small, large: viewState(rows.slice(0, 10_000), now), trends, repeats, term: FILTER_TERM };
  // Runs in the webview's document. Self-contained: Playwright sends it as source text.
  const durations = await frame.evaluate(
    async ({ small, large, trends, repeats, term, script }: InPageInput & { script: string }) => {
      const nextFrame = () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(undefined);
          }),
        );
      const table = document.getElementById('rows') as HTMLElement;
      const filter = document.getElementById('filter') as HTMLInputElement;
      let seq = 0;
      const measure = async (name: string, action: () => void, laidOut: HTMLElement = table) => {
        await nextFrame();
        const id = `${name}#${++seq}`;
        performance.mark(`${id}:start`);
        action();
        performance.mark(`${id}:script`);
        void laidOut.getBoundingClientRect().height; // forces style and layout of the updated table
        performance.mark(`${id}:end`);
        performance.measure(name, `${id}:start`, `${id}:end`);
        performance.measure(`${name}${script}`, `${id}:start`, `${id}:script`);
      };
      // A new fetchedAt makes it a new page of data, as a real load is: the rows are built afresh.
      const post = (state: ViewState) => {
        const data = state.data && { ...state.data, fetchedAt: state.data.fetchedAt + ++seq };
        window.dispatchEvent(new MessageEvent('message', { data: { type: 'state', state: { ...state, data } } }));
      };
      const click = (column: string) => (document.querySelector(`button.sort[data-column="${column}"]`) as HTMLButtonElement).click();
      const type = (text: string) => {
        filter.value = text;
        filter.dispatchEvent(new Event('input'));
      };
      const columns = ['path', 'total', 'human', 'ai'];

      performance.clearMarks();
      performance.clearMeasures();
      type('');
      for (let i = 0; i < repeats; i++) await measure('render 250 rows', () => post(small));
      for (let i = 0; i < repeats; i++) await measure('render 10,000 rows (first 500 shown)', () => post(large));
      for (let i = 0; i < repeats; i++) await measure('sort 10,000 rows', () => click(columns[i % columns.length]));
      for (let i = 0; i < repeats; i++) {
        await measure('filter 10,000 rows', () => type(term));
        await measure('clear the filter on 10,000 rows', () => type(''));
      }
      type(term);
      const matches = document.querySelectorAll('#rows tr').length;
      type('');
      post(small);
      // What the panel posts before every request: the same rows, now with loading on.
      const same = { ...small, loading: true, data: small.data && { ...small.data, fetchedAt: small.data.fetchedAt + seq } };
      for (let i = 0; i < repeats; i++)
        await measure('state message with the same 250 rows (loading on)', () =>
          window.dispatchEvent(new MessageEvent('message', { data: { type: 'state', state: same } })),
        );
      for (let i = 0; i < repeats; i++) await measure('sort 250 rows', () => click(columns[i % columns.length]));
      for (let i = 0; i < repeats; i++) {
        await measure('filter 250 rows', () => type(term));
        type('');
      }
      // Figure 12: the trend drawn with the 250 rows already on screen (same fetchedAt: the table is
      // not rebuilt), the layout forced on the chart. Alternating with the baseline, so every draw
      // replaces a chart-less state and builds the SVG and its table afresh.
      const chart = document.getElementById('trend') as HTMLElement;
      const send = (state: ViewState) => window.dispatchEvent(new MessageEvent('message', { data: { type: 'state', state } }));
      const [baseline, ...drawn] = trends;
      send(baseline.state);
      for (let i = 0; i < repeats; i++) {
        for (const { name, state } of drawn) {
          await measure(name, () => send(state), chart);
          await measure(baseline.name, () => send(baseline.state), chart);
        }
      }
      const byName: Record<string, number[]> = {};
      for (const entry of performance.getEntriesByType('measure')) (byName[entry.name] ??= []).push(entry.duration);
      return { byName, matches };
    },
    { ...input, script: SCRIPT },
  );
  const all = Object.entries(durations.byName)
    .filter(([name]) => !name.endsWith(SCRIPT))
    .map(([name, values]) => ({
      name,
      medianMs: median(values),
      maxMs: Math.max(...values),
      scriptMedianMs: median(durations.byName[name + SCRIPT] ?? []),
      runs: values.length,
    }));
  const figures = all.filter((f) => !f.name.startsWith(TREND));
  const trend = trends
    .map(({ name }) => all.find((f) => f.name === name))
    .filter((f): f is WebviewFigure => f !== undefined)
    .map((f) => ({ ...f, name: f.name.slice(TREND.length) }));
  return { figures, filterMatches: durations.matches, trend };
}
