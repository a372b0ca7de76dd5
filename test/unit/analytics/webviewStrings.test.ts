// The words the webview shows (src/analytics/webviewStrings.ts), all from the extension, and the
// placeholders filled as vscode.l10n.t fills them. No vscode import.
import assert from 'node:assert/strict';
import { webviewStrings } from '../../../src/analytics/webviewStrings';
import { format } from '../../../src/shared/format';
import { l10n } from '../../support/l10n';

describe('webview strings', () => {
  it('every text the webview shows is worded by the extension, none empty', () => {
    const strings = webviewStrings(l10n);
    const empty = Object.entries(strings).filter(([, value]) => typeof value === 'string' && !value.trim());
    assert.deepEqual(empty, []);
    assert.deepEqual(Object.values(strings.presets), ['Last 7 days', 'Last 30 days', 'Last 90 days', 'This month', 'All time']);
  });
  it('fills the placeholders the way vscode.l10n.t does', () => {
    const strings = webviewStrings(l10n);
    assert.equal(format(strings.fromMemory, '2', '10:15'), 'Page 2 from memory, fetched at 10:15. Refresh fetches it again.');
    assert.equal(format(strings.exported, '1,200', 'visitors.csv', '5'), 'Exported 1,200 rows to visitors.csv with 5 requests.');
    assert.equal(format('{0} of {1}, {2}', 'a', 'b'), 'a of b, {2}', 'a missing value leaves its placeholder');
    assert.equal(format('{0}', '{1}', 'x'), '{1}', 'a value is not read as a template again');
  });
});
