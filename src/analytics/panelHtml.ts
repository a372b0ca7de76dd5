// The analytics webview's only HTML. Static markup: every value (paths, counts, messages) is filled
// in by the webview script with textContent, so nothing from the network is ever parsed as HTML.
// Scripts run by nonce only and styles come from the extension's own files: no inline style or
// handler would run even if one slipped in. No vscode import: unit-tested directly.
import { PAGE_SIZE_CHOICES, PRESETS, PRESET_LABELS } from '../shared/protocol';

export interface PanelHtmlInput {
  /** `webview.cspSource`: the origin the webview loads the extension's files from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** Fresh for every page load. */
  nonce: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
  ].join('; ');
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function panelHtml({ cspSource, scriptUri, styleUri, nonce }: PanelHtmlInput): string {
  const presets = PRESETS.map((id) => `<option value="${id}">${PRESET_LABELS[id]}</option>`).join('');
  const sizes = PAGE_SIZE_CHOICES.map((size) => `<option value="${size}">${size}</option>`).join('');
  const sortable = (column: string, label: string, numeric: boolean) =>
    `<th scope="col" class="col-${column}${numeric ? ' num' : ''}" aria-sort="none"><button type="button" class="sort" data-column="${column}">${label}</button></th>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(styleUri)}">
<title>Visitor Analytics</title>
</head>
<body>
<main>
  <section id="setup" class="setup" hidden>
    <p id="setup-message"></p>
    <button type="button" id="setup-action"></button>
  </section>
  <div id="content">
    <form id="controls" class="controls" aria-label="Visitors query">
      <div class="field">
        <label for="preset">Date range</label>
        <select id="preset">${presets}<option value="custom">Custom range…</option></select>
      </div>
      <fieldset id="custom" class="custom" hidden>
        <legend class="visually-hidden">Custom range, both days included</legend>
        <div class="field"><label for="from">From</label><input type="date" id="from" aria-describedby="alert-message"></div>
        <div class="field"><label for="to">To (included)</label><input type="date" id="to" aria-describedby="alert-message"></div>
        <button type="submit" id="apply">Apply</button>
      </fieldset>
      <div class="field">
        <label for="page-size">Rows per page</label>
        <select id="page-size">${sizes}</select>
      </div>
      <div class="buttons">
        <button type="button" id="refresh" class="secondary" title="Fetch this page again instead of using the copy in memory">Refresh</button>
        <button type="button" id="export-csv" class="secondary" title="Save every page of this range as CSV">Export CSV…</button>
        <button type="button" id="export-json" class="secondary" title="Save every page of this range as JSON">Export JSON…</button>
      </div>
      <div class="field toggle">
        <input type="checkbox" id="compare"><label for="compare">Compare with previous period</label>
      </div>
    </form>
    <p id="range-label" class="range-label"></p>
    <div id="alert" class="alert" role="alert" hidden>
      <p id="alert-message"></p>
      <div id="alert-actions" class="buttons"></div>
    </div>
    <p id="notice" class="notice" hidden></p>
    <p id="status" class="muted" role="status" aria-live="polite">Loading visitors…</p>
    <p id="requests" class="muted" hidden></p>
    <p id="compare-status" class="muted" role="status" hidden></p>
    <section class="totals" aria-labelledby="totals-heading">
      <h2 id="totals-heading" class="visually-hidden">Totals for the range</h2>
      <dl>
        <div><dt>Human</dt><dd id="total-human">–</dd><dd id="change-human" class="change" hidden></dd></div>
        <div><dt>AI</dt><dd id="total-ai">–</dd><dd id="change-ai" class="change" hidden></dd></div>
        <div><dt>Total</dt><dd id="total-all">–</dd><dd id="change-all" class="change" hidden></dd></div>
      </dl>
      <p class="muted">Total counts each visitor once: someone seen as both human and AI traffic is one visitor, so it is not human + AI.</p>
    </section>
    <div class="table-tools">
      <label for="filter">Filter paths</label>
      <input type="search" id="filter" aria-describedby="scope-note" autocomplete="off" spellcheck="false">
      <p id="scope-note" class="muted"></p>
    </div>
    <table id="visitors">
      <caption class="visually-hidden">Unique visitors per page path</caption>
      <thead><tr>${sortable('path', 'Path', false)}${sortable('human', 'Human', true)}${sortable('ai', 'AI', true)}${sortable('total', 'Total', true)}${sortable('change', 'Change', true)}<th scope="col" class="col-split"><span class="swatch human" aria-hidden="true"></span>Human / <span class="swatch ai" aria-hidden="true"></span>AI</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <button type="button" id="more" class="secondary" hidden></button>
    <p id="empty" class="empty" hidden></p>
    <nav class="pager" aria-label="Pages">
      <button type="button" id="prev" class="secondary">Previous</button>
      <span id="page-label"></span>
      <button type="button" id="next" class="secondary">Next</button>
    </nav>
    <p id="export-status" class="muted" role="status" aria-live="polite"></p>
  </div>
</main>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(scriptUri)}"></script>
</body>
</html>
`;
}
