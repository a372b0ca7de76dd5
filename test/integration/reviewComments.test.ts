// Review the agent's changes like a pull request, in the real VS Code with real git and
// the simulator: comments on the agent's side of Review Changes become a pending review (shown on
// the job's row, kept in the shared folder, so a reload and another window see it), Send Review to
// Agent sends it as exactly one follow-up through the preview, and after the agent's next round
// (the simulator moves the branch) a comment on changed lines is outdated while the others follow
// their lines. The steps build on each other, as a writer's session does.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { ReviewResult } from '../../src/git/registerReviewChanges';
import { sendReview, type ReviewSent } from '../../src/review/sendReview';
import type { Logger } from '../../src/log';
import { ReviewModel, type ReviewSync } from '../../src/review/reviewModel';
import { WindowSync } from '../../src/sync/windowSync';
import { TOOLS } from '../../src/tools/toolNames';
import type { Simulator } from '../simulator/server';
import { pushBranch, pushCommit, writeFile } from '../support/gitRepo';
import {
  leaveWindowClean,
  PROJECT,
  requestsTo,
  rowCommands,
  ScriptedUser,
  seam,
  stepsBuildOnEachOther,
  setProject,
  signIn,
  waitFor,
  withSimulator,
} from './support';
import { capResult } from '../../src/tools/toolTexts';

const BRANCH = 'mintlify/agent-review-comments';
const QUICKSTART = 'docs/quickstart.mdx';
const ERRORS = 'docs/guides/errors.mdx';
const QUICK_LINES = [
  '---',
  'title: Quickstart',
  '---',
  '',
  'Get started in five minutes.',
  'Install the CLI with `npm i -g mint`.',
  'Run ```mint dev``` to preview.',
  '',
  '## Next steps',
  'Read the guides.',
];
const ERROR_LINES = [
  '---',
  'title: Errors',
  '---',
  '',
  'A 429 means: wait, then try again.',
  'A 401 means the key is wrong.',
  '',
  'Write to support if it persists.',
];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

const quiet = { info: () => undefined, warn: () => undefined };
/** A log that drops every line, for a second window's send. */
const log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  scoped: () => log,
} as unknown as Logger;
const memento: vscode.Memento = { get: () => undefined, update: () => Promise.resolve(), keys: () => [] };

describe('review comments on the agent branch, sent as one follow-up (Send Review to Agent)', function () {
  this.timeout(120_000);
  let s: TestSeam;
  let sim: Simulator;
  let user: ScriptedUser;
  let root: string;
  let origin: string;
  let jobId: string;
  let first: ReviewResult;
  let latest: ReviewResult;
  let fresh = '';
  const ids: Record<'range' | 'line' | 'other', string> = { range: '', line: '', other: '' };

  const threads = () => s.reviewComments.threads;
  const row = () => (s.tree.getChildren() ?? []).map((n) => s.tree.getTreeItem(n)).find((i) => i.id === `job:${jobId}`);
  const modifiedOf = (result: ReviewResult, path: string) => result.resources.find(([r]) => r.path.endsWith(`/${path}`))![2]!;

  /** What VS Code does on the gutter "+", then the reply box's Add Comment: a new thread on the lines, then the command with its text. */
  async function comment(uri: vscode.Uri, startLine: number, endLine: number, text: string): Promise<string> {
    const thread = threads().controller.createCommentThread(uri, new vscode.Range(startLine - 1, 0, endLine - 1, 0), []);
    const id = await vscode.commands.executeCommand<string | undefined>('mintlifyAgent.addReviewComment', { thread, text });
    assert.ok(id, `the comment was added; messages: ${JSON.stringify(user.messages)}`);
    return id;
  }

  before(async () => {
    s = await seam();
    sim = await withSimulator();
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    origin = git(root, 'remote', 'get-url', 'origin');
    await setProject(PROJECT);
    await signIn(s);
    pushBranch({ url: origin }, BRANCH, (clone) => {
      writeFile(clone, QUICKSTART, `${QUICK_LINES.join('\n')}\n`);
      writeFile(clone, ERRORS, `${ERROR_LINES.join('\n')}\n`);
    });
    // The agent's next round: it rewrites the two commented lines of the quickstart (as three) and adds two lines above the errors guide's.
    // Only the first follow-up makes a round; the later ones (the last tests' sends) change nothing.
    let rounds = 0;
    const nextRound = () =>
      rounds++ > 0 ||
      pushCommit({ url: origin }, BRANCH, 'Round 2', (clone) => {
        const quick = [...QUICK_LINES];
        quick.splice(5, 2, 'Install the CLI with pnpm:', '`pnpm add -g mint`', 'Then run `mint dev` to preview.');
        writeFile(clone, QUICKSTART, `${quick.join('\n')}\n`);
        const errors = [...ERROR_LINES];
        errors.splice(4, 0, 'Every error has a status and a message.', '');
        writeFile(clone, ERRORS, `${errors.join('\n')}\n`);
      });
    jobId = sim.addJob(PROJECT, {
      status: 'completed',
      prompt: 'Write an errors guide',
      source: { repository: origin, ref: BRANCH },
      activeForMs: 1_000,
      nextRound,
    }).id;
    await s.tracker.track(jobId);
  });
  after(async () => {
    await leaveWindowClean(s);
    await sim.close();
  });
  stepsBuildOnEachOther(
    () => s,
    (next) => (user = next),
  );

  it("takes comments on the agent's side only, keeps them as one pending review on the job's row, after a reload and in another window", async () => {
    first = (await vscode.commands.executeCommand<ReviewResult | undefined>('mintlifyAgent.reviewChanges', jobId))!;
    assert.ok(first, `no review; messages: ${JSON.stringify(user.messages)}`);
    assert.equal(first.tip, git(root, 'rev-parse', `origin/${BRANCH}`));
    const quick = modifiedOf(first, QUICKSTART);
    const errors = modifiedOf(first, ERRORS);
    // VS Code asks which lines take comments: every line of the agent's version, none of the base's.
    const provider = threads().controller.commentingRangeProvider!;
    const none = new vscode.CancellationTokenSource().token;
    const quickDoc = await vscode.workspace.openTextDocument(quick);
    assert.deepEqual(await provider.provideCommentingRanges(quickDoc, none), [new vscode.Range(0, 0, QUICK_LINES.length, 0)]);
    const base = first.resources.find(([r]) => r.path.endsWith(`/${QUICKSTART}`))![1]!;
    assert.equal(await provider.provideCommentingRanges(await vscode.workspace.openTextDocument(base), none), undefined);

    ids.range = await comment(quick, 6, 7, 'Say which package manager, and why.');
    ids.line = await comment(errors, 5, 5, 'Link the limits page.');
    // Edited as VS Code does it: Edit Comment opens the editor, Save hands the comment back with the new text.
    const note = threads().threadOf(ids.line)!.comments[0];
    await vscode.commands.executeCommand('mintlifyAgent.editReviewComment', note);
    assert.equal(note.mode, vscode.CommentMode.Editing);
    note.body = 'Link the **rate limits** page.';
    await vscode.commands.executeCommand('mintlifyAgent.saveReviewComment', note);
    assert.equal(s.reviewComments.model.comment(jobId, ids.line)?.body, 'Link the **rate limits** page.');
    assert.equal(threads().threadOf(ids.line)!.comments[0].mode, vscode.CommentMode.Preview);
    // Deleted: gone from the review and from the diff.
    const extra = await comment(quick, 2, 2, 'Never mind.');
    const extraThread = threads().threadOf(extra)!;
    await vscode.commands.executeCommand('mintlifyAgent.deleteReviewComment', extraThread.comments[0]);
    assert.equal(s.reviewComments.model.comment(jobId, extra), undefined);
    await waitFor("the deleted comment's thread gone", () => !threads().threadOf(extra));
    const item = await waitFor('the row to count the comments', () => {
      const r = row();
      return String(r?.description).includes('2 comments to send') ? r : undefined;
    });
    assert.match(String(item.contextValue), /^job completed (pr )?comments review$/);
    assert.ok(
      ['mintlifyAgent.sendReview', 'mintlifyAgent.reviewChanges'].every((c) => rowCommands(item.contextValue).includes(c)),
      String(item.contextValue),
    );
    const thread = threads().threadOf(ids.range)!;
    assert.equal(thread.uri.toString(), quick.toString(), "on the agent's side of the diff");
    assert.deepEqual([thread.range?.start.line, thread.range?.end.line], [5, 6]);
    // Tracked by its id, the job is named by it until a prompt is sent from here.
    assert.equal(thread.label, `Review for the agent: Job ${jobId}`);
    assert.equal(thread.contextValue, 'pending');
    assert.equal((thread.comments[0].body as vscode.MarkdownString).value, 'Say which package manager, and why.');
    assert.deepEqual(s.reviewComments.model.comment(jobId, ids.range)?.lines, QUICK_LINES.slice(5, 7));

    // A reload: a window started now reads the review from the shared folder.
    const reloaded = new WindowSync(s.sync.dir, quiet, memento);
    const model = new ReviewModel(reloaded, () => PROJECT);
    try {
      await reloaded.ready;
      assert.deepEqual(model.pending(jobId), s.reviewComments.model.pending(jobId));
    } finally {
      model.dispose();
      reloaded.dispose();
    }

    // Another window of the profile comments on the quickstart's "## Next steps": its file in the shared folder.
    ids.other = 'otherwindow9.1';
    const at = Date.now();
    const other = {
      format: 1,
      presence: { window: 'otherwindow9', project: PROJECT, focused: false, beat: 1, beatAt: at, since: at },
      state: {
        jobs: {},
        drafts: {},
        ledger: {},
        waits: {},
        reviews: {
          [PROJECT]: {
            [jobId]: {
              c: {
                [ids.other]: {
                  v: {
                    path: QUICKSTART,
                    commit: first.tip,
                    startLine: 9,
                    endLine: 9,
                    lines: ['## Next steps'],
                    body: 'Add a link to the API reference.',
                    createdAt: at,
                  },
                  s: { t: at, w: 'otherwindow9' },
                },
              },
            },
          },
        },
      },
    };
    writeFileSync(join(s.sync.dir.fsPath, 'w-otherwindow9.json'), JSON.stringify(other));
    await waitFor("the other window's comment, drawn", () => threads().threadOf(ids.other));
    await waitFor('the row to count it', () => String(row()?.description).includes('3 comments to send'));
    assert.equal(threads().threadOf(ids.other)!.uri.toString(), quick.toString());
  });

  it('sends the review as exactly one follow-up, composed and shown in the preview with its cost; the threads then say it was sent', async () => {
    const before = requestsTo(sim, 'POST', `/job/${jobId}/message`).length;
    let lenses: string[] = [];
    let previewText = '';
    user.type('Keep the tone friendly.');
    user.answerMessage = async (m) => {
      if (!m.actions.includes('Send Review')) return undefined;
      const preview = vscode.window.activeTextEditor!.document;
      previewText = preview.getText();
      const shown = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', preview.uri);
      lenses = shown.map((l) => l.command?.title ?? '');
      return 'Send Review';
    };
    const result = (await vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId))!;
    assert.ok(result?.sent?.sent, `sent; messages: ${JSON.stringify(user.messages)}`);
    const posts = requestsTo(sim, 'POST', `/job/${jobId}/message`).slice(before);
    assert.equal(posts.length, 1, 'one request for the whole review');
    const prompt = (posts[0].body as { prompt: string }).prompt;
    assert.equal(prompt, previewText, 'sent exactly as the preview showed it');
    assert.equal(
      prompt,
      [
        'Keep the tone friendly.',
        '',
        `Review of your changes on branch ${BRANCH} (commit ${first.tip.slice(0, 12)}): 3 comments, in file and line order. Each names a file of the repository and lines of your version of it, quotes those lines between fences, then gives the reviewer's words. Address every comment.`,
        '',
        `--- Comment 1 of 3: ${ERRORS}, line 5 ---`,
        '```',
        'A 429 means: wait, then try again.',
        '```',
        'Link the **rate limits** page.',
        '',
        `--- Comment 2 of 3: ${QUICKSTART}, lines 6-7 ---`,
        '````',
        'Install the CLI with `npm i -g mint`.',
        'Run ```mint dev``` to preview.',
        '````',
        'Say which package manager, and why.',
        '',
        `--- Comment 3 of 3: ${QUICKSTART}, line 9 ---`,
        '```',
        '## Next steps',
        '```',
        'Add a link to the API reference.',
        '',
        '--- End of review ---',
      ].join('\n'),
    );
    assert.match(
      lenses[0] ?? '',
      new RegExp(`^\\$\\(send\\) One follow-up to “Job ${jobId}”: 1 agent request of the project's hour \\(\\d+ of 100 used, \\d+ left\\)\\.$`),
    );
    const question = user.messages.find((m) => m.actions.includes('Send Review'))!;
    assert.match(question.message, /1 agent request of the project's hour .* The preview is exactly what the agent will get/);

    for (const id of Object.values(ids)) {
      const thread = await waitFor(`the thread of ${id} marked sent`, () =>
        threads().threadOf(id)?.contextValue === 'sent' ? threads().threadOf(id) : undefined,
      );
      // The job is named by its first prompt now: the review's instruction.
      assert.match(thread.label ?? '', /^Sent to the agent at \d\d:\d\d.*: Keep the tone friendly\.$/);
      assert.equal(thread.collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);
      assert.equal(thread.state, vscode.CommentThreadState.Resolved);
      assert.equal(thread.canReply, false);
    }
    assert.equal(s.jobs.get(jobId)?.job?.status, 'active', 'the job took the follow-up');
    assert.equal(s.jobs.get(jobId)?.prompts.at(-1)?.text, prompt, "kept in the job's history");
    await waitFor('the row without comments to send', () => !String(row()?.description).includes('to send'));
  });

  it("after the agent's next round, the comment on lines it changed is outdated and the others follow their lines", async () => {
    await waitFor('the job to finish its next round', () => s.jobs.get(jobId)?.job?.status === 'completed', 60_000);
    const next = (await vscode.commands.executeCommand<ReviewResult | undefined>('mintlifyAgent.reviewChanges', jobId))!;
    assert.ok(next, `no review; messages: ${JSON.stringify(user.messages)}`);
    latest = next;
    assert.notEqual(next.tip, first.tip, 'the branch moved');
    await threads().redraw();
    const changed = threads().threadOf(ids.range)!;
    assert.equal(changed.uri.toString(), modifiedOf(next, QUICKSTART).toString(), 'shown on the new round');
    assert.match(changed.label ?? '', /\(outdated: the agent changed these lines\)$/);
    assert.equal(changed.comments[0].label, 'outdated');
    const moved = threads().threadOf(ids.line)!;
    assert.equal(moved.uri.toString(), modifiedOf(next, ERRORS).toString());
    assert.equal(moved.range?.start.line, 6, 'two lines were added above: line 5 is line 7 now');
    assert.doesNotMatch(moved.label ?? '', /outdated/);
    const below = threads().threadOf(ids.other)!;
    assert.equal(below.range?.start.line, 9, 'a line was added above: line 9 is line 10 now');
    assert.doesNotMatch(below.label ?? '', /outdated/);

    // The next review starts on the new round.
    fresh = await comment(modifiedOf(next, QUICKSTART), 6, 8, 'Better. Now show both package managers.');
    assert.equal(s.reviewComments.model.comment(jobId, fresh)?.commit, next.tip);
    await waitFor('the row to count the new comment', () => String(row()?.description).includes('1 comment to send'));
  });

  it('a send whose answer is lost leaves the review pending and says so; it is not sent again unasked', async () => {
    const path = `/job/${jobId}/message`;
    const before = requestsTo(sim, 'POST', path).length;
    sim.addFault({ fault: { kind: 'drop' }, times: 1, method: 'POST', pathIncludes: '/message' });
    user.type('');
    user.answerMessage = (m) => (m.actions.includes('Send Review') ? 'Send Review' : undefined); // then dismiss the failure
    const result = await vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId);
    assert.equal(result?.sent?.sent, false);
    assert.equal(requestsTo(sim, 'POST', path).length, before + 1, 'one try');
    assert.ok(
      user.messages.some((m) => m.actions.includes('Send Again (may duplicate)')),
      JSON.stringify(user.messages),
    );
    assert.equal(s.reviewComments.model.pending(jobId).length, 1, 'still pending');
    await waitFor('the row to say the send may have arrived', () => String(row()?.description).includes('1 comment to send (the last send lost its answer)'));

    // Send Review again: asked first; dismissed, nothing is sent.
    user.messages.length = 0;
    user.answerMessage = () => undefined;
    await vscode.commands.executeCommand('mintlifyAgent.sendReview', jobId);
    assert.match(user.messages[0]?.message ?? '', /lost its answer at .*: the agent may already have it/);
    assert.equal(requestsTo(sim, 'POST', path).length, before + 1, 'nothing more was sent');
  });

  it('the agent jobs tool answers each review sent, and the comments still pending', async () => {
    const text = capResult(await s.tools[TOOLS.agentJobs].invoke({ jobId }, new vscode.CancellationTokenSource().token));
    assert.match(
      text,
      /Reviews of its branch sent as follow-ups, oldest first \(each is one of the prompts above\) \(1\):\n1\. \S+: 3 comments: "docs\/guides\/errors\.mdx" line 5 of commit "\w{12}": "Link the \*\*rate limits\*\* page\."; "docs\/quickstart\.mdx" lines 6-7/,
    );
    assert.match(
      text,
      /Review comments written and not sent yet \(a send at \S+ lost its answer: the agent may have them\) \(1\):\n1\. "docs\/quickstart\.mdx" lines 6-8 of commit "\w{12}": "Better\. Now show both package managers\."/,
    );
  });

  it('a comment added on a tab of an earlier round keeps its text: it shows on the latest round, and the writer is told', async () => {
    const old = modifiedOf(first, ERRORS);
    const text = "Typed on the first round's tab.";
    const id = await comment(old, 2, 2, text);
    assert.equal(s.reviewComments.model.comment(jobId, id)?.body, text);
    assert.equal(s.reviewComments.model.comment(jobId, id)?.commit, first.tip, 'written on the round its tab shows');
    const latestErrors = modifiedOf(latest, ERRORS).toString();
    await waitFor('the comment drawn on the latest round', () => threads().threadOf(id)?.uri.toString() === latestErrors);
    assert.equal(threads().threadOf(id)!.range?.start.line, 1, 'line 2 did not move');
    assert.ok(
      user.messages.some((m) => /earlier round of the agent's branch\. Your comment is kept/.test(m.message)),
      JSON.stringify(user.messages),
    );
  });

  it('a comment edited while the preview is open: the agent gets the text composed, marked sent as such, and the edit stays pending', async () => {
    const composedText = 'Better. Now show both package managers.';
    const edited = 'Better. Show pnpm only.';
    const path = `/job/${jobId}/message`;
    const before = requestsTo(sim, 'POST', path).length;
    user.type('');
    user.answerMessage = async (m) => {
      if (m.actions.includes('Send Again')) return 'Send Again'; // the last send lost its answer: asked first
      if (!m.actions.includes('Send Review')) return undefined;
      // The writer edits the comment in its thread while the preview is open (Save hands it to the model).
      await s.reviewComments.model.edit(jobId, fresh, edited);
      return 'Send Review';
    };
    const result = await vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId);
    assert.ok(result?.sent?.sent, `sent; messages: ${JSON.stringify(user.messages)}`);
    const posts = requestsTo(sim, 'POST', path).slice(before);
    assert.equal(posts.length, 1);
    const prompt = (posts[0].body as { prompt: string }).prompt;
    assert.ok(prompt.includes(composedText) && !prompt.includes(edited), prompt);
    await waitFor('the review marked sent', () => s.reviewComments.model.sent(jobId).length === 2);
    const round = s.reviewComments.model.sent(jobId)[1];
    assert.ok(
      round.comments.some((c) => c.body === composedText),
      'the text the agent got, marked sent',
    );
    const still = s.reviewComments.model.comment(jobId, fresh);
    assert.equal(still?.body, edited);
    assert.equal(still?.sentAt, undefined, 'the edited comment is still pending');
    assert.deepEqual(
      s.reviewComments.model.pending(jobId).map((c) => c.id),
      [fresh],
    );
    await waitFor(
      () => `the row to count the edited comment, no send in doubt: ${String(row()?.description)}`,
      () => String(row()?.description).includes('1 comment to send · '),
    );
  });

  it('one review is sent once: two windows sending it at the same moment make one request, and so do the row and the thread in one window', async () => {
    const path = `/job/${jobId}/message`;
    // Another window of the profile, on the same project: its own shared file, presence and review model.
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
      const before = requestsTo(sim, 'POST', path).length;
      user.type('').type('');
      user.answerMessage = (m) => m.actions.find((a) => a === 'Send Review' || a === 'Send Again');
      const [here, there] = await Promise.all([
        vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId),
        sendReview({ model: otherModel, threads: threads(), jobs: s.jobs, ui: s.ui, ledger: s.sync.ledger, log }, jobId),
      ]);
      assert.equal(requestsTo(sim, 'POST', path).length, before + 1, `one request; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
      assert.equal([here, there].filter((r) => r?.sent?.sent).length, 1, 'one window sent it');
      assert.ok(
        user.messages.some((m) => /Nothing was sent: this review is being sent from another window/.test(m.message)),
        'the other window says why it sent nothing',
      );
      await waitFor(
        'the review marked sent, and no send under way',
        () => s.reviewComments.model.pending(jobId).length === 0 && !s.reviewComments.model.inFlight(jobId),
      );
    } finally {
      otherModel.dispose();
      other.dispose();
    }
    await waitFor('the job to finish its round', () => s.jobs.get(jobId)?.job?.status === 'completed', 60_000);

    // The row's Send Review and the thread's, clicked in one window: one preview, one request.
    const id = await comment(modifiedOf(latest, ERRORS), 3, 3, 'One more thing.');
    const before = requestsTo(sim, 'POST', path).length;
    user.messages.length = 0;
    user.type('');
    user.answerMessage = (m) => (m.actions.includes('Send Review') ? 'Send Review' : undefined);
    const results = await Promise.all([
      vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId),
      vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', threads().threadOf(id)),
    ]);
    assert.equal(requestsTo(sim, 'POST', path).length, before + 1, `one request; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
    assert.equal(results.filter((r) => r?.sent?.sent).length, 1);
    assert.ok(
      user.messages.some((m) => /already being sent from this window/.test(m.message)),
      JSON.stringify(user.messages.map((m) => m.message)),
    );
  });

  it('two windows sending at once make one request even when one claim reaches the shared folder only after the other window sent: no fixed wait decides', async () => {
    const path = `/job/${jobId}/message`;
    await waitFor('the job to finish its round', () => s.jobs.get(jobId)?.job?.status === 'completed', 60_000);
    await comment(modifiedOf(latest, ERRORS), 5, 5, 'Say what a 429 looks like.');
    // Another window of the profile whose first write (its claim to send) reaches the folder only
    // when the test lets it: a slow disk, or a window busy for longer than any settle time.
    const other = new WindowSync(s.sync.dir, quiet, memento);
    other.lease.setProject(PROJECT);
    let held = true;
    let land!: () => void;
    const landed = new Promise<void>((resolve) => (land = resolve));
    const change: ReviewSync['reviews']['change'] = (edit) => {
      if (!held) return other.reviews.change(edit);
      held = false;
      return landed.then(() => other.reviews.change(edit));
    };
    // The other window's reviews, all but its first write as they are.
    const reviews = new Proxy(other.reviews, { get: (area, key): unknown => (key === 'change' ? change : Reflect.get(area, key, area)) });
    const slow: ReviewSync = { reviews, lease: other.lease, refresh: () => other.refresh() };
    const otherModel = new ReviewModel(slow, () => PROJECT);
    try {
      await other.ready;
      await waitFor('each window to see the other', () => s.sync.lease.peersOn(PROJECT).some((p) => p.window === other.lease.windowId));
      await waitFor('the other window to see the pending comment', () => otherModel.pending(jobId).length === 1);
      // The agent answers this send late: it is still under way when the other window's claim lands.
      sim.addFault({ fault: { kind: 'latency', ms: 4_000 }, times: 1, method: 'POST', pathIncludes: path });
      const before = requestsTo(sim, 'POST', path).length;
      user.messages.length = 0;
      user.type('').type('');
      user.answerMessage = (m) => m.actions.find((a) => a === 'Send Review' || a === 'Send Again');
      const there = sendReview({ model: otherModel, threads: threads(), jobs: s.jobs, ui: s.ui, ledger: s.sync.ledger, log }, jobId);
      await waitFor('the other window to find no send under way and write its claim', () => !held);
      const here = vscode.commands.executeCommand<ReviewSent | undefined>('mintlifyAgent.sendReview', jobId);
      await waitFor('this window’s send to reach the API', () => requestsTo(sim, 'POST', path).length > before);
      land();
      const results = await Promise.all([here, there]);
      assert.equal(requestsTo(sim, 'POST', path).length, before + 1, `one request; messages: ${JSON.stringify(user.messages.map((m) => m.message))}`);
      assert.equal(results.filter((r) => r?.sent?.sent).length, 1, 'one window sent it');
      assert.ok(
        user.messages.some((m) => /Nothing was sent: this review is being sent from another window/.test(m.message)),
        JSON.stringify(user.messages.map((m) => m.message)),
      );
      await waitFor(
        'the review marked sent, and no send under way',
        () => s.reviewComments.model.pending(jobId).length === 0 && !s.reviewComments.model.inFlight(jobId),
      );
    } finally {
      land();
      sim.clearFaults();
      otherModel.dispose();
      other.dispose();
    }
  });
});
