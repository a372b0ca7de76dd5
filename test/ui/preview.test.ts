// See what readers will see, as a person does it in the workbench: Review Changes on the job, Preview
// Branch from the diff's title (said first, one click deploys), "preview ready" on the job's row, then
// Open Rendered Page from the same title, the changed page picked, and the preview's page beside its
// diff in the Simple Browser. Clicks and keys only. The README shows the last screen.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../host/codeServer';
import { DEMO_API_KEY } from '../simulator/demo';
import type { Simulator } from '../simulator/server';
import { git, pushBranch, writeFile } from '../support/gitRepo';
import { PROJECT, stepsBuildOnEachOther, UiSession, screenshotOnFailure } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

const BRANCH = 'mintlify/agent-ui-preview';

describe("the agent's branch as a preview, its page beside the diff (UI)", function () {
  this.timeout(5 * 60_000);
  let session: UiSession | undefined;
  let sim: Simulator;
  let wb: Workbench;
  let jobId = '';
  stepsBuildOnEachOther();

  before(async function () {
    this.timeout(8 * 60_000);
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`));
    sim = session.sim;
    wb = session.workbench;
    const repository = session.repository!;
    pushBranch(repository, BRANCH, (clone) =>
      writeFile(
        clone,
        'docs/quickstart.mdx',
        '---\ntitle: Quickstart\n---\n\nGet started in five minutes: install the CLI, then preview your docs locally.\n\n<Note>Install the CLI first.</Note>\n',
      ),
    );
    jobId = sim.addJob(PROJECT, { status: 'completed', prompt: 'Tidy the quickstart', source: { repository: repository.url, ref: BRANCH } }).id;
    sim.previews.setOutcome(BRANCH, { status: 'success', files: { added: [], modified: ['docs/quickstart.mdx'], removed: [] } });
    // The platform builds the branch's tip: the commit Review Changes will show (else the row would say the preview is older).
    sim.previews.setCommit(BRANCH, git(process.cwd(), 'ls-remote', repository.url, `refs/heads/${BRANCH}`).split(/\s/)[0]);
  });

  screenshotOnFailure('preview', () => wb);

  after(async () => {
    await session?.stop();
  });

  const job = () => wb.treeRows('Agent Jobs').first();
  const multiDiff = () => wb.page.locator('.multiDiffEditor');
  const titleAction = (label: string) => wb.page.locator('.editor-actions').getByRole('button', { name: label, exact: true }).first();

  it("deploys the branch from Review Changes' title after saying what it does, and the row says when it is ready", async () => {
    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.resizeSidebar(520);
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
    const asked = wb.notification(/Preview Branch deploys the agent’s branch “mintlify\/agent-ui-preview” as a preview/);
    await wb.clickAndExpect({
      what: "Preview Branch in the diff's title",
      click: titleAction('Preview Branch'),
      then: asked,
      shows: 'what Preview Branch does, before it does it',
    });
    await wb.screenshot('preview-1-asked');
    assert.equal(sim.requests.filter((r) => r.rawPath.startsWith('/v1/project/')).length, 0, 'nothing sent before the click');
    await wb.clickAndExpect({
      what: 'Deploy Preview',
      click: asked.getByRole('button', { name: 'Deploy Preview' }),
      then: { gone: asked },
      shows: 'the question answered',
    });
    await expectVisible('"preview ready" on the job', job().filter({ hasText: 'preview ready' }), TIMEOUTS.poll);
    assert.equal(sim.requests.filter((r) => r.method === 'POST' && r.rawPath === `/v1/project/preview/${PROJECT}`).length, 1, 'one click, one deployment');
  });

  it('opens the changed page of the preview beside its diff from the same title', async () => {
    await wb.clearNotifications();
    await wb.clickAndExpect({
      what: "Open Rendered Page in the diff's title",
      click: titleAction('Open Rendered Page'),
      then: wb.quickInputTitled('Open Rendered Page'),
      shows: 'the changed pages to pick from',
    });
    await wb.pickItem('Open Rendered Page', '/quickstart');
    // The Simple Browser is a webview (VS Code's frame, then its active frame) holding the page's own frame.
    const page = wb.page.frameLocator('iframe.webview').frameLocator('#active-frame').frameLocator('iframe');
    await expectVisible("the rendered page's heading", page.locator('h1', { hasText: 'Quickstart' }));
    await expectVisible('the diff still on screen, beside the page', multiDiff());
    assert.equal(await wb.page.locator('.editor-group-container').count(), 2, "the page opened in a group beside the diff's");
    assert.ok(
      sim.previews.siteRequests.every((r) => r.authorization === undefined),
      'nothing of ours reached the preview',
    );
    await wb.clearNotifications();
    // The editors get the room for the README's picture: the diff and the page side by side.
    await wb.resizeSidebar(240);
    const shot = await wb.screenshot('preview-2-rendered-page');
    fs.copyFileSync(shot, path.join(findRepoRoot(__dirname), 'media', 'screenshots', 'preview-rendered-page.png'));
  });
});
