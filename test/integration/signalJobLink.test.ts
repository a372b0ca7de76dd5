// "Ask the Agent to Address This" links the signal to exactly the job its send reached: the id the
// create call answered with, or the job picked for a follow-up; never a job found by its prompt
// text. When the create's answer is lost the signal is not linked, and the writer is told.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { SignalNode } from '../../src/signals/signalsTree';
import type { Simulator } from '../simulator/server';
import { freshAnalyticsHour, leaveWindowClean, PROJECT, requestsTo, ScriptedUser, seam, setProject, signIn, waitFor, withSimulator } from './support';
import { withoutNonce } from '../support/evidenceBlock';

const SEND = 'Choose Where to Send…';

describe('signal to job link', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let page: SignalNode & { type: 'page' };
  let sentText = '';

  /** The writer keeps the suggested instruction, sends the preview unchanged, to the target picked. */
  async function ask(user: ScriptedUser, target: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined): Promise<void> {
    user.type((options) => options.value);
    user.answerMessage = (shown) => {
      if (!shown.actions.includes(SEND)) return undefined;
      sentText = vscode.window.activeTextEditor?.document.getText() ?? '';
      return SEND;
    };
    user.pick(target);
    await vscode.commands.executeCommand('mintlifyAgent.askToAddress', page);
  }
  const linked = () => s.signals.links.jobFor(PROJECT, `page:${page.signal.path}`)?.jobId;
  const newJob = (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label.includes('New job'));

  before(async () => {
    s = await seam();
    sim = await withSimulator({ analyticsLimitPerHour: 10_000, jobDurationMs: 600_000 });
    await signIn(s);
    await setProject(PROJECT);
    await freshAnalyticsHour(s);
    await vscode.commands.executeCommand('mintlifyAgent.refreshSignals');
    const pages = s.signals.tree.getChildren(s.signals.tree.getChildren()[0]);
    page = pages.find((n): n is SignalNode & { type: 'page' } => n.type === 'page' && !s.signals.links.jobFor(PROJECT, `page:${n.signal.path}`))!;
    assert.ok(page, 'a page signal with no job yet');
  });
  after(async () => {
    await leaveWindowClean(s);
    await sim.close();
  });

  it("links the follow-up's job, then the created job's id, though both jobs hold the same prompt", async () => {
    const earlier = sim.addJob(PROJECT, { status: 'completed', prompt: 'Earlier work' });
    await s.tracker.track(earlier.id);
    const user = new ScriptedUser(s.ui);
    try {
      await ask(user, (items) => items.find((i) => (i as { jobId?: string }).jobId === earlier.id));
      assert.equal(linked(), earlier.id, 'the follow-up links the job the writer picked');
      const followUpText = sentText;

      sim.clearRequests();
      const before = new Set(s.jobs.all().map((t) => t.id));
      await ask(user, newJob);
      assert.equal(withoutNonce(sentText), withoutNonce(followUpText), "the same prompt text as the follow-up (but for its evidence block's fresh nonce)");
      assert.deepEqual(
        requestsTo(sim, 'POST', '/job').map((r) => r.body),
        [{ prompt: sentText }],
        'one job created, from this prompt',
      );
      const created = await waitFor('the created job tracked', () => s.jobs.all().find((t) => !before.has(t.id)));
      assert.ok(sim.peekJob(PROJECT, created.id), 'the simulator holds the created job');
      assert.equal(linked(), created.id, 'the created job, not the earlier job holding the same prompt');
      assert.ok(user.messages.some((m) => m.message.includes(`job ${created.id}`)));
    } finally {
      user.restore();
    }
  });

  it("does not link a guessed job when the create call's answer is lost, and says so", async () => {
    const before = linked();
    assert.ok(before);
    sim.clearRequests();
    sim.addFault({ fault: { kind: 'answerThenReset' }, times: 1, method: 'POST' });
    const user = new ScriptedUser(s.ui);
    try {
      await ask(user, newJob);
      assert.equal(requestsTo(sim, 'POST', '/job').length, 1, 'the create was sent once, never again unasked');
      assert.ok(
        user.messages.some((m) => m.message.includes('A job may have been created')),
        'the lost answer is reported',
      );
      assert.ok(
        user.messages.some((m) => m.message.includes('The signal is not linked to a job')),
        user.messages.map((m) => m.message).join('\n'),
      );
      assert.equal(linked(), before, 'the link is unchanged: no guess');
    } finally {
      user.restore();
    }
  });
});
