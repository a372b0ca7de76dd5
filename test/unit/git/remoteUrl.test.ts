import assert from 'node:assert/strict';
import { remoteKey, sameRepository } from '../../../src/git/remoteUrl';

describe('remoteKey / sameRepository (is this workspace a clone of the job repository?)', () => {
  const same = 'github.com/acme/docs';
  const cases: [string, string | undefined][] = [
    ['https://github.com/acme/docs', same],
    ['https://github.com/acme/docs.git', same],
    ['https://github.com/acme/docs/', same],
    ['https://GitHub.COM/acme/docs', same],
    ['https://user:token@github.com/acme/docs.git', same],
    ['http://github.com/acme/docs', same],
    ['ssh://git@github.com/acme/docs.git', same],
    ['ssh://git@github.com:22/acme/docs.git', same],
    ['git@github.com:acme/docs.git', same],
    ['git@github.com:acme/docs', same],
    ['github.com:acme/docs', same],
    ['git://github.com/acme/docs.git', same],
    ['  https://github.com/acme/docs.git\n', same],
    ['https://gitlab.example.com/group/sub/docs.git', 'gitlab.example.com/group/sub/docs'],
    ['file:///tmp/remote.git', 'file:/tmp/remote'],
    ['file:///tmp/with%20space.git/', 'file:/tmp/with space'],
    ['/tmp/remote.git', 'file:/tmp/remote'],
    ['C:\\repos\\docs', undefined],
    ['', undefined],
    ['not a url', undefined],
    ['https://github.com/', undefined],
    ['mailto:someone@example.com', undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(remoteKey(input), expected));
  }

  it('matches ssh against https, and tells different repositories apart', () => {
    assert.equal(sameRepository('git@github.com:acme/docs.git', 'https://github.com/acme/docs'), true);
    assert.equal(sameRepository('https://github.com/acme/docs', 'https://github.com/acme/docs-portal'), false);
    assert.equal(sameRepository('https://github.com/acme/docs', 'https://gitlab.com/acme/docs'), false);
    assert.equal(sameRepository('https://github.com/acme/docs', 'https://github.com/other/docs'), false);
    assert.equal(sameRepository('', ''), false, 'two unreadable URLs are not the same repository');
  });
});
