// The walkthrough as declared in package.json: the welcome views open this very walkthrough, each
// step completes on the event agreed with the features it teaches, and its Markdown ships.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');

interface Step {
  id: string;
  media: { markdown?: string };
  completionEvents?: string[];
}
interface Manifest {
  publisher: string;
  name: string;
  contributes: { walkthroughs: { id: string; steps: Step[] }[]; viewsWelcome: { view: string; contents: string }[] };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string) => nls[value.replace(/^%(.*)%$/, '$1')] ?? value;

describe('the walkthrough in the manifest', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;

  it('completes each step on the event of what it teaches', () => {
    assert.ok(walkthrough);
    assert.deepEqual(Object.fromEntries(walkthrough.steps.map((step) => [step.id, step.completionEvents])), {
      setApiKey: ['onContext:mintlifyAgent.hasApiKey'],
      setProject: ['onContext:mintlifyAgent.hasProject'],
      startOrTrackJob: ['onContext:mintlifyAgent.hasJobs'],
      openAnalytics: ['onCommand:mintlifyAgent.openAnalytics'],
      askAboutPage: ['onCommand:mintlifyAgent.askAboutThis'],
      pageReaders: ['onContext:mintlifyAgent.pageReadersShown'],
      checkSearches: ['onContext:mintlifyAgent.searchReady'],
    });
  });

  it('has a Markdown file for every step, shipped in the .vsix', () => {
    assert.ok(walkthrough);
    const ignore = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').split('\n');
    for (const step of walkthrough.steps) {
      const file = step.media.markdown;
      assert.ok(file && existsSync(join(repoRoot, file)), `${step.id}: ${file} exists`);
      assert.ok(ignore.includes(`!${file.replace(/[^/]+$/, '*')}`), `${file} is shipped (.vscodeignore)`);
    }
  });

  it('every welcome of the Agent Jobs view (the first thing a new user sees) links to this walkthrough by its full id', () => {
    assert.ok(walkthrough);
    const fullId = `${manifest.publisher}.${manifest.name}#${walkthrough.id}`;
    const welcomes = manifest.contributes.viewsWelcome.filter((welcome) => welcome.view === 'mintlifyAgent.jobs');
    assert.ok(welcomes.length > 0);
    for (const welcome of welcomes) {
      const link = /command:workbench\.action\.openWalkthrough\?([^)\s]+)/.exec(text(welcome.contents));
      assert.ok(link?.[1], `a walkthrough link in: ${text(welcome.contents)}`);
      assert.deepEqual(JSON.parse(decodeURIComponent(link[1])), [fullId, false]);
    }
  });
});
