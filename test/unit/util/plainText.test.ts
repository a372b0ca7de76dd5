// Text shown as plain text (src/util/plainText.ts).
import assert from 'node:assert/strict';
import { plainText } from '../../../src/util/plainText';

describe('plainText', () => {
  const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)\)/i; // how notifications find links
  for (const outside of ['/[Re-enter API key](https://evil.example)', 'boom [x](command:workbench.action.terminal.new)', '[a](file:///etc/passwd)']) {
    it(`keeps ${JSON.stringify(outside)} from becoming a link`, () => {
      assert.match(outside, LINK);
      assert.doesNotMatch(plainText(outside), LINK);
      assert.equal(plainText(outside).replaceAll('\u200b', ''), outside, 'reads the same');
    });
  }
});
