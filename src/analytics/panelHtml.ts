// The analytics webview's only HTML. Static markup: every value (paths, counts, messages) is filled
// in by the webview script with textContent, so nothing from the network is ever parsed as HTML.
// Scripts run by nonce only and styles come from the extension's own files: no inline style or
// handler would run even if one slipped in. No vscode import: unit-tested directly.
// Its words come from the extension (`strings`, already translated): written here as escaped text,
// and the whole set rides along in `data-strings` for the texts the webview script fills in.
import { format } from '../shared/format';
import { METRICS, PAGE_SIZE_CHOICES, PRESETS, type WebviewStrings } from '../shared/protocol';

interface PanelHtmlInput {
  /** `webview.cspSource`: the origin the webview loads the extension's files from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** Fresh for every page load. */
  nonce: string;
  /** Every text of the panel, from webviewStrings(vscode.l10n). */
  strings: WebviewStrings;
  /** The display language (`vscode.env.language`), for the screen reader and the date inputs. */
  lang?: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `style-src ${cspSource}`, `script-src 'nonce-${nonce}'`, `img-src ${cspSource}`, `font-src ${cspSource}`].join('; ');
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Every string of a set of words, at any depth, escaped. */
function escapeAll<T>(words: T): T {
  if (typeof words === 'string') return escapeAttribute(words) as T;
  if (typeof words !== 'object' || words === null) return words;
  return Object.fromEntries(Object.entries(words).map(([key, value]) => [key, escapeAll(value)])) as T;
}

export function panelHtml({ cspSource, scriptUri, styleUri, nonce, strings, lang = 'en' }: PanelHtmlInput): string {
  // A translation is text, never markup: every string is escaped where it lands.
  const t = escapeAll(strings);
  const trend = t.trend;
  const presets = PRESETS.map((id) => `<option value="${id}">${escapeAttribute(strings.presets[id])}</option>`).join('');
  const metrics = METRICS.map((id) => `<option value="${id}">${escapeAttribute(strings.metrics[id].name)}</option>`).join('');
  const visitors = strings.metrics.visitors;
  const sizes = PAGE_SIZE_CHOICES.map((size) => `<option value="${size}">${size}</option>`).join('');
  const sortable = (column: string, label: string, numeric: boolean) =>
    `<th scope="col" class="col-${column}${numeric ? ' num' : ''}" aria-sort="none"><button type="button" class="sort" data-column="${column}">${label}</button></th>`;
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(styleUri)}">
<title>${t.title}</title>
</head>
<body data-strings="${escapeAttribute(JSON.stringify(strings))}">
<main>
  <section id="setup" class="setup" hidden>
    <p id="setup-message"></p>
    <button type="button" id="setup-action"></button>
  </section>
  <div id="content">
    <form id="controls" class="controls" aria-label="${t.controlsLabel}">
      <div class="field">
        <label for="metric">${t.metric}</label>
        <select id="metric">${metrics}</select>
      </div>
      <div class="field">
        <label for="preset">${t.dateRange}</label>
        <select id="preset">${presets}<option value="custom">${t.customRange}</option></select>
      </div>
      <fieldset id="custom" class="custom" hidden>
        <legend class="visually-hidden">${t.customRangeLegend}</legend>
        <div class="field"><label for="from">${t.from}</label><input type="date" id="from" aria-describedby="alert-message"></div>
        <div class="field"><label for="to">${t.to}</label><input type="date" id="to" aria-describedby="alert-message"></div>
        <button type="submit" id="apply">${t.apply}</button>
      </fieldset>
      <div class="field">
        <label for="page-size">${t.rowsPerPage}</label>
        <select id="page-size">${sizes}</select>
      </div>
      <div class="buttons">
        <button type="button" id="refresh" class="secondary" title="${t.refreshTooltip}">${t.refresh}</button>
        <button type="button" id="export-csv" class="secondary" title="${t.exportCsvTooltip}">${t.exportCsv}</button>
        <button type="button" id="export-json" class="secondary" title="${t.exportJsonTooltip}">${t.exportJson}</button>
      </div>
      <div class="field toggle">
        <input type="checkbox" id="compare"><label for="compare">${t.compareToggle}</label>
      </div>
    </form>
    <p id="range-label" class="range-label"></p>
    <div id="focus" class="focus" role="status" hidden>
      <p id="focus-message"></p>
      <button type="button" id="clear-focus" class="secondary">${t.clearFocus}</button>
    </div>
    <div id="alert" class="alert" role="alert" hidden>
      <p id="alert-message"></p>
      <div id="alert-actions" class="buttons"></div>
    </div>
    <p id="notice" class="notice" hidden></p>
    <p id="status" class="muted" role="status" aria-live="polite">${escapeAttribute(visitors.loading)}</p>
    <p id="requests" class="muted" hidden></p>
    <p id="compare-status" class="muted" role="status" hidden></p>
    <section id="trend" class="trend" aria-labelledby="trend-heading" hidden>
      <h2 id="trend-heading">${trend.heading}</h2>
      <p id="trend-status" role="status" aria-live="polite" hidden></p>
      <button type="button" id="trend-draw" hidden>${trend.draw}</button>
      <div id="trend-chart" class="trend-chart" tabindex="0" role="img" aria-label="${format(trend.chartLabel, 0)}" hidden></div>
      <ul id="trend-legend" class="trend-legend" hidden></ul>
      <p id="trend-readout" class="trend-readout" aria-live="polite" hidden></p>
      <table id="trend-table" class="trend-table" hidden>
        <caption>${trend.tableCaption}</caption>
        <thead></thead>
        <tbody></tbody>
      </table>
      <div class="trend-notes">
        <button type="button" id="trend-toggle" class="secondary" aria-controls="trend-chart trend-table" hidden>${trend.showTable}</button>
        <button type="button" id="trend-export" class="secondary" title="${trend.exportTrendTooltip}" hidden>${trend.exportTrend}</button>
        <p id="trend-unit" class="muted" hidden></p>
        <p id="trend-cost" class="muted" hidden></p>
      </div>
    </section>
    <section class="totals" aria-labelledby="totals-heading">
      <h2 id="totals-heading" class="visually-hidden">${t.totalsHeading}</h2>
      <p id="metric-name" class="metric-name">${escapeAttribute(visitors.name)}</p>
      <dl>
        <div><dt>${t.human}</dt><dd id="total-human">–</dd><dd id="change-human" class="change" hidden></dd></div>
        <div><dt>${t.ai}</dt><dd id="total-ai">–</dd><dd id="change-ai" class="change" hidden></dd></div>
        <div><dt>${t.total}</dt><dd id="total-all">–</dd><dd id="change-all" class="change" hidden></dd></div>
      </dl>
      <p id="total-note" class="muted">${escapeAttribute(visitors.totalNote)}</p>
    </section>
    <div class="table-tools">
      <label for="filter">${t.filterPaths}</label>
      <input type="search" id="filter" aria-describedby="scope-note" autocomplete="off" spellcheck="false">
      <p id="scope-note" class="muted"></p>
    </div>
    <table id="visitors">
      <caption id="table-caption" class="visually-hidden">${escapeAttribute(visitors.tableCaption)}</caption>
      <thead><tr>${sortable('path', t.path, false)}${sortable('human', t.human, true)}${sortable('ai', t.ai, true)}${sortable('total', t.total, true)}${sortable('change', t.change, true)}<th scope="col" class="col-split"><span class="swatch human" aria-hidden="true"></span><span class="swatch ai" aria-hidden="true"></span>${t.humanAiSplit}</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <button type="button" id="more" class="secondary" hidden></button>
    <p id="empty" class="empty" hidden></p>
    <nav class="pager" aria-label="${t.pagerLabel}">
      <button type="button" id="prev" class="secondary">${t.previous}</button>
      <span id="page-label"></span>
      <button type="button" id="next" class="secondary">${t.next}</button>
    </nav>
    <p id="export-status" class="muted" role="status" aria-live="polite"></p>
  </div>
</main>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(scriptUri)}"></script>
</body>
</html>
`;
}
