// A folder the user has not trusted (Restricted Mode), as a repository is just after cloning: its
// .vscode/settings.json names a project. The key acts on that project only once the user confirms
// it, and the git actions run no git and say why. Runs in its own host (test/run.ts).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestSeam } from '../support/extensionUnderTest';
import type { Simulator } from '../simulator/server';
import { ScriptedUser, requestsTo, seam, signIn, withSimulator } from '../integration/support';
import { RESTRICTED_PROJECT } from './project';

describe('an untrusted folder whose settings name a project', function () {
  this.timeout(60_000);
  let s: TestSeam;
  let sim: Simulator;

  before(async () => {
    // The harness's part (test/run.ts): a folder left untrusted whose own settings name the project.
    assert.equal(vscode.workspace.isTrusted, false, 'the folder is not trusted');
    const inspected = vscode.workspace.getConfiguration('mintlifyAgent', vscode.workspace.workspaceFolders?.[0]?.uri).inspect<string>('projectId');
    assert.equal(inspected?.workspaceValue, RESTRICTED_PROJECT, 'the folder settings name the project');
    assert.equal(inspected?.globalValue, undefined, 'the user settings do not');
    s = await seam();
    sim = await withSimulator();
    await signIn(s);
  });
  after(async () => {
    await vscode.commands.executeCommand('mintlifyAgent.clearApiKey');
    await sim.close();
  });

  it('sends nothing to that project until the user confirms it, then acts on it', async () => {
    const job = sim.addJob(RESTRICTED_PROJECT, { status: 'completed' });
    const user = new ScriptedUser(s.ui);
    try {
      sim.clearRequests();
      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      assert.deepEqual(
        sim.requests.map((r) => `${r.method} ${r.rawPath}`),
        [],
        'no request before the user confirms the project',
      );
      assert.equal(s.jobs.all().length, 0, 'nothing tracked');
      assert.match(user.lastMessage()?.message ?? '', /project/i, 'the user is told a project is missing');

      // Set Project ID shows the folder's project and where it is written; the user says yes.
      const use = `Use “${RESTRICTED_PROJECT}”`;
      user.answerMessage = (shown) => (shown.actions.includes(use) ? use : undefined);
      await vscode.commands.executeCommand('mintlifyAgent.setProjectId');
      const asked = user.messages.find((m) => m.actions.includes(use));
      assert.ok(asked, "the user was asked about the folder's project");
      assert.ok(asked.message.includes(RESTRICTED_PROJECT) && asked.message.includes('.vscode/settings.json'), asked.message);
      assert.equal(sim.requests.length, 0, 'confirming sends nothing by itself');

      user.type(job.id);
      await vscode.commands.executeCommand('mintlifyAgent.trackJob');
      assert.ok(requestsTo(sim, 'GET', `/agent/${RESTRICTED_PROJECT}/job/${job.id}`).length >= 1, 'the job is read from the confirmed project');
      assert.deepEqual(
        sim.requests.filter((r) => !r.rawPath.includes(`/${RESTRICTED_PROJECT}/`)),
        [],
        'and from no other',
      );
      assert.ok(s.jobs.get(job.id), 'and tracked');
    } finally {
      user.restore();
    }
  });

  it('runs no git for Review Changes and says to trust the folder', async () => {
    const [tracked] = s.jobs.all();
    assert.ok(tracked, 'a job is tracked');
    const user = new ScriptedUser(s.ui);
    try {
      await vscode.commands.executeCommand('mintlifyAgent.reviewChanges', tracked.id);
      await vscode.commands.executeCommand('mintlifyAgent.checkOutBranch', tracked.id);
    } finally {
      user.restore();
    }
    assert.equal(user.messages.length, 2);
    for (const shown of user.messages) {
      assert.match(shown.message, /not trusted.*Trust this folder/s, shown.message);
      assert.ok(shown.actions.includes('Manage Workspace Trust'), 'with the button that does it');
    }
  });
});
