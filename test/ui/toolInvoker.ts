/**
 * The UI tier's stand-in for a chat: the harness extension test/fixtures/lm-tool-invoker, installed
 * beside ours, whose "Test Harness: Invoke a Language Model Tool" calls vscode.lm.invokeTool as agent
 * mode does. Its answers, whole, and its requests go through files in its global storage on the server.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot } from '../host/codeServer';
import { waitFor } from '../support/waitFor';
import { TIMEOUTS, type Workbench } from './workbench';

/** The harness's folder: pass it to UiSession.start among the extra extensions. */
export const TOOL_INVOKER = path.join(findRepoRoot(__dirname), 'test', 'fixtures', 'lm-tool-invoker');

export class ToolInvoker {
  constructor(
    private readonly workbench: () => Workbench,
    /** The server's --user-data-dir (UiSession.userDataDir). */
    private readonly userDataDir: () => string,
  ) {}

  /** A file of the harness's global storage on the server. */
  file(name: string): string {
    return path.join(this.userDataDir(), 'User', 'globalStorage', 'mintlify-agent-analytics-tests.lm-tool-invoker', name);
  }

  /** The chat's stand-in: the tool and its input, as agent mode would call it. */
  async invoke(tool: string, input: object): Promise<void> {
    const wb = this.workbench();
    fs.rmSync(this.file('last-result.txt'), { force: true });
    await wb.runCommandForBox('Test Harness: Invoke a Language Model Tool', 'Tool');
    // Filtered first: with a chat extension installed (today's VS Code has Copilot's) the list is long, and only its top is drawn.
    await wb.typeInto('Tool', tool);
    await wb.pickItem('Tool', tool);
    await wb.typeInto('Tool input (JSON)', JSON.stringify(input));
    await wb.pressEnterAndWaitForClose();
  }

  /** The whole answer the harness got (a notification shows at most 1,000 characters of it): `Tool result: …` or `Tool not run: …`. */
  async answer(): Promise<string> {
    const file = this.file('last-result.txt');
    await waitFor(
      () => `the harness's answer in ${file}`,
      () => fs.existsSync(file),
      TIMEOUTS.poll,
    );
    return fs.readFileSync(file, 'utf8');
  }
}
