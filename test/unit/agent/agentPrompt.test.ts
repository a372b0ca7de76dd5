import assert from 'node:assert/strict';
import { buildAgentPrompt, MAX_SELECTION_CHARS } from '../../../src/agent/agentPrompt';

describe('buildAgentPrompt (Ask the Agent About This…)', () => {
  it('puts the instruction first, then the page and the selection with its lines, delimited', () => {
    const prompt = buildAgentPrompt('  Make this friendlier  ', {
      sitePath: '/quickstart',
      repositoryPath: 'docs/quickstart.mdx',
      selection: { text: 'Get started.\nIn five minutes.', startLine: 5, endLine: 6 },
    });
    assert.equal(
      prompt,
      'Make this friendlier\n\n=== About this page ===\nSite path: /quickstart\nFile in the repository: docs/quickstart.mdx\n=== Selected text (lines 5-6) ===\nGet started.\nIn five minutes.\n=== End ===',
    );
  });

  it('a whole page (no selection) and a file outside the docs root (no site path)', () => {
    assert.equal(
      buildAgentPrompt('Fix typos', { repositoryPath: 'README.md' }),
      'Fix typos\n\n=== About this page ===\nFile in the repository: README.md\n=== End ===',
    );
    assert.match(buildAgentPrompt('x', { repositoryPath: 'a.md', selection: { text: 'one', startLine: 3, endLine: 3 } }), /\(line 3\)/);
  });

  it(`cuts a selection over ${MAX_SELECTION_CHARS} characters and says so`, () => {
    const prompt = buildAgentPrompt('Shorten', {
      repositoryPath: 'a.md',
      selection: { text: 'y'.repeat(MAX_SELECTION_CHARS + 10), startLine: 1, endLine: 90 },
    });
    assert.ok(prompt.includes(`${'y'.repeat(MAX_SELECTION_CHARS)}\n(selection shortened)\n=== End ===`));
    assert.ok(!prompt.includes('y'.repeat(MAX_SELECTION_CHARS + 1)));
  });
});
