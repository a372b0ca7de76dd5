// Labels and tooltips show a page path or a search term with its invisible direction controls
// escaped, as prompts quote them: a right-to-left override cannot make one path read as another.
import assert from 'node:assert/strict';
import { oneLine, showInvisible } from '../../../src/util/visibleText';
import { quote } from '../../../src/prompt/quotedEvidence';

const CONTROLS = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

describe('text shown in labels and tooltips', () => {
  it('shows a right-to-left override in a page path escaped, not applied', () => {
    // Displayed raw, this path reads "/guides/exe.pdf" backwards: "/guides/fdp.exe".
    const path = '/guides/\u202eexe.pdf';
    const label = showInvisible(path);
    assert.ok(!label.includes('\u202e'), 'no raw override reaches the label');
    assert.equal(label, '/guides/\\u202eexe.pdf');
  });

  it('escapes every direction control (U+202A–202E, U+2066–2069, U+200E/200F, U+061C) in a search term', () => {
    for (const control of CONTROLS) {
      const term = `install${control}windows`;
      const shown = oneLine(term, 80);
      assert.ok(!shown.includes(control), `U+${control.charCodeAt(0).toString(16)} is escaped`);
      assert.equal(shown, `install\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}windows`);
    }
  });

  it('cuts a long question to one line before escaping, so an escape is never cut in half', () => {
    const shown = oneLine(`a\n\n${'b'.repeat(200)}\u202e`, 10);
    assert.equal(shown, `a ${'b'.repeat(7)}…`);
    assert.equal(oneLine('why \u202e?', 10), 'why \\u202e?');
  });

  it('is the escaping prompts use', () => {
    assert.equal(quote('/a\u202eb'), '"/a\\u202eb"');
  });
});
