// What the writer reads of code-block feedback (src/codeFeedback/feedbackText.ts): the hover's and
// Problems' text, against hostile reader text. No vscode import.
import assert from 'node:assert/strict';
import { goneLensTitle, goneText, HOVER_CHARS, HOVER_ITEMS, hoverEntries, problemText } from '../../../src/codeFeedback/feedbackText';
import { markdownEscaped } from '../../../src/util/markdownText';
import { l10n } from '../../support/l10n';
import { hostile, item } from './feedbackItem';

describe('code-block feedback', () => {
  describe('what the writer reads', () => {
    it('quotes each comment as one line, cut, its direction and invisible characters escaped', () => {
      const items = hostile.map((comment, i) => item('x', { comment, createdAt: `2026-11-0${i + 1}T00:00:00Z` }));
      const { entries } = hoverEntries(items, l10n);
      assert.equal(entries.length, 4);
      for (const entry of entries) {
        assert.ok(!/[\n\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(entry.comment), entry.comment);
      }
      assert.equal(entries[0]?.comment, '\\u202eswodniW no sliaf\\u202c and \\u2066isolated\\u2069 \\u200bzero');
      assert.equal(entries[3]?.comment, '``` rm -rf / ```');
      assert.equal(entries[0]?.about, '2026-11-04 · pending · from a reader');
      const long = hoverEntries([item('x', { comment: 'a'.repeat(5_000) })], l10n).entries[0]?.comment ?? '';
      assert.equal(long.length, HOVER_CHARS);
    });

    it("escapes every Markdown and HTML character of the hover's text, so it renders as written", () => {
      for (const text of hostile.map((h) => hoverEntries([item('x', { comment: h })], l10n).entries[0]?.comment ?? '')) {
        const md = markdownEscaped(text);
        // Every ASCII punctuation character is escaped, and removing the escapes gives the text back.
        assert.ok(!/(^|[^\\])[!-/:-@[-`{-~]/.test(md.replace(/\\[!-/:-@[-`{-~]/g, '')), md);
        assert.equal(md.replace(/\\([!-/:-@[-`{-~])/g, '$1'), text);
      }
    });

    it('says who wrote it (a reader or an AI agent), its status, and how many it left out', () => {
      const items = [
        item('x', { source: 'agent', createdAt: '2026-11-19T00:00:00Z' }),
        ...Array.from({ length: HOVER_ITEMS + 1 }, () => item('x', { createdAt: '2026-11-01T00:00:00Z' })),
      ];
      items[1] = { ...items[1], status: 'in_progress' };
      const { entries, more } = hoverEntries(items, l10n);
      assert.equal(entries[0]?.about, '2026-11-19 · pending · from an AI agent');
      assert.ok(entries.some((e) => e.about.includes('in progress')));
      assert.equal(more, 2);
    });

    it('words the Problems entry with the count, the range and the newest comment, escaped', () => {
      const items = [
        item('x', { comment: 'older', createdAt: '2026-11-01T00:00:00Z' }),
        item('x', { comment: 'fails on \u202eWindows', createdAt: '2026-11-09T00:00:00Z' }),
        item('x', { comment: 'c', createdAt: '2026-11-02T00:00:00Z' }),
      ];
      assert.equal(problemText(items, 30, l10n), '3 readers flagged this code block (last 30 days): “fails on \\u202eWindows”');
      assert.equal(problemText(items.slice(0, 1), 30, l10n), '1 reader flagged this code block (last 30 days): “older”');
    });

    it('says when the same code is in other blocks of the page', () => {
      const items = [item('x', { comment: 'wrong flag' })];
      assert.equal(
        problemText(items, 30, l10n, 1),
        '1 reader flagged this code block (last 30 days): “wrong flag” Another block here has the same code: it may be about that one.',
      );
      assert.match(problemText(items, 30, l10n, 2), /2 other blocks here have the same code/);
      assert.equal(problemText(items, 30, l10n, 0), '1 reader flagged this code block (last 30 days): “wrong flag”');
    });

    it('says feedback on a page whose API reference Mintlify generates is most likely about that, not a block that went', () => {
      const items = [item('curl --request POST', { comment: 'missing header' })];
      assert.equal(
        goneText(items, 30, l10n, 'POST /users'),
        'Readers’ feedback on code in no file of this page (1): most likely the API reference generated for POST /users (last 30 days): “missing header”',
      );
      assert.equal(
        goneLensTitle(2, l10n, 'POST /users'),
        'Readers’ feedback on code in no file of this page (2): most likely the API reference generated for POST /users',
      );
      assert.match(goneText(items, 30, l10n), /no longer on this page/);
    });
  });
});
