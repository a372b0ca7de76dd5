// VS Code's convention: a setting of a feature that reaches the network carries the tag
// `usesOnlineServices`, so that `@tag:usesOnlineServices` in the Settings editor shows everything a
// person must look at to keep the editor off the network. Every `mintlifyAgent.*` setting reaches it
// (the API, the agent, git's remote, the docs site) unless it is listed here as local, with why: a
// setting added later is untagged until someone decides, and this test fails until then.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
const TAG = 'usesOnlineServices';

/** The settings that only change how what is already kept is shown, and why each sends nothing. */
const LOCAL_ONLY: Readonly<Record<string, string>> = {
  'mintlifyAgent.jobs.notify': 'which finished jobs raise a notification; the polls are the same',
  'mintlifyAgent.readers.codeLens': 'a CodeLens that reads the kept readers snapshot (the status item is what fetches)',
  'mintlifyAgent.readers.explorer': 'Explorer marks from the kept readers snapshot',
  'mintlifyAgent.readers.explorerTop': 'how many Explorer marks, from the kept snapshot',
  'mintlifyAgent.readers.markPagesWithoutReaders': 'Explorer marks from the kept snapshot',
  'mintlifyAgent.signals.rankByAiShare': 'the order of the kept reader signals',
  'mintlifyAgent.codeFeedback.enabled': 'CodeLens, hover and Problems entries read from the kept reader signals',
  'mintlifyAgent.codeFeedback.problems': 'Problems entries read from the kept reader signals',
  'mintlifyAgent.docs.basePath': 'how a docs file maps to its site path; no request reads it',
};

interface Setting {
  tags?: unknown;
}

describe('settings that reach the network', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, Setting> } | { properties: Record<string, Setting> }[] };
  };
  const sections = manifest.contributes.configuration;
  const settings = Object.assign({}, ...(Array.isArray(sections) ? sections : [sections]).map((s) => s.properties)) as Record<string, Setting>;
  const ours = Object.keys(settings).filter((key) => key.startsWith('mintlifyAgent.'));
  const tagged = (key: string) => Array.isArray(settings[key]?.tags) && (settings[key].tags as unknown[]).includes(TAG);

  it(`carry the "${TAG}" tag: every mintlifyAgent.* setting but the local ones listed here`, () => {
    assert.ok(ours.length > 0, 'package.json contributes settings');
    const untagged = ours.filter((key) => !(key in LOCAL_ONLY) && !tagged(key));
    assert.deepEqual(untagged, [], `tag these "${TAG}", or list one in LOCAL_ONLY with why it sends nothing`);
  });

  it('the local ones are settings of the manifest, and none of them says it is online', () => {
    assert.deepEqual(
      Object.keys(LOCAL_ONLY).filter((key) => !ours.includes(key)),
      [],
      'LOCAL_ONLY names a setting package.json no longer has',
    );
    assert.deepEqual(Object.keys(LOCAL_ONLY).filter(tagged), [], `a setting is both local and tagged "${TAG}"`);
  });
});
