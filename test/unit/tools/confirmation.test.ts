// "A confirmation is a contract" (src/tools/confirmation.ts): invoke sends what the dialog of that
// very call showed, once, and nothing when no dialog was shown, when the dialog said nothing could
// be sent, or when what it showed reads differently by the time the writer says yes.
import assert from 'node:assert/strict';
import { Blocked, callKey, Confirmations, MAX_CAPTURES } from '../../../src/tools/confirmation';

const TOOL = 'start_mintlifyAgentJob';
const input = { prompt: 'Fix the quickstart' };
const terms = (project: string) => ({ project, prompt: input.prompt });

describe('confirmations of the acting tools', () => {
  it('sends the terms the dialog showed, once: a second invoke of the same call finds no confirmation', () => {
    const confirmations = new Confirmations();
    confirmations.shown(TOOL, input, terms('acme'));
    // VS Code hands invoke its own copy of the input, keys in any order.
    assert.deepEqual(confirmations.verdict(TOOL, { ...input }, terms('acme')), { kind: 'send', terms: terms('acme') });
    assert.deepEqual(confirmations.verdict(TOOL, input, terms('acme')), { kind: 'notConfirmed' });
  });

  it('sends nothing for a call no dialog was shown for: another tool, another input', () => {
    const confirmations = new Confirmations();
    confirmations.shown(TOOL, input, terms('acme'));
    assert.equal(confirmations.verdict('send_mintlifyAgentFollowUp', input, terms('acme')).kind, 'notConfirmed');
    assert.equal(confirmations.verdict(TOOL, { prompt: 'Fix the quickstart ' }, terms('acme')).kind, 'notConfirmed');
    assert.equal(confirmations.verdict(TOOL, { ...input, extra: 1 }, terms('acme')).kind, 'notConfirmed');
  });

  it('sends nothing when the project reads differently than in the dialog, and names it', () => {
    const confirmations = new Confirmations();
    confirmations.shown(TOOL, input, terms('project-a'));
    assert.deepEqual(confirmations.verdict(TOOL, input, terms('project-b')), {
      kind: 'changed',
      fields: ['project'],
      shown: terms('project-a'),
      now: terms('project-b'),
    });
    assert.equal(confirmations.size, 0, 'the capture is used up');
  });

  it('a dialog that said nothing can be sent never sends, even once the setup is there', () => {
    const confirmations = new Confirmations();
    confirmations.shown(TOOL, input, new Blocked('No project ID.'));
    assert.deepEqual(confirmations.verdict(TOOL, input, terms('acme')), { kind: 'blocked', reason: 'No project ID.' });
    confirmations.shown(TOOL, input, terms('acme'));
    assert.deepEqual(confirmations.verdict(TOOL, input, new Blocked('No API key.')), { kind: 'blocked', reason: 'No API key.' });
  });

  it('the newest dialog of the same call is the one answered (an older one was cancelled)', () => {
    const confirmations = new Confirmations();
    confirmations.shown(TOOL, input, terms('project-a'));
    confirmations.shown(TOOL, input, terms('project-b'));
    assert.deepEqual(confirmations.verdict(TOOL, input, terms('project-b')), { kind: 'send', terms: terms('project-b') });
  });

  it(`keeps at most ${MAX_CAPTURES} captures, the oldest dropped`, () => {
    const confirmations = new Confirmations();
    for (let i = 0; i <= MAX_CAPTURES; i++) confirmations.shown(TOOL, { prompt: `p${i}` }, { prompt: `p${i}` });
    assert.equal(confirmations.size, MAX_CAPTURES);
    assert.equal(confirmations.verdict(TOOL, { prompt: 'p0' }, { prompt: 'p0' }).kind, 'notConfirmed');
    assert.equal(confirmations.verdict(TOOL, { prompt: `p${MAX_CAPTURES}` }, { prompt: `p${MAX_CAPTURES}` }).kind, 'send');
  });

  it("keys a call by its tool and its input, whatever the order of the input's keys", () => {
    assert.equal(callKey(TOOL, { a: 1, b: { c: 2, d: [1, 2] } }), callKey(TOOL, { b: { d: [1, 2], c: 2 }, a: 1 }));
    assert.notEqual(callKey(TOOL, { a: 1 }), callKey('other', { a: 1 }));
    assert.notEqual(callKey(TOOL, { a: [1, 2] }), callKey(TOOL, { a: [2, 1] }));
  });
});
