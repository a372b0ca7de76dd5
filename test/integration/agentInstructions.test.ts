// What the agent reads, from Agent Jobs, in the real editor: .mintlify/AGENTS.md under the docs root
// (the fixture's `docs/`, holding docs.json) opened, or created at that private path after a yes;
// and a docs root's AGENTS.md, which the site publishes at /agents.md, warned about once.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import { ScriptedUser, seam, waitFor } from './support';

describe('the agent’s instructions (.mintlify/AGENTS.md) from Agent Jobs', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let user: ScriptedUser;
  let docsRoot: vscode.Uri;
  const OPEN = 'mintlifyAgent.openAgentInstructions';
  const remove = (uri: vscode.Uri) => vscode.workspace.fs.delete(uri, { recursive: true }).then(undefined, () => undefined);

  before(async () => {
    s = await seam();
    docsRoot = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'docs');
  });
  beforeEach(() => (user = new ScriptedUser(s.ui)));
  afterEach(async () => {
    user.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The workspace is a git clone the other suites expect clean.
    await remove(vscode.Uri.joinPath(docsRoot, '.mintlify'));
    await remove(vscode.Uri.joinPath(docsRoot, 'AGENTS.md'));
    await remove(vscode.Uri.joinPath(docsRoot, 'CLAUDE.md'));
  });

  it('with none yet, says what the agent reads (not CLAUDE.md) and creates it at the private path after a yes, then opens it', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(docsRoot, 'CLAUDE.md'), new TextEncoder().encode('# For another agent\n'));
    user.answerMessage = () => undefined; // No
    await vscode.commands.executeCommand(OPEN);
    const asked = user.lastMessage()!;
    assert.match(
      asked.message,
      /^The agent reads \.mintlify\/AGENTS\.md in your docs repository for every job \(from the dashboard, Slack or the API\)\. This repository has none yet\. It does not read CLAUDE\.md, which this repository has\.$/,
    );
    assert.deepEqual(asked.actions, ['Create .mintlify/AGENTS.md']);
    const file = vscode.Uri.joinPath(docsRoot, '.mintlify', 'AGENTS.md');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(file)), 'No: nothing created');

    user.answerMessage = (m) => m.actions[0];
    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>(OPEN);
    assert.equal(opened?.toString(), file.toString());
    assert.match(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(file)),
      /^# Instructions for the Mintlify agent\n\nThe agent reads this file for every job/,
    );
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.toString(), 'open in the editor');
  });

  it('opens the existing file as it is, asking nothing', async () => {
    const file = vscode.Uri.joinPath(docsRoot, '.mintlify', 'AGENTS.md');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(docsRoot, '.mintlify'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('Use sentence case in headings.\n'));
    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>(OPEN);
    assert.deepEqual(user.messages, []);
    assert.equal(opened?.toString(), file.toString());
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.toString());
    // The editor may still hold the last test's text of this path a moment, until it sees the file changed.
    await waitFor('the file’s own text in the editor', () => vscode.window.activeTextEditor?.document.getText() === 'Use sentence case in headings.\n');
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), 'Use sentence case in headings.\n', 'left as it was');
  });

  it('warns once that an AGENTS.md at the docs root is public at /agents.md', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(docsRoot, 'AGENTS.md'), new TextEncoder().encode('Internal: our roadmap…\n'));
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(docsRoot, '.mintlify'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(docsRoot, '.mintlify', 'AGENTS.md'), new TextEncoder().encode('Private.\n'));
    await vscode.commands.executeCommand(OPEN);
    await vscode.commands.executeCommand(OPEN);
    const warnings = user.messages.filter((m) => m.level === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(user.messages));
    assert.match(
      warnings[0].message,
      /^The AGENTS\.md at the root of your docs is published with the site at \/agents\.md: anyone can read it\. The Mintlify agent reads \.mintlify\/AGENTS\.md, which is not published\./,
    );
  });
});
