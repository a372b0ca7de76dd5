// Activation sends nothing, even with everything a request needs in place: a key and a project set,
// and the time past the job tracker's first look at unfinished jobs (its first chance to poll).
// Requests are counted where they would show: the extension's own request log (tries stopped before
// sending included) and the simulator.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, leaveWindowClean, PROJECT, seam, setProject, signIn, waitFor, withSimulator } from './support';

/** src/jobs/jobTracker.ts's STARTUP_DELAY_MS: the tracker's first look at unfinished jobs comes this long after start(). */
const FIRST_POLL_DELAY_MS = 1_000;

describe('activation', () => {
  it("with a key and a project set, sends no request, also past the first poll's delay", async function () {
    this.timeout(60_000);
    const sim = await withSimulator();
    // The project is set before the extension is built where the order allows (the entry usually runs before onStartupFinished).
    await setProject(PROJECT);
    const s = await seam();
    try {
      await signIn(s);
      await s.sync.ready;
      // Absence needs a window: this one ends past the first poll's delay counted from now, when the key is already there.
      const past = Date.now() + 2 * FIRST_POLL_DELAY_MS;
      await waitFor("the first poll's delay to pass with a key and a project set", () => Date.now() >= past);
      assert.deepEqual(
        s.requests.map((r) => `${r.method} ${r.path}`),
        [],
        'the extension tried no request',
      );
      assert.deepEqual(
        sim.requests.map((r) => `${r.method} ${r.rawPath}`),
        [],
        'no request reached the API',
      );
    } finally {
      await leaveWindowClean(s);
      await sim.close();
    }
  });

  it('registers every contributed command, and only those', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await seam();
    const contributed = (extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const command of contributed) assert.ok(registered.has(command), `${command} is registered`);
    // And the other way: every command the code registers is declared, so none is unreachable from
    // the palette and keybindings by accident (views' own `mintlifyAgent.<view>.focus` excluded).
    const undeclared = [...registered].filter((c) => /^mintlifyAgent\.[^.]+$/.test(c) && !contributed.includes(c));
    assert.deepEqual(undeclared, [], 'registered but not in package.json');
  });
});
