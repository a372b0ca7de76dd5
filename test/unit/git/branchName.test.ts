// A job's branch name reaches git only when it is a plain branch name: never an option or a refspec.
import assert from 'node:assert/strict';
import { isSafeBranchName } from '../../../src/git/branchName';

describe('branch names from the API', () => {
  it('lets plain branch names through, nested ones included', () => {
    for (const name of ['mintlify/agent-review', 'main', 'docs/fix-links-2', 'feature/a.b', 'ünïcode']) assert.equal(isSafeBranchName(name), true, name);
  });

  it('refuses what git would read as an option, a refspec or a revision expression', () => {
    const refused = [
      '--upload-pack=touch /tmp/x',
      '-b',
      'HEAD:refs/heads/evil',
      '+main',
      'a..b',
      'a@{1}',
      'a b',
      'a~1',
      'a^',
      'a?',
      'a*',
      'a[b',
      'a\\b',
      'a\u0000b',
      'a\nb',
    ];
    for (const name of refused) assert.equal(isSafeBranchName(name), false, JSON.stringify(name));
  });

  it('refuses the shapes git check-ref-format refuses', () => {
    for (const name of ['', '/a', 'a/', 'a//b', 'a.', 'a.lock', '.a', 'a/.b', '@', 'x'.repeat(256)])
      assert.equal(isSafeBranchName(name), false, JSON.stringify(name));
  });
});
