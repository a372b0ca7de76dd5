// Figure 6: Review Changes on a branch of 50 changed files, timed from the click on the tree's
// Review Changes button to the multi-file diff on screen with its first file's text rendered, in a
// real VS Code (code-server + headless Chromium, driven by Playwright as the UI tier does). The
// workspace is a clone of a bare repository on disk (test/support/gitRepo.ts), so git is real:
// every click fetches the branch, finds the merge base and lists the changes again.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCodeServer } from '../test/host/codeServer';
import type { Host } from '../test/host/host';
import { DEMO_API_KEY } from '../test/simulator/demo';
import { startSimulator } from '../test/simulator/server';
import { makeTestRepository, pushBranch, writeFile } from '../test/support/gitRepo';
import { expectVisible, TIMEOUTS, Workbench } from '../test/ui/workbench';
import { startBenchHost } from './benchHost';
import { BENCH_PROJECT } from './host/protocol';
import { spread, type Spread } from './stats';

export const REVIEW_FILES = 50;
const BRANCH = 'mintlify/agent-fifty-files';

export interface ReviewResult {
  /** The first click (git's first fetch of the branch, the diff editor's first use). */
  firstMs: number;
  /** The clicks after it. */
  later: Spread;
}

/** 47 new pages, one changed, one renamed, one deleted: 50 files, each kind the review shows. */
function fiftyChanges(clone: string): void {
  for (let i = 1; i <= REVIEW_FILES - 3; i++) {
    const body = Array.from({ length: 40 }, (_, line) => `Paragraph ${line + 1} of generated page ${i}.`).join('\n\n');
    writeFile(clone, `docs/generated/page-${String(i).padStart(2, '0')}.mdx`, `---\ntitle: Page ${i}\n---\n\n${body}\n`);
  }
  fs.appendFileSync(path.join(clone, 'docs', 'quickstart.mdx'), '\nOne more line.\n');
  fs.renameSync(path.join(clone, 'docs', 'guides', 'webhooks.md'), path.join(clone, 'docs', 'guides', 'webhook-events.md'));
  fs.rmSync(path.join(clone, 'docs', 'snippets', 'beta-note.mdx'));
}

export async function measureReview(opts: { repoRoot: string; runs: number; log: (s: string) => void }): Promise<ReviewResult> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-bench-review-'));
  const artifacts = path.join(opts.repoRoot, 'artifacts', 'bench');
  fs.mkdirSync(artifacts, { recursive: true });
  const transcript = (line: string) => fs.appendFileSync(path.join(artifacts, 'review.log'), `${line}\n`);
  const workspace = path.join(scratch, 'docs-site');
  const repo = makeTestRepository(path.join(opts.repoRoot, 'test', 'fixtures', 'workspace'), workspace);
  pushBranch(repo, BRANCH, fiftyChanges);
  const sim = await startSimulator({ projects: [BENCH_PROJECT] });
  const job = sim.addJob(BENCH_PROJECT, { status: 'completed', prompt: 'Generate fifty pages', source: { repository: repo.url, ref: BRANCH } });
  let host: Host | undefined;
  try {
    const serverMain = await ensureCodeServer(opts.log, { repoRoot: opts.repoRoot });
    host = await startBenchHost({ repoRoot: opts.repoRoot, workspaceFolder: workspace, apiBaseUrl: sim.url, projectId: BENCH_PROJECT, serverMain, transcript });
    await host.page.setViewportSize({ width: 1280, height: 800 });
    const wb = new Workbench(host.page, artifacts);
    await wb.openFromActivityBar('Mintlify');
    await wb.resizeSidebar(480);
    await wb.runCommandForBox('Mintlify: Set API Key', 'Mintlify: Set API Key');
    await wb.typeInto('Mintlify: Set API Key', DEMO_API_KEY);
    await wb.pressEnterAndWaitForClose();
    await wb.trackJob(job.id);
    const row = wb.treeRows('Agent Jobs').filter({ hasText: 'review here' });
    await expectVisible('the job, reviewable here', row);
    const times: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      await wb.closeAllEditors();
      const button = await wb.inlineAction(row, 'Review Changes');
      const started = performance.now();
      await button.click({ timeout: TIMEOUTS.ui });
      // On screen: the tab says 50 files and the first file's diff shows its text.
      await wb.page
        .locator('.tab')
        .filter({ hasText: `(${REVIEW_FILES} files)` })
        .waitFor({ timeout: TIMEOUTS.ui });
      await wb.page.locator('.multiDiffEditor .multiDiffEntry .view-line').first().waitFor({ timeout: TIMEOUTS.ui });
      times.push(performance.now() - started);
    }
    await wb.screenshot('review-50-files');
    return { firstMs: times[0] ?? Number.NaN, later: spread(times.slice(1).length ? times.slice(1) : times) };
  } finally {
    await host?.stop();
    await sim.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(path.dirname(repo.bare), { recursive: true, force: true });
  }
}
