// The VS Code every in-host benchmark drives: code-server with the bench build of the extension
// (out/bench/extension), pointed at a simulator and a project, its output in the bench's transcript.
import * as path from 'node:path';
import { startHost, type Host } from '../test/host/host';

export function startBenchHost(opts: {
  repoRoot: string;
  workspaceFolder: string;
  apiBaseUrl: string;
  projectId: string;
  serverMain: string;
  transcript: (line: string) => void;
  /** The host-side entry that measures and reports (bench/host/entry.ts), if any. */
  extensionTestsPath?: string;
  env?: Record<string, string>;
}): Promise<Host> {
  return startHost({
    workspaceFolder: opts.workspaceFolder,
    extensionDevelopmentPath: path.join(opts.repoRoot, 'out', 'bench', 'extension'),
    extensionTestsPath: opts.extensionTestsPath,
    env: opts.env,
    userSettings: { 'mintlifyAgent.apiBaseUrl': opts.apiBaseUrl, 'mintlifyAgent.projectId': opts.projectId },
    serverMain: opts.serverMain,
    log: opts.transcript,
  });
}
