// The Visitor Analytics webview (browser bundle, dist/webview.js): the entry that finds the
// elements, keeps the saved state, and passes what the extension says to the controls (controls.ts),
// the trend chart (trendChart.ts) and the table (table.ts). It renders the state the extension posts and sends back what the user
// asks for; sorting and the path filter are its own, on the rows it has.
import type { ExtensionMessage, WebviewMessage, WebviewStrings } from '../shared/protocol';
import { Controls, type ControlElements } from './controls';
import { COLUMNS, VisitorsTable, type TableChoices, type TableElements } from './table';
import { TrendChart, type TrendElements } from './trendChart';

interface WebviewApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): WebviewApi;

/** Kept by VS Code across a hidden tab and a window reload. */
interface SavedState extends TableChoices {
  /** The view the extension last confirmed; sent back in `ready` and validated there. */
  view?: unknown;
}

const vscode = acquireVsCodeApi();
/** The panel's words, translated by the extension and written into the HTML (panelHtml.ts). */
const strings = JSON.parse(document.body.dataset.strings ?? '{}') as WebviewStrings;
const saved = readSaved(vscode.getState());

function readSaved(raw: unknown): SavedState {
  const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<SavedState>;
  const sort = typeof value.sort === 'object' && value.sort !== null ? value.sort : undefined;
  const sortOk = sort !== undefined && COLUMNS.includes(sort.column) && (sort.direction === 'ascending' || sort.direction === 'descending');
  return { view: value.view, sort: sortOk ? sort : undefined, filter: typeof value.filter === 'string' ? value.filter : '' };
}

const save = () => vscode.setState(saved);
const post = (message: WebviewMessage) => vscode.postMessage(message);

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The panel's markup has no #${id}.`);
  return element as T;
}

const controlElements: ControlElements = {
  setup: byId('setup'),
  setupMessage: byId('setup-message'),
  setupAction: byId('setup-action'),
  content: byId('content'),
  controls: byId('controls'),
  metric: byId('metric'),
  metricName: byId('metric-name'),
  totalNote: byId('total-note'),
  tableCaption: byId('table-caption'),
  focus: byId('focus'),
  focusMessage: byId('focus-message'),
  clearFocus: byId('clear-focus'),
  preset: byId('preset'),
  custom: byId('custom'),
  from: byId('from'),
  to: byId('to'),
  pageSize: byId('page-size'),
  refresh: byId('refresh'),
  exportCsv: byId('export-csv'),
  exportJson: byId('export-json'),
  rangeLabel: byId('range-label'),
  alert: byId('alert'),
  alertMessage: byId('alert-message'),
  alertActions: byId('alert-actions'),
  notice: byId('notice'),
  status: byId('status'),
  requests: byId('requests'),
  compare: byId('compare'),
  compareStatus: byId('compare-status'),
  changeHuman: byId('change-human'),
  changeAi: byId('change-ai'),
  changeAll: byId('change-all'),
  totalHuman: byId('total-human'),
  totalAi: byId('total-ai'),
  totalAll: byId('total-all'),
  prev: byId('prev'),
  pageLabel: byId('page-label'),
  next: byId('next'),
  exportStatus: byId('export-status'),
};
const tableElements: TableElements = {
  filter: byId('filter'),
  scopeNote: byId('scope-note'),
  table: byId('visitors'),
  rows: byId('rows'),
  empty: byId('empty'),
  more: byId('more'),
};
const trendElements: TrendElements = {
  section: byId('trend'),
  status: byId('trend-status'),
  draw: byId('trend-draw'),
  chart: byId('trend-chart'),
  legend: byId('trend-legend'),
  readout: byId('trend-readout'),
  toggle: byId('trend-toggle'),
  exportTrend: byId('trend-export'),
  table: byId('trend-table'),
  unit: byId('trend-unit'),
  cost: byId('trend-cost'),
};

const controls = new Controls(controlElements, strings, post);
const trend = new TrendChart(trendElements, strings.trend, { human: strings.human, ai: strings.ai, total: strings.total }, post);
const table = new VisitorsTable(tableElements, strings, saved, save, (path) => post({ type: 'openPath', path }));

window.addEventListener('message', (event: MessageEvent<ExtensionMessage>) => {
  const message = event.data;
  if (message.type === 'state') {
    saved.view = message.state.view;
    save();
    const state = message.state;
    if (controls.render(state)) {
      trend.render(state.trend, strings.metrics[state.view.metric].name);
      table.show(state.data, state.compare, { metric: state.view.metric, focused: state.focus !== undefined });
    } else {
      // Only the setup hint shows: there is no range to chart.
      trend.render(undefined, '');
    }
  } else if (message.type === 'export') {
    controls.renderExport(message.status);
  }
});

// Sorting and filtering survive a reload, so the saved choices are shown before the first rows.
table.render();
post({ type: 'ready', restore: saved.view });
