// Review the agent's changes like a pull request, as a person does it in the workbench:
// a comment with the gutter "+" on the agent's side of Review Changes, "1 comment to send" on the
// job's row, Send Review to Agent from the thread's title, the preview read, sent, the thread then
// marked sent, the job active and then completed; then a send whose answer is lost, which the row
// says at once, while the failure message still waits; then a reload while git is still reading the
// repository (the Git extension opens it before it knows its remotes), after which the pending comment
// is drawn in the diff Review Changes opens again. Clicks and keys only.
import assert from 'node:assert/strict';
import { DEMO_API_KEY } from '../simulator/demo';
import type { Locator } from 'playwright-core';
import type { Simulator } from '../simulator/server';
import { pushBranch, pushCommit, writeFile } from '../support/gitRepo';
import { heldGit, type HeldGit } from '../support/heldGit';
import { keepForReadme, PROJECT, stepsBuildOnEachOther, UiSession, screenshotOnFailure } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

const BRANCH = 'mintlify/agent-ui-review';
const QUICK_LINES = [
  '---',
  'title: Quickstart',
  '---',
  '',
  'Get started in five minutes.',
  'Install the CLI with npm.',
  'Run mint dev to preview.',
  '',
  '## Next steps',
  'Read the guides.',
];
const COMMENT = 'Say which package manager, and why.';
const SECOND = 'Show the command in a code block.';

describe('review comments on the agent branch, sent as one follow-up (UI)', function () {
  this.timeout(5 * 60_000);
  let session: UiSession | undefined;
  let sim: Simulator;
  let wb: Workbench;
  let jobId = '';
  /** VS Code's git (`git.path`): the last step holds its `git status` while the window reloads. */
  const git: HeldGit = heldGit();
  stepsBuildOnEachOther();

  before(async function () {
    this.timeout(8 * 60_000);
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`), { 'git.path': git.path });
    sim = session.sim;
    wb = session.workbench;
    const repository = session.repository!;
    pushBranch(repository, BRANCH, (clone) => writeFile(clone, 'docs/quickstart.mdx', `${QUICK_LINES.join('\n')}\n`));
    const nextRound = () =>
      pushCommit(repository, BRANCH, 'Round 2', (clone) =>
        writeFile(clone, 'docs/quickstart.mdx', `${QUICK_LINES.join('\n').replace('with npm', 'with pnpm (npm works too)')}\n`),
      );
    jobId = sim.addJob(PROJECT, { status: 'completed', prompt: 'Tidy the quickstart', source: { repository: repository.url, ref: BRANCH }, nextRound }).id;
  });

  screenshotOnFailure('review-comments', () => wb);

  after(async () => {
    git.release();
    await session?.stop();
    git.remove();
  });

  /** The only job of this window (named by its ID until a prompt is sent from here, then by that prompt). */
  const job = () => wb.treeRows('Agent Jobs').first();
  const multiDiff = () => wb.page.locator('.multiDiffEditor');
  /** The agent's side (the modified editor) of quickstart.mdx in the multi-file diff. */
  const agentSide = () => multiDiff().locator('.multiDiffEntry').filter({ hasText: 'quickstart.mdx' }).locator('.editor.modified');

  it('opens the agent\'s branch with Review Changes and comments on a line with the gutter "+"', async () => {
    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.setProjectId(PROJECT);
    await wb.trackJob(jobId);
    await wb.clearNotifications();
    await expectVisible('"review here" on the job', job().filter({ hasText: 'review here' }), TIMEOUTS.poll);
    await wb.clickAndExpect({
      what: 'Review Changes on the job',
      click: await wb.inlineAction(job(), 'Review Changes'),
      then: multiDiff(),
      shows: 'the multi-file diff editor',
    });
    const line = agentSide().locator('.view-line').filter({ hasText: 'Install the CLI with npm.' });
    await expectVisible("the agent's line in the diff", line);
    await wb.screenshot('review-comments-1-diff');
    await line.hover({ timeout: TIMEOUTS.ui });
    const plus = agentSide().locator('.comment-range-glyph.line-hover');
    await wb.screenshot('review-comments-1-hover');
    const box = wb.page.locator('.review-widget').filter({ has: wb.page.locator('.comment-form') });
    await wb.clickAndExpect({ what: 'the gutter "+" on the line', click: plus, then: box, shows: 'the comment box' });
    await wb.screenshot('review-comments-1-box');
    await box.locator('.comment-form .monaco-editor').click({ timeout: TIMEOUTS.ui });
    await wb.page.keyboard.type(COMMENT);
    const add = box.getByRole('button', { name: 'Add Comment' });
    await wb.clickAndExpect({
      what: 'Add Comment',
      click: add,
      then: job().filter({ hasText: '1 comment to send' }),
      shows: '"1 comment to send" on the job\'s row',
    });
    await wb.screenshot('review-comments-1-added');
  });

  it('sends the review from the thread: reads the preview with its cost, sends, sees the thread marked sent and the job active, then completed', async () => {
    const thread = wb.page.locator('.review-widget').filter({ hasText: COMMENT });
    await expectVisible('the pending thread', thread);
    const before = sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith(`/job/${jobId}/message`)).length;
    const send = thread.getByRole('button', { name: 'Send Review to Agent' });
    await wb.clickAndExpect({
      what: 'Send Review to Agent on the thread',
      click: send,
      then: wb.quickInputTitled(/^Send Review to Agent/),
      shows: "the box for the review's instruction",
    });
    await wb.pressEnterAndWaitForClose();
    // The question hides itself after a few seconds; the cost stays above the preview, where the send is too.
    await expectVisible(
      'the question with its cost',
      wb.notification(/One follow-up to .*: 1 agent request of the project's hour .* The preview is exactly what the agent will get/),
    );
    // Monaco draws spaces as no-break spaces: \s matches both.
    const previewLines = wb.page.locator('.editor-group-container.active .monaco-editor .view-line');
    const previewLine = (text: string) => previewLines.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s')}$`) });
    await expectVisible('the review in the preview', previewLines.filter({ hasText: /^Review\sof\syour\schanges\son\sbranch/ }));
    // The preview wraps long lines: the heading is matched by its start.
    await expectVisible("the comment's file in the preview", previewLines.filter({ hasText: /^---\sComment\s1\sof\s1:\sdocs\/quickstart\./ }));
    await expectVisible('the quoted line in the preview', previewLine('Install the CLI with npm.'));
    await expectVisible("the writer's words in the preview", previewLine(COMMENT));
    const cost = wb.page.locator('.codelens-decoration a').filter({ hasText: /1 agent request of the project's hour \(\d+ of 100 used, \d+ left\)/ });
    await expectVisible('the cost above the preview', cost);
    // Git's question about fetching in the background would cover the screenshot: closed, if it came.
    const gitQuestion = wb.notification('periodically run');
    if (await gitQuestion.isVisible()) {
      await wb.clickAndExpect({
        what: "Git's question's close button",
        click: gitQuestion.getByRole('button', { name: /^Clear Notification/ }),
        then: { gone: gitQuestion },
        shows: 'the question gone',
      });
    }
    const shot = await wb.screenshot('review-comments-2-preview');
    await wb.clickAndExpect({
      what: 'the cost above the preview (it sends)',
      click: cost,
      then: wb.notification('Follow-up sent to'),
      shows: 'the follow-up sent',
    });
    const posts = sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith(`/job/${jobId}/message`)).slice(before);
    assert.equal(posts.length, 1, 'one request for the review');
    assert.match(
      (posts[0].body as { prompt: string }).prompt,
      /--- Comment 1 of 1: docs\/quickstart\.mdx, line 6 ---\n```\nInstall the CLI with npm\.\n```\nSay which package manager, and why\./,
    );
    await expectVisible('the job active', job().locator('.custom-view-tree-node-item-icon.codicon-sync.codicon-modifier-spin'));
    await expectVisible('the row without comments to send', job().filter({ hasNotText: 'to send' }));
    // The thread is collapsed to its glyph on the line; a click opens it, read-only.
    const glyph = agentSide().locator('.comment-range-glyph.comment-thread, .comment-range-glyph.comment-thread-unresolved');
    const sent = wb.page.locator('.review-widget').filter({ hasText: /Sent to the agent at \d\d:\d\d/ });
    await wb.clickAndExpect({ what: "the collapsed thread's glyph", click: glyph, then: sent, shows: 'the thread marked sent' });
    await expectVisible('the comment in the sent thread', sent.filter({ hasText: COMMENT }));
    assert.equal(await sent.getByRole('button', { name: 'Send Review to Agent' }).count(), 0, 'a sent thread offers no send');
    assert.equal(await sent.getByRole('button', { name: 'Edit Comment' }).count(), 0, 'nor an edit');
    await wb.screenshot('review-comments-2-sent');
    await expectVisible('the job completed', job().locator('.custom-view-tree-node-item-icon.codicon-pass'), TIMEOUTS.poll);
    // The README shows the review being read before it is sent.
    keepForReadme(shot, 'review-comments.png');
  });

  it('a send whose answer is lost: the row says the last send may have arrived while the failure message still waits', async () => {
    const line = agentSide().locator('.view-line').filter({ hasText: 'Run mint dev to preview.' });
    await line.hover({ timeout: TIMEOUTS.ui });
    // The sent thread above is open too: the new thread's box is the one without its comment.
    const box = wb.page
      .locator('.review-widget')
      .filter({ has: wb.page.locator('.comment-form') })
      .filter({ hasNotText: COMMENT });
    await wb.clickAndExpect({
      what: 'the gutter "+" on another line',
      click: agentSide().locator('.comment-range-glyph.line-hover'),
      then: box,
      shows: 'the comment box',
    });
    await box.locator('.comment-form .monaco-editor').click({ timeout: TIMEOUTS.ui });
    await wb.page.keyboard.type(SECOND);
    await wb.clickAndExpect({
      what: 'Add Comment',
      click: box.getByRole('button', { name: 'Add Comment' }),
      then: job().filter({ hasText: '1 comment to send' }),
      shows: '"1 comment to send" on the job\'s row',
    });
    const before = sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith(`/job/${jobId}/message`)).length;
    sim.addFault({ fault: { kind: 'drop' }, times: 1, method: 'POST', pathIncludes: '/message' });
    const thread = wb.page.locator('.review-widget').filter({ hasText: SECOND });
    await wb.clickAndExpect({
      what: 'Send Review to Agent on the new thread',
      click: thread.getByRole('button', { name: 'Send Review to Agent' }),
      then: wb.quickInputTitled(/^Send Review to Agent/),
      shows: "the box for the review's instruction",
    });
    await wb.pressEnterAndWaitForClose();
    const cost = wb.page.locator('.codelens-decoration a').filter({ hasText: /1 agent request of the project's hour/ });
    await wb.clickAndExpect({
      what: 'the cost above the preview (it sends)',
      click: cost,
      then: wb.notification('may have arrived'),
      shows: 'the failure message',
      // It comes after the dropped answer's deadline and one read of the job: a poll's bound, not a click's.
      timeout: TIMEOUTS.poll,
    });
    // The failure message is not answered: the row already says what the writer must know.
    await expectVisible('the row saying the last send may have arrived', job().filter({ hasText: '1 comment to send (the last send lost its answer)' }));
    await wb.screenshot('review-comments-3-lost');
    const posts = sim.requests.filter((r) => r.method === 'POST' && r.rawPath.endsWith(`/job/${jobId}/message`)).length;
    assert.equal(posts, before + 1, 'one try, not repeated');
  });

  it('after a reload while git is still reading the repository, Review Changes draws the pending comment again once git has read it', async () => {
    // The lost send's preview is still open, unsaved: it is let go, with the diff.
    const dontSave = wb.page.locator('.monaco-dialog-box').getByRole('button', { name: "Don't Save" });
    await wb.runCommand('View: Close All Editors', { then: dontSave, shows: 'the question about the unsaved preview', once: true });
    await wb.clickAndExpect({ what: "Don't Save", click: dontSave, then: { gone: wb.editorTabs.first() }, shows: 'no editor open' });
    // The branch as it is now (the sends above added a round): after the reload Review Changes fetches
    // the same round, so the comment's round is no news there, and only what git reads can bring it back.
    const reviewChanges = async (then: Locator, shows: string) =>
      wb.clickAndExpect({ what: 'Review Changes on the job', click: await wb.inlineAction(job(), 'Review Changes'), then, shows });
    const pendingThread = wb.page.locator('.review-widget').filter({ hasText: SECOND });
    await reviewChanges(pendingThread, 'the pending comment in the diff of the latest round');
    // Closed before the reload: what shows afterwards is the diff Review Changes opens, not a tab the reload restored.
    await wb.closeAllEditors();
    // Git opens the repository at once but reads its remotes with its first `git status`, held here
    // until the window has read the pending review back: until then no job is known to be cloned here.
    git.hold();
    try {
      await wb.reloadWindow();
      // Secrets do not survive a reload in this web build (test/host/host.ts).
      await wb.signInToMintlify(DEMO_API_KEY);
      await expectVisible('the pending comment on the row, read back after the reload', job().filter({ hasText: '1 comment to send' }), TIMEOUTS.poll);
    } finally {
      git.release();
    }
    await expectVisible('"review here" once git has read the repository', job().filter({ hasText: 'review here' }), TIMEOUTS.poll);
    await reviewChanges(agentSide().locator('.view-line').filter({ hasText: 'Run mint dev to preview.' }), "the agent's side in the multi-file diff");
    await expectVisible('the pending comment drawn in the diff', pendingThread);
    await wb.screenshot('review-comments-4-after-reload');
  });
});
