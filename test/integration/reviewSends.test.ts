// What a review's send records, in the real VS Code with real git and the simulator: a refused send
// (a 429) sent nothing, so it ends its mark at once, not when its failure message is answered, and
// another window may send the review meanwhile; Retry then goes through the same claim and "sent
// meanwhile" check as Send Review; a comment the writer cut from the preview was not sent and stays
// pending. The steps build on each other, as a writer's session does.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReviewResult } from '../../src/git/registerReviewChanges';
import type { Logger } from '../../src/log';
import { ReviewModel } from '../../src/review/reviewModel';
import { sendReview, type ReviewSent } from '../../src/review/sendReview';
import { WindowSync } from '../../src/sync/windowSync';
import type { Simulator } from '../simulator/server';
import type { TestSeam } from '../support/extensionUnderTest';
import { git, pushBranch, writeFile } from '../support/gitRepo';
import { leaveWindowClean, PROJECT, requestsTo, ScriptedUser, seam, setProject, signIn, stepsBuildOnEachOther, waitFor, withSimulator } from './support';

const BRANCH = 'mintlify/agent-review-sends';
const GUIDE = 'docs/guides/limits.mdx';
const LINES = ['---', 'title: Limits', '---', '', 'A 429 means: wait, then try again.', 'The hour is shared by the team.', '', 'Write to support.'];
const quiet = { info: () => undefined, warn: () => undefined };
const log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  scoped: () => log,
} as unknown as Logger;
const memento: vscode.Memento = { get: () => undefined, update: () => Promise.resolve(), keys: () => [] };

describe("a review's sends record what happened (refused, retried, cut from the preview)", function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let jobId: string;
  let review: ReviewResult;
  const path = () => `/job/${jobId}/message`;
  const model = () => s.reviewComments.model;
  const guide = () => review.resources.find(([r]) => r.path.endsWith(`/${GUIDE}`))![2]!;

  async function comment(line: number, text: string): Promise<string> {
    const thread = s.reviewComments.threads.controller.createCommentThread(guide(), new vscode.Range(line - 1, 0, line - 1, 0), []);
    const id = await vscode.commands.executeCommand<string | undefined>('mintlifyAgent.addReviewComment', { thread, text });
    assert.ok(id, `the comment was added; messages: ${JSON.stringify(user.messages)}`);
    return id;
  }

  before(async () => {
    s = await seam();
    sim = await withSimulator();
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const origin = git(root, 'remote', 'get-url', 'origin');
    await setProject(PROJECT);
    await signIn(s);
    pushBranch({ url: origin }, BRANCH, (clone) => writeFile(clone, GUIDE, `${LINES.join('\n')}\n`));
    jobId = sim.addJob(PROJECT, { status: 'completed', prompt: 'Write a limits guide', source: { repository: origin, ref: BRANCH }, activeForMs: 500 }).id;
    await s.tracker.track(jobId);
    const user = new ScriptedUser(s.ui);
    try {
      review = (await vscode.commands.executeCommand<ReviewResult | undefined>('mintlifyAgent.reviewChanges', jobId))!;
      assert.ok(review, `Review Changes opened; messages: ${JSON.stringify(user.messages)}`);
    } finally {
      user.restore();
    }
  });
  after(async () => {
    sim.clearFaults();
    await leaveWindowClean(s);
    await sim.close();
  });
  stepsBuildOnEachOther(
    () => s,
    (next) => (user = next),
  );

  it('a refused send ends its mark at once: another window sends the review meanwhile, and Retry then sends nothing twice', async () => {
    const id = await comment(5, 'Say how long to wait.');
    // Another window of the profile, on the same project.
    const other = new WindowSync(s.sync.dir, quiet, memento);
    other.lease.setProject(PROJECT);
    const otherModel = new ReviewModel(other, () => PROJECT);
    try {
      await other.ready;
      await waitFor(
        'each window to see the other',
        () => s.sync.lease.peersOn(PROJECT).some((p) => p.window === other.windowId) && other.lease.peersOn(PROJECT).length > 0,
      );
      await waitFor('the other window to see the pending comment', () => otherModel.pending(jobId).length === 1);
      sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 1 }, times: 1, method: 'POST', pathIncludes: path() });
      const before = requestsTo(sim, 'POST', path()).length;
      let inFlightWhileAsked: unknown = 'not asked';
      let otherSent: ReviewSent | undefined;
      let problem: Error | undefined;
      user.type('');
      user.answerMessage = async (m) => {
        if (m.actions.includes('Send Review')) return 'Send Review';
        if (!m.actions.includes('Retry') || inFlightWhileAsked !== 'not asked') return undefined;
        // The failure message waits for the writer; the 429 proves nothing arrived.
        inFlightWhileAsked = model().inFlight(jobId);
        try {
          await waitFor('the other window to see no send under way', () => otherModel.inFlight(jobId) === undefined, 5_000);
          // The 429's wait (1 s) holds every window's agent requests: the other window sends once it is over, as a writer would.
          await waitFor("the 429's wait to be over", () => s.sync.ledger.familyWaitMs('agent') === 0, 10_000);
          user.type('');
          otherSent = await sendReview({ model: otherModel, threads: s.reviewComments.threads, jobs: s.jobs, ui: s.ui, ledger: s.sync.ledger, log }, jobId);
          assert.equal(otherSent?.sent?.sent, true, `the other window sent it; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
          // Through the folder both windows share (a write, the watcher, a read): a bound for a loaded machine.
          await waitFor("the other window's send to reach this window", () => model().pending(jobId).length === 0, 30_000);
        } catch (error) {
          problem = error instanceof Error ? error : new Error(String(error));
        }
        return 'Retry';
      };
      const result = await vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId);
      assert.equal(inFlightWhileAsked, undefined, 'no send of the review is under way while its failure message waits');
      if (problem) throw problem;
      assert.equal(otherSent?.sent?.sent, true, `the other window sent it; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
      assert.equal(result?.sent?.sent, false);
      assert.equal(requestsTo(sim, 'POST', path()).length, before + 2, 'the refused send and the other window’s: Retry sent nothing');
      assert.ok(
        user.messages.some((m) => /Nothing was sent: 1 of the comments in this preview were sent from another window meanwhile/.test(m.message)),
        JSON.stringify(user.messages.map((m) => m.message)),
      );
      assert.equal(model().comment(jobId, id)?.sentAt !== undefined, true, 'sent once, by the other window');
      assert.equal(model().lost(jobId), undefined, 'no window says a send lost its answer');
      await waitFor('no send under way', () => !model().inFlight(jobId) && !otherModel.inFlight(jobId));
    } finally {
      sim.clearFaults();
      otherModel.dispose();
      other.dispose();
    }
  });

  it('Retry after a refused send goes through the claim: it sends once, and the comments become sent', async () => {
    await waitFor('the job to finish its round', () => s.jobs.get(jobId)?.job?.status === 'completed', 60_000);
    const id = await comment(6, 'Name the team’s share.');
    sim.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 1 }, times: 1, method: 'POST', pathIncludes: path() });
    const before = requestsTo(sim, 'POST', path()).length;
    user.type('');
    user.answerMessage = (m) => (m.actions.includes('Send Review') ? 'Send Review' : m.actions.includes('Retry') ? 'Retry' : undefined);
    const result = await vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId);
    assert.equal(result?.sent?.sent, true, JSON.stringify(user.messages.map((m) => m.message)));
    assert.equal(requestsTo(sim, 'POST', path()).length, before + 2, 'the refused send, then the Retry');
    await waitFor('the comment marked sent, and no send under way', () => model().comment(jobId, id)?.sentAt !== undefined && !model().inFlight(jobId));
  });

  it('a comment the writer cut from the preview is not marked sent: it stays pending', async () => {
    await waitFor('the job to finish its round', () => s.jobs.get(jobId)?.job?.status === 'completed', 60_000);
    const kept = await comment(5, 'Link the status page.');
    const cut = await comment(8, 'Add the support address.');
    const before = requestsTo(sim, 'POST', path()).length;
    user.type('');
    user.answerMessage = async (m) => {
      if (!m.actions.includes('Send Review')) return undefined;
      // The writer deletes the second comment's part of the preview, then sends.
      const editor = await waitFor('the preview to be the active editor', () =>
        vscode.window.activeTextEditor?.document.getText().includes('--- Comment 2 of 2') ? vscode.window.activeTextEditor : undefined,
      );
      const text = editor.document.getText();
      const from = text.indexOf('\n\n--- Comment 2 of 2');
      const to = text.indexOf('\n\n--- End of review ---');
      await editor.edit((edit) => edit.delete(new vscode.Range(editor.document.positionAt(from), editor.document.positionAt(to))));
      return 'Send Review';
    };
    const result = await vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId);
    assert.ok(result?.sent?.sent, JSON.stringify(user.messages.map((m) => m.message)));
    const posts = requestsTo(sim, 'POST', path()).slice(before);
    assert.equal(posts.length, 1);
    const prompt = (posts[0].body as { prompt: string }).prompt;
    assert.ok(prompt.includes('Link the status page.') && !prompt.includes('Add the support address.'), prompt);
    await waitFor('the kept comment marked sent', () => model().comment(jobId, kept)?.sentAt !== undefined);
    assert.equal(model().comment(jobId, cut)?.sentAt, undefined, 'the comment cut from the preview is still pending');
    assert.deepEqual(
      model()
        .pending(jobId)
        .map((c) => c.id),
      [cut],
    );
  });
});
