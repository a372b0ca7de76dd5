// The Visitor Analytics webview (browser bundle, dist/webview.js). It renders the state the
// extension posts and sends back what the user asks for; sorting and the path filter are its own,
// on the rows it has. Paths come from the public internet: every value is set with textContent
// or as a property, never as HTML.
import type { ExportStatus, ExtensionMessage, LoadedData, PresetId, ViewState, VisitorRowView, WebviewMessage } from '../shared/protocol';

interface WebviewApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): WebviewApi;

type Column = 'path' | 'human' | 'ai' | 'total';
type Direction = 'ascending' | 'descending';

/** Kept by VS Code across a hidden tab and a window reload. */
interface SavedState {
  /** The view the extension last confirmed; sent back in `ready` and validated there. */
  view?: unknown;
  sort?: { column: Column; direction: Direction };
  filter: string;
}

const COLUMNS: readonly Column[] = ['path', 'human', 'ai', 'total'];
const vscode = acquireVsCodeApi();
const saved = readSaved(vscode.getState());
const numbers = new Intl.NumberFormat();
const collator = new Intl.Collator(undefined, { numeric: true });

function readSaved(raw: unknown): SavedState {
  const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<SavedState>;
  const sort = typeof value.sort === 'object' && value.sort !== null ? value.sort : undefined;
  const sortOk = sort !== undefined && COLUMNS.includes(sort.column) && (sort.direction === 'ascending' || sort.direction === 'descending');
  return { view: value.view, sort: sortOk ? sort : undefined, filter: typeof value.filter === 'string' ? value.filter : '' };
}

function save(): void {
  vscode.setState(saved);
}

function post(message: WebviewMessage): void {
  vscode.postMessage(message);
}

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The panel's markup has no #${id}.`);
  return element as T;
}

const el = {
  setup: byId('setup'),
  setupMessage: byId('setup-message'),
  setupAction: byId<HTMLButtonElement>('setup-action'),
  content: byId('content'),
  controls: byId<HTMLFormElement>('controls'),
  preset: byId<HTMLSelectElement>('preset'),
  custom: byId<HTMLFieldSetElement>('custom'),
  from: byId<HTMLInputElement>('from'),
  to: byId<HTMLInputElement>('to'),
  pageSize: byId<HTMLSelectElement>('page-size'),
  refresh: byId<HTMLButtonElement>('refresh'),
  exportCsv: byId<HTMLButtonElement>('export-csv'),
  exportJson: byId<HTMLButtonElement>('export-json'),
  rangeLabel: byId('range-label'),
  alert: byId('alert'),
  alertMessage: byId('alert-message'),
  alertActions: byId('alert-actions'),
  notice: byId('notice'),
  status: byId('status'),
  totalHuman: byId('total-human'),
  totalAi: byId('total-ai'),
  totalAll: byId('total-all'),
  filter: byId<HTMLInputElement>('filter'),
  scopeNote: byId('scope-note'),
  table: byId<HTMLTableElement>('visitors'),
  rows: byId<HTMLTableSectionElement>('rows'),
  empty: byId('empty'),
  prev: byId<HTMLButtonElement>('prev'),
  pageLabel: byId('page-label'),
  next: byId<HTMLButtonElement>('next'),
  more: byId<HTMLButtonElement>('more'),
  exportStatus: byId('export-status'),
};

let state: ViewState | undefined;
let exporting = false;
/** The user picked "Custom range…" and has not applied it yet: a state update must not undo that. */
let choosingCustom = false;

// ---- What the user does -------------------------------------------------------------------------

el.preset.addEventListener('change', () => {
  choosingCustom = el.preset.value === 'custom';
  if (choosingCustom) {
    // Nothing is asked for until Apply: picking two dates would otherwise cost two requests.
    el.custom.hidden = false;
    el.from.value ||= state?.resolved?.from ?? '';
    el.to.value ||= state?.resolved?.to ?? '';
    el.from.focus();
    return;
  }
  post({ type: 'setRange', range: { kind: 'preset', preset: el.preset.value as PresetId } });
});

// A date being edited is the user's until Apply, whatever state arrives meanwhile.
for (const input of [el.from, el.to]) input.addEventListener('input', () => (choosingCustom = true));

el.controls.addEventListener('submit', (event) => {
  event.preventDefault(); // Enter in a date input, or Apply
  if (el.preset.value !== 'custom') return;
  choosingCustom = false;
  post({ type: 'setRange', range: { kind: 'custom', from: el.from.value, to: el.to.value } });
});

el.pageSize.addEventListener('change', () => post({ type: 'setPageSize', pageSize: Number(el.pageSize.value) }));
el.refresh.addEventListener('click', () => post({ type: 'refresh' }));
el.exportCsv.addEventListener('click', () => post({ type: 'export', format: 'csv' }));
el.exportJson.addEventListener('click', () => post({ type: 'export', format: 'json' }));
el.prev.addEventListener('click', () => state && post({ type: 'setPage', page: state.view.page - 1 }));
el.next.addEventListener('click', () => state && post({ type: 'setPage', page: state.view.page + 1 }));

el.setupAction.addEventListener('click', () => {
  if (state?.setup) post({ type: 'runCommand', command: state.setup.action });
});

el.alertActions.addEventListener('click', (event) => {
  const action = (event.target as HTMLElement).closest('button')?.dataset.action;
  if (action === 'retry') post({ type: 'retry' });
  else if (action === 'setApiKey' || action === 'setProjectId') post({ type: 'runCommand', command: action });
});

el.filter.value = saved.filter;
el.filter.addEventListener('input', () => {
  saved.filter = el.filter.value;
  save();
  renderTable();
});

for (const button of el.table.querySelectorAll<HTMLButtonElement>('button.sort')) {
  button.addEventListener('click', () => {
    const column = button.dataset.column as Column;
    // Counts start with the largest, paths with A; a second click reverses.
    const first: Direction = column === 'path' ? 'ascending' : 'descending';
    const direction: Direction = saved.sort?.column === column ? (saved.sort.direction === 'ascending' ? 'descending' : 'ascending') : first;
    saved.sort = { column, direction };
    save();
    renderTable();
  });
}

el.more.addEventListener('click', () => {
  shownLimit += RENDER_STEP;
  renderTable();
});

el.rows.addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button.path');
  if (button?.title) post({ type: 'openPath', path: button.title });
});

// ---- What the extension says --------------------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<ExtensionMessage>) => {
  const message = event.data;
  if (message.type === 'state') {
    state = message.state;
    saved.view = state.view;
    save();
    render(state);
  } else if (message.type === 'export') {
    renderExport(message.status);
  }
});

function render(s: ViewState): void {
  el.setup.hidden = !s.setup;
  el.content.hidden = !!s.setup;
  if (s.setup) {
    el.setupMessage.textContent = s.setup.message;
    el.setupAction.textContent = s.setup.action === 'setApiKey' ? 'Set API Key' : 'Set Project ID';
    return;
  }
  renderControls(s);
  renderMessages(s);
  renderTotals(s.data);
  renderTable();
  el.pageLabel.textContent = `Page ${numbers.format(s.view.page)}`;
  el.prev.disabled = s.loading || s.view.page <= 1;
  el.next.disabled = s.loading || !(s.data?.current && s.data.hasMore);
}

function renderControls(s: ViewState): void {
  const range = s.view.range;
  if (!choosingCustom) {
    el.preset.value = range.kind === 'preset' ? range.preset : 'custom';
    el.custom.hidden = range.kind !== 'custom';
    el.from.value = range.kind === 'custom' ? range.from : (s.resolved?.from ?? '');
    el.to.value = range.kind === 'custom' ? range.to : (s.resolved?.to ?? '');
  }
  const size = String(s.view.pageSize);
  if (![...el.pageSize.options].some((option) => option.value === size)) el.pageSize.add(new Option(size, size)); // a size from the settings
  el.pageSize.value = size;
  el.refresh.disabled = s.loading || !!s.rangeError;
  el.exportCsv.disabled = el.exportJson.disabled = exporting || !!s.rangeError;
  el.rangeLabel.textContent = s.resolved?.label ?? '';
}

function renderMessages(s: ViewState): void {
  const problem = s.rangeError ?? s.error?.message;
  el.alert.hidden = !problem;
  el.alertMessage.textContent = problem ?? '';
  el.alertActions.replaceChildren(
    ...(s.rangeError ? [] : (s.error?.actions ?? [])).map((action) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.action = action;
      button.textContent = action === 'retry' ? 'Retry' : action === 'setApiKey' ? 'Set API Key' : 'Set Project ID';
      return button;
    }),
  );
  el.from.setAttribute('aria-invalid', String(!!s.rangeError));
  el.to.setAttribute('aria-invalid', String(!!s.rangeError));

  el.notice.hidden = !s.notice;
  el.notice.textContent = s.notice ?? '';

  const data = s.data;
  el.status.textContent = s.loading
    ? 'Loading visitors…'
    : !data
      ? ''
      : !data.current
        ? `Still showing the last rows loaded: ${data.rangeLabel}, page ${data.page}.`
        : data.fromCache
          ? `Page ${data.page} from memory, fetched at ${time(data.fetchedAt)}. Refresh fetches it again.`
          : `Fetched at ${time(data.fetchedAt)}.`;
}

function renderTotals(data: LoadedData | undefined): void {
  el.totalHuman.textContent = data ? numbers.format(data.totals.human) : '–';
  el.totalAi.textContent = data ? numbers.format(data.totals.ai) : '–';
  el.totalAll.textContent = data ? numbers.format(data.totals.total) : '–';
}

function renderExport(status: ExportStatus): void {
  exporting = status.state === 'running';
  const disabled = exporting || !!state?.rangeError;
  el.exportCsv.disabled = el.exportJson.disabled = disabled;
  const requests = (n: number) => `${numbers.format(n)} request${n === 1 ? '' : 's'}`;
  switch (status.state) {
    case 'running':
      el.exportStatus.textContent = `Exporting… ${numbers.format(status.pages)} pages, ${numbers.format(status.rows)} rows so far.`;
      break;
    case 'done':
      el.exportStatus.textContent = `Exported ${numbers.format(status.rows)} rows to ${status.fileName} with ${requests(status.requests)}.`;
      break;
    case 'cancelled':
      el.exportStatus.textContent = `Export cancelled after ${requests(status.requests)}. No file was written.`;
      break;
    case 'failed':
      el.exportStatus.textContent = status.message;
      break;
  }
}

// ---- The table ----------------------------------------------------------------------------------

/**
 * A table of thousands of rows takes seconds to lay out, so rows are shown 500 at a time ("Show
 * more"); sorting and the filter still act on all of them. Row elements are built once per page of
 * data, when first shown; sorting and filtering only reorder them.
 */
const RENDER_STEP = 500;
let shownLimit = RENDER_STEP;
let built: { id: string; rows: VisitorRowView[]; elements: (HTMLTableRowElement | undefined)[]; lowerPaths: string[] } | undefined;

function renderTable(): void {
  const data = state?.data;
  const rows = data?.rows ?? [];
  const id = data ? `${data.fetchedAt}|${data.page}|${data.pageSize}|${data.rangeLabel}|${rows.length}` : '';
  if (built?.id !== id) {
    built = { id, rows, elements: new Array<HTMLTableRowElement | undefined>(rows.length), lowerPaths: rows.map((row) => row.path.toLowerCase()) };
    shownLimit = RENDER_STEP;
  }
  const { rows: all, elements, lowerPaths } = built;

  const needle = saved.filter.trim().toLowerCase();
  let order = all.map((_, index) => index);
  if (needle) order = order.filter((index) => lowerPaths[index].includes(needle));
  const sort = saved.sort;
  if (sort) {
    const sign = sort.direction === 'ascending' ? 1 : -1;
    const column = sort.column;
    order.sort((a, b) => {
      const x = all[a];
      const y = all[b];
      return sign * (column === 'path' ? collator.compare(x.path, y.path) : x[column] - y[column]);
    });
  }
  const shown = order.slice(0, shownLimit);
  const fragment = document.createDocumentFragment();
  for (const index of shown) fragment.append((elements[index] ??= rowElement(all[index])));
  el.rows.replaceChildren(fragment);

  for (const th of el.table.querySelectorAll<HTMLTableCellElement>('th[aria-sort]')) {
    const column = th.querySelector<HTMLButtonElement>('button.sort')?.dataset.column;
    th.setAttribute('aria-sort', sort && sort.column === column ? sort.direction : 'none');
  }

  el.table.hidden = all.length === 0;
  const count = (n: number) => numbers.format(n);
  el.scopeNote.textContent = all.length
    ? `Sorting and the filter apply to the ${count(all.length)} rows of this page` +
      (needle ? `; ${count(order.length)} match` : '') +
      (shown.length < order.length ? `; the first ${count(shown.length)} are shown.` : '.')
    : '';
  el.more.hidden = shown.length >= order.length;
  el.more.textContent = `Show ${count(Math.min(RENDER_STEP, order.length - shown.length))} more rows`;
  const emptyText = !data
    ? ''
    : all.length === 0
      ? data.page === 1
        ? 'No visitors in this range.'
        : 'No visitors on this page.'
      : order.length === 0
        ? `No path on this page contains "${saved.filter.trim()}".`
        : '';
  el.empty.hidden = !emptyText;
  el.empty.textContent = emptyText;
}

function rowElement(row: VisitorRowView): HTMLTableRowElement {
  const tr = document.createElement('tr');

  const pathCell = tr.insertCell();
  const link = document.createElement('button');
  link.type = 'button';
  link.className = 'path';
  link.textContent = row.path;
  link.title = row.path; // the whole path on hover, and what a click opens
  pathCell.append(link);

  for (const count of [row.human, row.ai, row.total]) {
    const cell = tr.insertCell();
    cell.className = 'num';
    cell.textContent = numbers.format(count);
  }

  const splitCell = tr.insertCell();
  const bar = document.createElement('div');
  bar.className = 'split';
  const seen = row.human + row.ai;
  const humanShare = seen ? Math.round((row.human / seen) * 100) : 0;
  const label = seen ? `${humanShare}% human, ${100 - humanShare}% AI` : 'No visitors';
  bar.setAttribute('role', 'img');
  bar.setAttribute('aria-label', label);
  bar.title = label;
  if (seen) {
    // Widths through the CSSOM: allowed under a CSP without 'unsafe-inline', unlike a style attribute.
    const human = document.createElement('span');
    human.className = 'human';
    human.style.width = `${(row.human / seen) * 100}%`;
    const ai = document.createElement('span');
    ai.className = 'ai';
    ai.style.width = `${(row.ai / seen) * 100}%`;
    bar.append(human, ai);
  }
  splitCell.append(bar);
  return tr;
}

function time(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

// Sorting and filtering survive a reload, so the saved choices are shown before the first rows.
renderTable();
post({ type: 'ready', restore: saved.view });
