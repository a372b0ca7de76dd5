// Readers' feedback on a code block, as a person meets it in the workbench: after Fetch Reader
// Signals, the CodeLens above the block readers flagged; the Problems panel's entry, which a click
// takes to the block; the hover, read as text (the hostile comment shows its markup as characters,
// no image, no link). The README's screenshot is taken here. Clicks and keys only.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../host/codeServer';
import { DEMO_API_KEY } from '../simulator/demo';
import { FLAGGED_PAGE_LINES } from '../simulator/signals';
import { PROJECT, UiSession } from './uiSession';
import { expectVisible, TIMEOUTS, type Workbench } from './workbench';

const PAGE = FLAGGED_PAGE_LINES.join('\n');
const SNIPPET = ['```bash title="deploy.sh"', 'acme deploy --prod', '```', ''].join('\n');

describe('code-block feedback (UI)', function () {
  this.timeout(5 * 60_000);
  let session: UiSession | undefined;
  let wb: Workbench;

  before(async function () {
    this.timeout(8 * 60_000);
    session = await UiSession.start((line) => process.stdout.write(`    ${line}\n`));
    wb = session.workbench;
    const docs = path.join(session.workspaceFolder, 'docs');
    fs.writeFileSync(path.join(docs, 'quickstart.mdx'), PAGE);
    fs.mkdirSync(path.join(docs, 'snippets'), { recursive: true });
    fs.writeFileSync(path.join(docs, 'snippets', 'deploy.mdx'), SNIPPET);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.screenshot('code-feedback-failed').catch(() => undefined);
  });

  after(async () => {
    await session?.stop();
  });

  it('shows the flagged block in Problems (a click lands on it), its CodeLens, and a hover that reads as text', async () => {
    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.setProjectId(PROJECT);
    await wb.goToFile('quickstart.mdx');
    const lens = wb.page.locator('.codelens-decoration').filter({ hasText: '3 readers flagged this block' });
    await wb.runCommand('Mintlify: Fetch Reader Signals', { then: lens, shows: 'the CodeLens above the flagged block' });
    await expectVisible('Ask the Agent to Fix It in the CodeLens', lens.locator('a').filter({ hasText: 'Ask the Agent to Fix It' }));

    const entry = wb.page.locator('.markers-panel .monaco-list-row').filter({ hasText: '3 readers flagged this code block (last 30 days)' });
    await wb.runCommand('View: Toggle Problems', { then: entry, shows: 'the Readers entry in the Problems panel' });
    await expectVisible(
      'the entry about the block no longer on the page',
      wb.page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'is about a code block that is no longer on this page' }),
    );
    // Somewhere else first, so that landing on the block is the click's doing.
    await wb.page.locator('.monaco-editor .view-line').filter({ hasText: 'Get started in five minutes.' }).click({ timeout: TIMEOUTS.ui });
    // The entry's range is the block, fence to fence (lines 10-13): the click selects it.
    const cursor = wb.page.locator('.statusbar-item').filter({ hasText: /^Ln 13, Col \d+ \(\d+ selected\)$/ });
    await wb.clickAndExpect({ what: 'the Problems entry', click: entry, then: cursor, shows: 'the block selected, up to its closing fence (line 13)' });

    await wb.clearNotifications();
    const hover = wb.hover.filter({ hasText: 'Readers’ feedback on this code block' });
    // Over the line's text (a line's element spans the editor's width; past the text there is no hover).
    await wb.page
      .locator('.monaco-editor .view-line')
      .filter({ hasText: 'npm i -g acme' })
      .hover({ position: { x: 60, y: 8 }, timeout: TIMEOUTS.ui });
    await expectVisible('the hover on the block', hover);
    const text = await hover.innerText();
    assert.ok(text.includes('Fails on Windows with EACCES.'), text);
    assert.ok(
      text.includes('``` <img src=x onerror=alert(1)> **bold** [run](command:workbench.action.terminal.new) \\u202eswodniW no sliaf'),
      `the hostile comment as its characters: ${text}`,
    );
    assert.match(text, /\d{4}-\d\d-\d\d · pending · from a reader/);
    assert.equal(
      await hover.locator('img, a[href^="command:"], strong:text("bold")').count(),
      0,
      'no image, command link or emphasis rendered from reader text',
    );
    const shot = await wb.screenshot('code-feedback-hover');
    // The README shows the block with its CodeLens, hover and Problems entry.
    fs.copyFileSync(shot, path.join(findRepoRoot(__dirname), 'media', 'screenshots', 'code-feedback.png'));
  });
});
