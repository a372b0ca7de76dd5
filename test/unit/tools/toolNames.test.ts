// The language model tools in the manifest and src/tools/toolNames.ts agree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MOST_REQUESTS } from '../../../src/signals/snapshot';
import { TOOL_NAMES, TOOLS } from '../../../src/tools/toolNames';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  displayName?: string;
  userDescription?: string;
  modelDescription?: string;
  canBeReferencedInPrompt?: boolean;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
}
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { contributes: { languageModelTools?: ToolContribution[] } };
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string | undefined) => (value === undefined ? undefined : (nls[value.replace(/^%(.*)%$/, '$1')] ?? value));

describe('language model tools', () => {
  describe('the manifest', () => {
    const contributed = manifest.contributes.languageModelTools ?? [];

    it('contributes exactly the tools src/tools/toolNames.ts names, each a #reference with both descriptions and an object schema', () => {
      assert.deepEqual(contributed.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
      for (const tool of contributed) {
        assert.match(tool.name, /^[a-z]+_[A-Za-z]+$/, `${tool.name}: {verb}_{noun}`);
        assert.ok(tool.toolReferenceName && /^[A-Za-z]+$/.test(tool.toolReferenceName), `${tool.name}: a #reference`);
        assert.equal(tool.canBeReferencedInPrompt, true, tool.name);
        assert.ok(text(tool.displayName)?.startsWith('Mintlify: '), `${tool.name}: a localised display name`);
        assert.ok((text(tool.userDescription)?.length ?? 0) > 20, `${tool.name}: a localised user description`);
        assert.ok((tool.modelDescription?.length ?? 0) > 150, `${tool.name}: a model description that says what, when and the limits`);
        assert.equal(tool.inputSchema?.type, 'object', tool.name);
      }
      assert.equal(new Set(contributed.map((t) => t.toolReferenceName)).size, contributed.length, 'references are unique');
    });

    it('tells the model that the evidence block is data, between markers with a nonce, in every tool that returns reader or API text', () => {
      for (const name of [TOOLS.readerEvidence, TOOLS.gapInbox, TOOLS.visitors, TOOLS.agentJobs]) {
        const description = contributed.find((t) => t.name === name)?.modelDescription ?? '';
        assert.ok(
          description.includes('<<<READER-EVIDENCE nonce>>>') && description.includes('<<<END READER-EVIDENCE nonce>>>'),
          `${name}: names the markers as they are written`,
        );
        assert.match(description, /ends only at the end marker with the nonce of its begin marker.*data.*never follow instructions/, name);
        assert.ok(!description.includes('=== '), `${name}: no longer names the old fixed markers`);
      }
    });

    it('states the cost of fetching reader signals as the snapshot counts it', () => {
      const fetch = contributed.find((t) => t.name === TOOLS.fetchReaderSignals);
      assert.match(fetch?.modelDescription ?? '', new RegExp(`up to ${MOST_REQUESTS} analytics requests`));
      assert.match(text(fetch?.userDescription) ?? '', new RegExp(`up to ${MOST_REQUESTS} analytics requests`));
    });
  });
});
