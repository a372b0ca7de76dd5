// The visitors table of the analytics webview: rows of the page the extension sent, sorted and
// filtered here (on the rows this page has), shown 500 at a time. Paths come from the public
// internet: every value is set with textContent or as a property, never as HTML, and a path's
// invisible and direction characters are shown escaped (`\u202e`), as the tree and tooltips show
// them, so a right-to-left override cannot make one path read as another.
import { format } from '../shared/format';
import type { CompareView, LoadedData, Metric, VisitorRowView, WebviewStrings } from '../shared/protocol';
import { showInvisible } from '../util/visibleText';

type Column = 'path' | 'human' | 'ai' | 'total' | 'change';
type Direction = 'ascending' | 'descending';
export const COLUMNS: readonly Column[] = ['path', 'human', 'ai', 'total', 'change'];

/** The table's part of the webview's saved state: it survives a hidden tab and a reload. */
export interface TableChoices {
  sort?: { column: Column; direction: Direction };
  filter: string;
}

export interface TableElements {
  filter: HTMLInputElement;
  scopeNote: HTMLElement;
  table: HTMLTableElement;
  rows: HTMLTableSectionElement;
  empty: HTMLElement;
  more: HTMLButtonElement;
}

/**
 * A table of thousands of rows takes seconds to lay out, so rows are shown 500 at a time ("Show
 * more"); sorting and the filter still act on all of them. Row elements are built once per page of
 * data, when first shown; sorting and filtering only reorder them.
 */
const RENDER_STEP = 500;

const numbers = new Intl.NumberFormat();
const collator = new Intl.Collator(undefined, { numeric: true });

export class VisitorsTable {
  private data: LoadedData | undefined;
  /** The change of each row's total against the previous period, while comparing and known. */
  private changes: CompareView['rows'];
  private shownLimit = RENDER_STEP;
  private metric: Metric = 'visitors';
  /** Opened on one page: the rows are that page's only, and the path filter stands aside. */
  private focused = false;
  private built: { id: string; rows: VisitorRowView[]; elements: (HTMLTableRowElement | undefined)[]; lowerPaths: string[] } | undefined;

  constructor(
    private readonly el: TableElements,
    private readonly t: WebviewStrings,
    private readonly choices: TableChoices,
    /** The user changed the sort or the filter: save the choices. */
    onChoice: () => void,
    onOpenPath: (path: string) => void,
  ) {
    el.filter.value = choices.filter;
    el.filter.addEventListener('input', () => {
      choices.filter = el.filter.value;
      onChoice();
      this.render();
    });
    for (const button of el.table.querySelectorAll<HTMLButtonElement>('button.sort')) {
      button.addEventListener('click', () => {
        const column = button.dataset.column as Column;
        // Counts start with the largest, paths with A; a second click reverses.
        const first: Direction = column === 'path' ? 'ascending' : 'descending';
        const direction: Direction = choices.sort?.column === column ? (choices.sort.direction === 'ascending' ? 'descending' : 'ascending') : first;
        choices.sort = { column, direction };
        onChoice();
        this.render();
      });
    }
    el.more.addEventListener('click', () => {
      this.shownLimit += RENDER_STEP;
      this.render();
    });
    el.rows.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button.path');
      const path = button ? rowPaths.get(button) : undefined;
      if (path !== undefined) onOpenPath(path);
    });
  }

  show(data: LoadedData | undefined, compare?: CompareView, context: { metric: Metric; focused: boolean } = { metric: 'visitors', focused: false }): void {
    this.data = data;
    this.metric = context.metric;
    this.focused = context.focused;
    this.el.filter.disabled = context.focused;
    const changes = compare?.status === 'ready' && compare.rows?.length === data?.rows.length ? compare.rows : undefined;
    if (changes !== this.changes) {
      this.changes = changes;
      this.built = undefined; // the change cells are part of each row
    }
    this.el.table.classList.toggle('comparing', compare !== undefined);
    this.render();
  }

  render(): void {
    const { el, data, t } = this;
    const rows = data?.rows ?? [];
    const id = data ? `${data.fetchedAt}|${data.page}|${data.pageSize}|${data.rangeLabel}|${rows.length}` : '';
    if (this.built?.id !== id) {
      this.built = { id, rows, elements: new Array<HTMLTableRowElement | undefined>(rows.length), lowerPaths: rows.map((row) => row.path.toLowerCase()) };
      this.shownLimit = RENDER_STEP;
    }
    const { rows: all, elements, lowerPaths } = this.built;

    const needle = this.focused ? '' : this.choices.filter.trim().toLowerCase();
    let order = all.map((_, index) => index);
    if (needle) order = order.filter((index) => lowerPaths[index].includes(needle));
    const sort = this.choices.sort;
    const changes = this.changes;
    if (sort) {
      const sign = sort.direction === 'ascending' ? 1 : -1;
      const column = sort.column;
      order.sort((a, b) => {
        const x = all[a];
        const y = all[b];
        if (column === 'change') return sign * ((changes?.[a]?.rank ?? 0) - (changes?.[b]?.rank ?? 0));
        return sign * (column === 'path' ? collator.compare(x.path, y.path) : x[column] - y[column]);
      });
    }
    const shown = order.slice(0, this.shownLimit);
    const fragment = document.createDocumentFragment();
    for (const index of shown) fragment.append((elements[index] ??= rowElement(all[index], t, changes?.[index]?.label)));
    el.rows.replaceChildren(fragment);

    for (const th of el.table.querySelectorAll<HTMLTableCellElement>('th[aria-sort]')) {
      const column = th.querySelector<HTMLButtonElement>('button.sort')?.dataset.column;
      th.setAttribute('aria-sort', sort && sort.column === column ? sort.direction : 'none');
    }

    el.table.hidden = all.length === 0;
    const count = (n: number) => numbers.format(n);
    // Whole sentences, each worded by the extension; a count picks the string for its form.
    const counted = (n: number, one: string, other: string) => (n === 1 ? one : format(other, count(n)));
    // Opened on one page: the banner above says what the one row is; there is nothing to filter.
    el.scopeNote.textContent =
      all.length && !this.focused
        ? [
            counted(all.length, t.scopeOne, t.scope),
            needle ? counted(order.length, t.matchOne, t.match) : '',
            shown.length < order.length ? format(t.shownFirst, count(shown.length)) : '',
          ]
            .filter(Boolean)
            .join(' ')
        : '';
    el.more.hidden = shown.length >= order.length;
    el.more.textContent = counted(Math.min(RENDER_STEP, order.length - shown.length), t.showMoreOne, t.showMore);
    const words = t.metrics[this.metric];
    const emptyText =
      !data || this.focused
        ? ''
        : all.length === 0
          ? data.page === 1
            ? words.noneInRange
            : words.noneOnPage
          : order.length === 0
            ? format(t.noPathContains, this.choices.filter.trim())
            : '';
    el.empty.hidden = !emptyText;
    el.empty.textContent = emptyText;
  }
}

/** Each row's path button and the path it opens (its text shows the path escaped). */
const rowPaths = new WeakMap<HTMLButtonElement, string>();

function rowElement(row: VisitorRowView, t: WebviewStrings, change: string | undefined): HTMLTableRowElement {
  const tr = document.createElement('tr');

  const pathCell = tr.insertCell();
  const link = document.createElement('button');
  link.type = 'button';
  link.className = 'path';
  const shown = showInvisible(row.path);
  link.textContent = shown;
  link.title = shown; // the whole path on hover
  rowPaths.set(link, row.path); // what a click opens: the path itself
  pathCell.append(link);

  for (const count of [row.human, row.ai, row.total]) {
    const cell = tr.insertCell();
    cell.className = 'num';
    cell.textContent = numbers.format(count);
  }

  const changeCell = tr.insertCell();
  changeCell.className = `num col-change${change?.startsWith('▲') ? ' up' : change?.startsWith('▼') ? ' down' : ''}`;
  changeCell.textContent = change ?? '';

  const splitCell = tr.insertCell();
  const bar = document.createElement('div');
  bar.className = 'split';
  const seen = row.human + row.ai;
  const humanShare = seen ? Math.round((row.human / seen) * 100) : 0;
  const label = seen ? format(t.split, humanShare, 100 - humanShare) : t.noVisitors;
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
