// The trend chart of the analytics webview: one point a day or week, human, AI and total as three
// lines, and the previous period's fainter behind them while comparing. It is hand-written SVG so
// the webview needs no chart library. Every value lands through textContent or a numeric
// attribute, never as markup, and every colour comes from a class in media/analytics.css: the
// panel's Content-Security-Policy allows no inline style. A table of the same figures stands in
// for the chart on request, and is rebuilt on every render so it never lags behind the picture.
import { format } from '../shared/format';
import type { TrendPoint, TrendStrings, TrendView, WebviewMessage } from '../shared/protocol';
import { polyline, svgElement, svgText } from './svg';

export interface TrendElements {
  section: HTMLElement;
  status: HTMLElement;
  draw: HTMLButtonElement;
  /** The focusable wrapper (tabindex 0, role img) the SVG is drawn into. */
  chart: HTMLElement;
  legend: HTMLElement;
  readout: HTMLElement;
  toggle: HTMLButtonElement;
  exportTrend: HTMLButtonElement;
  table: HTMLTableElement;
  unit: HTMLElement;
  cost: HTMLElement;
}

/** What the three series are called: the same words as the totals and the table's columns. */
interface SeriesNames {
  human: string;
  ai: string;
  total: string;
}

type Series = keyof SeriesNames;
/** Drawn in this order, so the total, the strongest line, lies on top. */
const SERIES: readonly Series[] = ['human', 'ai', 'total'];

/** The drawing's own units; CSS scales it to the panel's width (the viewBox keeps the shape). */
const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { left: 56, right: 696, top: 28, bottom: 204 };

const numbers = new Intl.NumberFormat();
/** Axis labels stay short ("12K") so a large count does not push the plot aside. */
const compact = new Intl.NumberFormat(undefined, { notation: 'compact' });
/** Bucket days are calendar days: read and shown in UTC so no time zone shifts them by one. */
const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Round values for the y axis, from 0 to the first tick at or above `max`: the step is 1, 2 or 5
 * times a power of ten, chosen so there are at most `count` intervals. Counts are whole numbers,
 * so the step is never below 1, and there are always at least two intervals so a flat or empty
 * chart still has a scale to read.
 */
export function niceTicks(max: number, count = 4): number[] {
  const intervals = Math.max(2, Math.floor(count));
  const top = Number.isFinite(max) && max > 0 ? max : 0;
  const raw = top / intervals;
  let step = 1;
  if (raw > 1) {
    const power = 10 ** Math.floor(Math.log10(raw));
    step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? 10 * power;
  }
  const used = Math.max(2, Math.ceil(top / step));
  return Array.from({ length: used + 1 }, (_, i) => i * step);
}

/**
 * Which buckets get a date under the x axis: every one while they fit, else every k-th from the
 * first, so there are never more than `max` labels to crowd each other.
 */
export function xLabelIndexes(n: number, max = 8): number[] {
  if (n <= 0) return [];
  const step = Math.ceil(n / Math.max(1, Math.floor(max)));
  const indexes: number[] = [];
  for (let i = 0; i < n; i += step) indexes.push(i);
  return indexes;
}

export class TrendChart {
  private status: TrendView['status'] | undefined;
  private points: TrendPoint[] = [];
  private previous: TrendPoint[] | undefined;
  /** The bucket under the pointer or chosen with the keyboard. */
  private selected: number | undefined;
  private showingTable = false;
  private svg: SVGSVGElement | undefined;
  private guide: SVGLineElement | undefined;
  private xs: number[] = [];
  /** Each bucket's markers, one a series, so the selected ones can be enlarged. */
  private markers: SVGElement[][] = [];

  constructor(
    private readonly el: TrendElements,
    private readonly t: TrendStrings,
    private readonly names: SeriesNames,
    post: (message: WebviewMessage) => void,
  ) {
    el.draw.addEventListener('click', () => {
      // One yes is enough: a second click before the state arrives would not draw it twice.
      el.draw.disabled = true;
      post({ type: 'drawTrend' });
    });
    el.exportTrend.addEventListener('click', () => post({ type: 'exportTrend' }));
    el.toggle.addEventListener('click', () => {
      this.showingTable = !this.showingTable;
      this.showView();
    });
    el.chart.addEventListener('pointermove', (event) => this.select(this.nearest(event)));
    // The keyboard's choice stays while the chart has focus; a passing pointer's does not.
    el.chart.addEventListener('pointerleave', () => document.activeElement !== el.chart && this.select(undefined));
    el.chart.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** Shows the trend as the extension describes it; undefined hides the whole section. */
  render(trend: TrendView | undefined, metricName: string): void {
    const { el, t } = this;
    el.section.hidden = !trend;
    this.status = trend?.status;
    const ready = trend?.status === 'ready';
    this.points = ready ? trend.points : [];
    // Point for point: a previous bucket beyond this period's last has no place on the chart.
    this.previous = ready && trend.previous ? trend.previous.slice(0, this.points.length) : undefined;

    // A drawn trend may still say something: which points the hour's requests did not reach.
    const message = trend?.message ?? '';
    el.status.hidden = !message;
    el.status.textContent = message;
    el.status.classList.toggle('muted', trend?.status === 'loading');
    el.draw.hidden = !(trend?.status === 'confirm' || (ready && this.points.some((point) => point.missing)));
    el.draw.disabled = false;
    el.toggle.hidden = el.exportTrend.hidden = !ready;
    el.unit.hidden = !ready;
    el.unit.textContent = ready ? (trend.unit === 'week' ? t.byWeek : t.byDay) : '';
    el.cost.hidden = !ready || !trend.cost;
    el.cost.textContent = ready ? (trend.cost ?? '') : '';

    if (this.selected !== undefined && this.selected >= this.points.length) this.selected = undefined;
    this.buildTable();
    this.buildLegend();
    this.drawChart(metricName);
    this.showView();
    this.select(this.selected);
  }

  private showView(): void {
    const { el, t } = this;
    const ready = this.status === 'ready';
    el.chart.hidden = el.legend.hidden = el.readout.hidden = !ready || this.showingTable;
    el.table.hidden = !ready || !this.showingTable;
    el.toggle.textContent = this.showingTable ? t.showChart : t.showTable;
  }

  private drawChart(metricName: string): void {
    const { el, points } = this;
    const previous = this.previous ?? [];
    const n = points.length;
    el.chart.setAttribute('aria-label', format(this.t.chartLabel, numbers.format(n)));

    const values = [...points, ...previous].filter((p) => !p.missing).flatMap((p) => [p.human, p.ai, p.total]);
    const ticks = niceTicks(Math.max(0, ...values));
    const yMax = ticks[ticks.length - 1] || 1;
    const y = (value: number) => PLOT.bottom - (value / yMax) * (PLOT.bottom - PLOT.top);
    const width = PLOT.right - PLOT.left;
    this.xs = points.map((_, i) => (n === 1 ? PLOT.left + width / 2 : PLOT.left + (i * width) / (n - 1)));
    const xs = this.xs;

    // The wrapper carries the accessible name; the drawing itself is decoration to a screen reader.
    const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'trend-svg', 'aria-hidden': 'true', focusable: 'false' });
    svg.append(svgText(4, 14, metricName, 'trend-title', 'start'));
    for (const tick of ticks) {
      svg.append(svgElement('line', { x1: PLOT.left, x2: PLOT.right, y1: y(tick), y2: y(tick), class: tick === 0 ? 'trend-axis' : 'trend-grid' }));
      svg.append(svgText(PLOT.left - 6, y(tick) + 4, compact.format(tick), 'trend-tick', 'end'));
    }
    for (const i of xLabelIndexes(n)) {
      svg.append(svgElement('line', { x1: xs[i], x2: xs[i], y1: PLOT.bottom, y2: PLOT.bottom + 4, class: 'trend-axis' }));
      svg.append(svgText(xs[i], PLOT.bottom + 18, dayLabel(points[i].from), 'trend-tick', 'middle'));
    }

    // The previous period sits behind, on the same x positions, without markers: the guide and the
    // readout give its figures.
    for (const series of SERIES) {
      for (const run of lineRuns(previous))
        svg.append(
          polyline(
            run.indexes.map((i) => [xs[i], y(previous[i][series])]),
            `trend-line ${series} previous`,
          ),
        );
    }
    for (const series of SERIES) {
      for (const run of lineRuns(points))
        svg.append(
          polyline(
            run.indexes.map((i) => [xs[i], y(points[i][series])]),
            `trend-line ${series}${run.open ? ' open' : ''}`,
          ),
        );
    }

    // A cut week (partial) and the bucket that includes today (open) are drawn hollow: their
    // figures are not comparable to a whole bucket's. The open one is told apart by the faint
    // segment leading into it (lineRuns), since its figure is still growing.
    // A point not fetched yet has no marker: the gap in the lines says it.
    this.markers = points.map((point, i) =>
      (point.missing ? [] : SERIES).map((series) => {
        const hollow = point.partial || point.open ? ' hollow' : '';
        const marker = svgElement('circle', { cx: xs[i], cy: y(point[series]), r: series === 'total' ? 3.5 : 3, class: `trend-marker ${series}${hollow}` });
        svg.append(marker);
        return marker;
      }),
    );

    this.guide = svgElement('line', { x1: 0, x2: 0, y1: PLOT.top, y2: PLOT.bottom, class: 'trend-guide', visibility: 'hidden' });
    svg.append(this.guide);
    this.svg = svg;
    el.chart.replaceChildren(svg);
  }

  /** The text alternative: one row a bucket, its days as the readout words them, then the figures. */
  private buildTable(): void {
    const { t, names, points, previous } = this;
    const table = this.el.table;
    const head = table.tHead ?? table.createTHead();
    const body = table.tBodies[0] ?? table.createTBody();
    const header = (text: string, numeric: boolean, scope = 'col', span = 1) => {
      const th = document.createElement('th');
      th.scope = scope;
      th.colSpan = span;
      if (numeric) th.className = 'num';
      th.textContent = text;
      return th;
    };
    const columns = document.createElement('tr');
    columns.append(header(t.days, false), header(names.human, true), header(names.ai, true), header(names.total, true));
    if (previous) {
      // Two header rows: the previous period's Days and Total are grouped under its name.
      const groups = document.createElement('tr');
      groups.append(header('', false, 'colgroup', 4), header(t.previousPeriod, false, 'colgroup', 2));
      columns.append(header(t.days, false), header(names.total, true));
      head.replaceChildren(groups, columns);
    } else {
      head.replaceChildren(columns);
    }
    body.replaceChildren(
      ...points.map((point, i) => {
        const tr = document.createElement('tr');
        const days = header(this.days(point), false, 'row');
        tr.append(days);
        const cell = (text: string, numeric: boolean) => {
          const td = tr.insertCell();
          if (numeric) td.className = 'num';
          td.textContent = text;
        };
        for (const series of SERIES) cell(point.missing ? '–' : numbers.format(point[series]), true);
        if (point.missing) days.textContent = format(t.notFetched, this.days(point));
        if (previous) {
          const before = previous[i] as TrendPoint | undefined;
          cell(before ? this.days(before) : '', false);
          cell(before && !before.missing ? numbers.format(before.total) : '–', true);
        }
        return tr;
      }),
    );
  }

  private buildLegend(): void {
    const item = (lineClass: string, text: string) => {
      const li = document.createElement('li');
      const key = svgElement('svg', { viewBox: '0 0 24 8', class: 'trend-key', 'aria-hidden': 'true', focusable: 'false' });
      key.append(svgElement('line', { x1: 0, y1: 4, x2: 24, y2: 4, class: lineClass }));
      const label = document.createElement('span');
      label.textContent = text;
      li.append(key, label);
      return li;
    };
    const items = SERIES.map((series) => item(`trend-line ${series}`, this.names[series]));
    if (this.previous) items.push(item('trend-line total previous', this.t.previousPeriod));
    this.el.legend.replaceChildren(...items);
  }

  /** The bucket nearest the pointer, found in the drawing's own units whatever its size on screen. */
  private nearest(event: PointerEvent): number | undefined {
    const matrix = this.svg?.getScreenCTM();
    if (!matrix || this.xs.length === 0) return undefined;
    const x = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse()).x;
    let best = 0;
    this.xs.forEach((candidate, i) => {
      if (Math.abs(candidate - x) < Math.abs(this.xs[best] - x)) best = i;
    });
    return best;
  }

  private onKey(event: KeyboardEvent): void {
    const n = this.points.length;
    if (n === 0) return;
    const at = this.selected;
    const next =
      event.key === 'ArrowLeft'
        ? at === undefined
          ? n - 1
          : Math.max(0, at - 1)
        : event.key === 'ArrowRight'
          ? at === undefined
            ? 0
            : Math.min(n - 1, at + 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? n - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault(); // the arrows would otherwise scroll the panel
    this.select(next);
  }

  /** Moves the guide and the enlarged markers to the bucket, and words it in the readout. */
  private select(index: number | undefined): void {
    for (const marker of this.markers.flat()) marker.classList.remove('selected');
    const point = index === undefined ? undefined : (this.points[index] as TrendPoint | undefined);
    this.selected = point ? index : undefined;
    if (!point || index === undefined) {
      this.guide?.setAttribute('visibility', 'hidden');
      this.el.readout.replaceChildren();
      return;
    }
    for (const marker of this.markers[index] ?? []) marker.classList.add('selected');
    if (this.guide) {
      this.guide.setAttribute('x1', String(this.xs[index]));
      this.guide.setAttribute('x2', String(this.xs[index]));
      this.guide.setAttribute('visibility', 'visible');
    }
    const current = document.createElement('span');
    current.textContent = this.pointText(point);
    const lines: (HTMLElement | string)[] = [current];
    const before = this.previous?.[index];
    if (before) {
      const line = document.createElement('span');
      const label = document.createElement('span');
      label.className = 'muted';
      label.textContent = this.t.previousPeriod;
      line.append(label, ' ', this.pointText(before));
      // The space keeps the two lines apart in the text a screen reader or a test reads; the
      // lines are blocks, so it takes no room on screen.
      lines.push(' ', line);
    }
    this.el.readout.replaceChildren(...lines);
  }

  private pointText(point: TrendPoint): string {
    if (point.missing) return format(this.t.notFetched, this.days(point));
    return format(this.t.point, this.days(point), numbers.format(point.human), numbers.format(point.ai), numbers.format(point.total));
  }

  /** "2026-11-02" for a day, "2026-11-02 – 2026-11-08" for a week, with the cut or open note. */
  private days(point: TrendPoint): string {
    const days = point.from === point.to ? point.from : `${point.from} – ${point.to}`;
    const cut = point.partial ? format(this.t.partial, days) : days;
    return point.open ? format(this.t.open, cut) : cut;
  }
}

/**
 * The line's segments grouped into runs: a segment that leads into or out of the bucket that
 * includes today is drawn faint (class `open`), since that figure will still grow; a point not
 * fetched yet has no segment at all, so the line breaks there.
 */
export function lineRuns(points: readonly TrendPoint[]): { open: boolean; indexes: number[] }[] {
  const runs: { open: boolean; indexes: number[] }[] = [];
  let previousEnd = -1;
  for (let i = 1; i < points.length; i++) {
    if (points[i].missing || points[i - 1].missing) continue;
    const open = points[i].open || points[i - 1].open;
    const last = runs[runs.length - 1] as { open: boolean; indexes: number[] } | undefined;
    if (last && last.open === open && previousEnd === i - 1) last.indexes.push(i);
    else runs.push({ open, indexes: [i - 1, i] });
    previousEnd = i;
  }
  return runs;
}

/** "Nov 2" from "2026-11-02"; the day itself when it is not one. */
function dayLabel(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : shortDate.format(time);
}
