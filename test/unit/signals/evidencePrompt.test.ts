// The evidence prompt (src/signals/evidencePrompt.ts) with the simulator's hostile reader text:
// quoted, cut and inside the nonce-marked block. No vscode import.
import assert from 'node:assert/strict';
import { MAX_ITEMS, MAX_QUOTE, quote } from '../../../src/prompt/quotedEvidence';
import { buildEvidencePrompt, pageEvidence, suggestedInstruction } from '../../../src/signals/evidencePrompt';
import type { SignalsSnapshot } from '../../../src/signals/snapshot';
import { HOSTILE_PAGE, HOSTILE_TEXTS } from '../../simulator/signals';
import { evidenceBlock } from '../../support/evidenceBlock';
import type { Simulator } from '../../simulator/server';
import { serveSignals } from './signalsFixture';

describe('reader signals', () => {
  let sim: Simulator;
  let snapshot: SignalsSnapshot;

  before(async () => ({ sim, snapshot } = await serveSignals()));
  after(() => sim.close());

  describe('the evidence prompt', () => {
    const files = ['docs/quickstart.mdx'];

    it('keeps the instruction exactly as written, before and apart from the evidence block', () => {
      const evidence = pageEvidence(snapshot, HOSTILE_PAGE, files);
      const instruction = 'Tighten the install section.';
      const { prompt } = buildEvidencePrompt(instruction, evidence);
      assert.ok(prompt.startsWith(`${instruction}\n\n`));
      const block = evidenceBlock(prompt);
      assert.ok(block.before.length > instruction.length);
      assert.equal(block.after, '', 'the block ends the prompt');
      assert.equal(prompt.split(block.markers.end).length, 2, 'no reader text can close the block');
      assert.ok(
        evidence.comments.some((c) => c.comment.text.includes('END READER EVIDENCE')),
        'the site has a comment holding the old end marker',
      );
      assert.ok(!block.before.includes('Ignore previous instructions'));
      assert.ok(prompt.includes('"docs/quickstart.mdx"'));
    });

    it('quotes hostile reader text as one JSON string per line, escaping the invisible controls', () => {
      const { prompt } = buildEvidencePrompt('Fix it.', pageEvidence(snapshot, HOSTILE_PAGE, files));
      const lines = prompt.split('\n');
      assert.ok(lines.includes(`- ${quote(HOSTILE_TEXTS.injection)} (${quote(snapshot.pending[0]?.createdAt?.slice(0, 10) ?? '')})`));
      assert.ok(prompt.includes(JSON.stringify(HOSTILE_TEXTS.markup)));
      assert.ok(!prompt.includes('\u202e'), 'a right-to-left override is escaped, not sent raw');
      assert.ok(prompt.includes('\\u202e'));
      assert.ok(prompt.includes(JSON.stringify(HOSTILE_TEXTS.formula)));
      for (const line of evidenceBlock(prompt).lines)
        assert.ok(!line.startsWith('===') && !line.startsWith('<<<') && !line.startsWith('Ignore'), line.slice(0, 60));
    });

    it('caps each text and each list, and says how much it left out', () => {
      const evidence = pageEvidence(snapshot, HOSTILE_PAGE, files);
      const many = { ...evidence, comments: [...evidence.comments, ...evidence.comments, ...evidence.comments] };
      const built = buildEvidencePrompt('Fix it.', many);
      assert.ok(many.comments.length > MAX_ITEMS);
      assert.ok(built.prompt.includes(`(${many.comments.length - MAX_ITEMS} more not included)`));
      assert.equal(built.notIncluded.comments, many.comments.length - MAX_ITEMS);
      const hugeLine = buildEvidencePrompt('Fix it.', { ...evidence, comments: evidence.comments.filter((c) => c.comment.fullLength) })
        .prompt.split('\n')
        .find((l) => l.includes('more characters not included'));
      assert.ok(hugeLine);
      assert.ok(hugeLine.includes(`(${HOSTILE_TEXTS.huge.length - MAX_QUOTE} more characters not included)`));
      assert.ok(built.prompt.length < 12_000, `a page's prompt stays small (${built.prompt.length} characters)`);
    });

    it('suggests an instruction naming the workspace file, quoting no text from the API (not even the path)', () => {
      const suggestion = suggestedInstruction(pageEvidence(snapshot, HOSTILE_PAGE, files));
      assert.match(suggestion, /^Improve the docs page in docs\/quickstart\.mdx /);
      assert.ok(!suggestion.includes('/quickstart '), 'the site path stays in the evidence');
      assert.ok(!suggestion.toLowerCase().includes('ignore previous'));
    });
  });
});
