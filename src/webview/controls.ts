// The analytics webview's controls and messages: the range, page size and export buttons, the
// setup hint, the error with its buttons, the status line, the totals and the pager. They render
// the state the extension sends and post back what the user asked for; nothing is decided here.
import { format } from '../shared/format';
import type { ExportStatus, FocusView, LoadedData, Metric, PresetId, ViewState, WebviewMessage, WebviewStrings } from '../shared/protocol';
import { showInvisible } from '../util/visibleText';

export interface ControlElements {
  setup: HTMLElement;
  setupMessage: HTMLElement;
  setupAction: HTMLButtonElement;
  content: HTMLElement;
  controls: HTMLFormElement;
  metric: HTMLSelectElement;
  metricName: HTMLElement;
  totalNote: HTMLElement;
  tableCaption: HTMLElement;
  focus: HTMLElement;
  focusMessage: HTMLElement;
  clearFocus: HTMLButtonElement;
  preset: HTMLSelectElement;
  custom: HTMLFieldSetElement;
  from: HTMLInputElement;
  to: HTMLInputElement;
  pageSize: HTMLSelectElement;
  refresh: HTMLButtonElement;
  exportCsv: HTMLButtonElement;
  exportJson: HTMLButtonElement;
  rangeLabel: HTMLElement;
  alert: HTMLElement;
  alertMessage: HTMLElement;
  alertActions: HTMLElement;
  notice: HTMLElement;
  status: HTMLElement;
  requests: HTMLElement;
  compare: HTMLInputElement;
  compareStatus: HTMLElement;
  changeHuman: HTMLElement;
  changeAi: HTMLElement;
  changeAll: HTMLElement;
  totalHuman: HTMLElement;
  totalAi: HTMLElement;
  totalAll: HTMLElement;
  prev: HTMLButtonElement;
  pageLabel: HTMLElement;
  next: HTMLButtonElement;
  exportStatus: HTMLElement;
}

const numbers = new Intl.NumberFormat();

export class Controls {
  private state: ViewState | undefined;
  private exporting = false;
  /** The user picked "Custom range…" and has not applied it yet: a state update must not undo that. */
  private choosingCustom = false;

  constructor(
    private readonly el: ControlElements,
    private readonly t: WebviewStrings,
    post: (message: WebviewMessage) => void,
  ) {
    el.preset.addEventListener('change', () => {
      this.choosingCustom = el.preset.value === 'custom';
      if (this.choosingCustom) {
        // Nothing is asked for until Apply: picking two dates would otherwise cost two requests.
        el.custom.hidden = false;
        el.from.value ||= this.state?.resolved?.from ?? '';
        el.to.value ||= this.state?.resolved?.to ?? '';
        el.from.focus();
        return;
      }
      post({ type: 'setRange', range: { kind: 'preset', preset: el.preset.value as PresetId } });
    });

    // A date being edited is the user's until Apply, whatever state arrives meanwhile.
    for (const input of [el.from, el.to]) input.addEventListener('input', () => (this.choosingCustom = true));

    el.controls.addEventListener('submit', (event) => {
      event.preventDefault(); // Enter in a date input, or Apply
      if (el.preset.value !== 'custom') return;
      this.choosingCustom = false;
      post({ type: 'setRange', range: { kind: 'custom', from: el.from.value, to: el.to.value } });
    });

    el.metric.addEventListener('change', () => post({ type: 'setMetric', metric: el.metric.value as Metric }));
    el.clearFocus.addEventListener('click', () => post({ type: 'clearFocus' }));
    el.pageSize.addEventListener('change', () => post({ type: 'setPageSize', pageSize: Number(el.pageSize.value) }));
    el.refresh.addEventListener('click', () => post({ type: 'refresh' }));
    el.compare.addEventListener('change', () => post({ type: 'setCompare', on: el.compare.checked }));
    el.exportCsv.addEventListener('click', () => post({ type: 'export', format: 'csv' }));
    el.exportJson.addEventListener('click', () => post({ type: 'export', format: 'json' }));
    el.prev.addEventListener('click', () => this.state && post({ type: 'setPage', page: this.state.view.page - 1 }));
    el.next.addEventListener('click', () => this.state && post({ type: 'setPage', page: this.state.view.page + 1 }));

    el.setupAction.addEventListener('click', () => {
      if (this.state?.setup) post({ type: 'runCommand', command: this.state.setup.action });
    });

    el.alertActions.addEventListener('click', (event) => {
      const action = (event.target as HTMLElement).closest('button')?.dataset.action;
      if (action === 'retry') post({ type: 'retry' });
      else if (action === 'setApiKey' || action === 'setProjectId') post({ type: 'runCommand', command: action });
    });
  }

  /** Renders everything but the table; false while only the setup hint shows. */
  render(s: ViewState): boolean {
    const el = this.el;
    this.state = s;
    el.setup.hidden = !s.setup;
    el.content.hidden = !!s.setup;
    if (s.setup) {
      el.setupMessage.textContent = s.setup.message;
      el.setupAction.textContent = s.setup.action === 'setApiKey' ? this.t.setApiKey : this.t.setProjectId;
      return false;
    }
    this.renderRange(s);
    this.renderMetric(s);
    this.renderFocus(s.focus);
    this.renderMessages(s);
    this.renderTotals(s.data);
    el.pageLabel.textContent = format(this.t.pageLabel, numbers.format(s.view.page));
    el.prev.disabled = s.loading || s.view.page <= 1;
    el.next.disabled = s.loading || !(s.data?.current && s.data.hasMore);
    return true;
  }

  renderExport(status: ExportStatus): void {
    const el = this.el;
    this.exporting = status.state === 'running';
    el.exportCsv.disabled = el.exportJson.disabled = this.exporting || !!this.state?.rangeError;
    const t = this.t;
    switch (status.state) {
      case 'running':
        el.exportStatus.textContent = status.message ?? format(t.exporting, numbers.format(status.pages), numbers.format(status.rows));
        break;
      case 'done':
        el.exportStatus.textContent = [exported(t, status.rows, status.fileName, status.requests), status.caveat].filter(Boolean).join(' ');
        break;
      case 'cancelled':
        el.exportStatus.textContent = status.requests === 1 ? t.exportCancelledOne : format(t.exportCancelled, numbers.format(status.requests));
        break;
      case 'failed':
        el.exportStatus.textContent = status.message;
        break;
    }
  }

  private renderRange(s: ViewState): void {
    const el = this.el;
    const range = s.view.range;
    if (!this.choosingCustom) {
      el.preset.value = range.kind === 'preset' ? range.preset : 'custom';
      el.custom.hidden = range.kind !== 'custom';
      el.from.value = range.kind === 'custom' ? range.from : (s.resolved?.from ?? '');
      el.to.value = range.kind === 'custom' ? range.to : (s.resolved?.to ?? '');
    }
    const size = String(s.view.pageSize);
    if (![...el.pageSize.options].some((option) => option.value === size)) el.pageSize.add(new Option(size, size)); // a size from the settings
    el.pageSize.value = size;
    el.refresh.disabled = s.loading || !!s.rangeError;
    el.exportCsv.disabled = el.exportJson.disabled = this.exporting || !!s.rangeError;
    el.rangeLabel.textContent = s.resolved?.label ?? '';
  }

  private renderMetric(s: ViewState): void {
    const el = this.el;
    const words = this.t.metrics[s.view.metric];
    el.metric.value = s.view.metric;
    el.metricName.textContent = words.name;
    el.totalNote.textContent = words.totalNote;
    el.tableCaption.textContent = words.tableCaption;
  }

  private renderFocus(focus: FocusView | undefined): void {
    const el = this.el;
    el.focus.hidden = !focus;
    if (!focus) return;
    const t = this.t;
    const path = showInvisible(focus.path); // as the table shows it
    el.focusMessage.textContent =
      focus.status === 'found'
        ? format(t.focusFound, path, numbers.format(focus.rank ?? 0), numbers.format(focus.covered ?? 0))
        : focus.status === 'none'
          ? format(t.focusNone, path)
          : focus.status === 'beyondCap'
            ? format(t.focusBeyondCap, path, numbers.format(focus.covered ?? 0))
            : format(t.focusOnly, path);
  }

  private renderMessages(s: ViewState): void {
    const el = this.el;
    const problem = s.rangeError ?? s.error?.message;
    el.alert.hidden = !problem;
    el.alertMessage.textContent = problem ?? '';
    el.alertActions.replaceChildren(
      ...(s.rangeError ? [] : (s.error?.actions ?? [])).map((action) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.action = action;
        button.textContent = action === 'retry' ? this.t.retry : action === 'setApiKey' ? this.t.setApiKey : this.t.setProjectId;
        return button;
      }),
    );
    el.from.setAttribute('aria-invalid', String(!!s.rangeError));
    el.to.setAttribute('aria-invalid', String(!!s.rangeError));

    el.notice.hidden = !s.notice;
    el.notice.textContent = s.notice ?? '';

    const data = s.data;
    const t = this.t;
    el.status.textContent = s.loading
      ? t.metrics[s.view.metric].loading
      : !data
        ? ''
        : !data.current
          ? format(t.stale, data.rangeLabel, numbers.format(data.page))
          : data.fromCache
            ? format(t.fromMemory, numbers.format(data.page), time(data.fetchedAt))
            : format(t.fetchedAt, time(data.fetchedAt));
    el.requests.hidden = s.requestsThisHour === undefined;
    el.requests.textContent =
      s.requestsThisHour === undefined ? '' : s.requestsThisHour === 1 ? t.requestsThisHourOne : format(t.requestsThisHour, numbers.format(s.requestsThisHour));
    this.renderCompare(s);
  }

  private renderCompare(s: ViewState): void {
    const el = this.el;
    const c = s.compare;
    el.compare.checked = c !== undefined;
    const against = c?.status === 'ready' ? format(this.t.compareAgainst, c.previousLabel ?? this.t.previousPeriod) : undefined;
    const text = !c ? '' : against === undefined ? (c.message ?? '') : [against, c.message].filter(Boolean).join(' ');
    el.compareStatus.hidden = !text;
    el.compareStatus.textContent = text;
    const totals = c?.status === 'ready' ? c.totals : undefined;
    for (const [cell, value] of [
      [el.changeHuman, totals?.human],
      [el.changeAi, totals?.ai],
      [el.changeAll, totals?.total],
    ] as const) {
      cell.hidden = value === undefined;
      cell.textContent = value ?? '';
    }
  }

  private renderTotals(data: LoadedData | undefined): void {
    const el = this.el;
    el.totalHuman.textContent = data ? numbers.format(data.totals.human) : '–';
    el.totalAi.textContent = data ? numbers.format(data.totals.ai) : '–';
    el.totalAll.textContent = data ? numbers.format(data.totals.total) : '–';
  }
}

/** One whole sentence for each pair of forms of the two counts. */
function exported(t: WebviewStrings, rows: number, fileName: string, requests: number): string {
  const [r, q] = [numbers.format(rows), numbers.format(requests)];
  if (rows === 1) return requests === 1 ? format(t.exportedOneOne, fileName) : format(t.exportedOne, fileName, q);
  return requests === 1 ? format(t.exportedOneRequest, r, fileName) : format(t.exported, r, fileName, q);
}

/** The time of day, and the day too when it was not today (a panel left open overnight). */
function time(epochMs: number): string {
  const date = new Date(epochMs);
  const clock = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return date.toDateString() === new Date().toDateString() ? clock : `${date.toLocaleDateString()} ${clock}`;
}
