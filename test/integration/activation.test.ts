import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, seam } from './support';

describe('activation', () => {
  it('activates without a single network request and registers every contributed command', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const { requests } = await seam();
    assert.deepEqual(requests, [], 'no request since activation');
    const contributed = (extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const command of contributed) assert.ok(registered.has(command), `${command} is registered`);
    // And the other way: every command the code registers is declared, so none is unreachable from
    // the palette and keybindings by accident (views' own `mintlifyAgent.<view>.focus` excluded).
    const undeclared = [...registered].filter((c) => /^mintlifyAgent\.[^.]+$/.test(c) && !contributed.includes(c));
    assert.deepEqual(undeclared, [], 'registered but not in package.json');
  });
});
