// The panel's HTML (src/analytics/panelHtml.ts): its content security policy, its one script, its
// labels, and the words it is given kept as text. No vscode import.
import assert from 'node:assert/strict';
import { contentSecurityPolicy, panelHtml } from '../../../src/analytics/panelHtml';
import { webviewStrings } from '../../../src/analytics/webviewStrings';
import { l10n } from '../../support/l10n';

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
