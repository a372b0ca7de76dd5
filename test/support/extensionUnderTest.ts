// The extension as the host tests and the bench load it: the released code (src/extension.ts's
// load()), and one difference, which production never has: activate() returns the extension's
// parts, so a test or a benchmark in the same extension host can read them. esbuild.mjs --tests
// bundles this into out/test/extension/ (bench/build.mjs, minified, into out/bench/extension/),
// beside a copy of the manifest; dist/extension.js, which ships, returns nothing.
import type * as vscode from 'vscode';
import type { RequestLogEntry } from '../../src/api';
import { deactivate, load, type Parts } from '../../src/extension';

/** What activate() returns here: the parts, each read building the extension as a command would. */
export interface TestSeam extends Parts {
  /** Every call of the API client in this session (the last 1,000), sent or stopped before sending. */
  readonly requests: readonly RequestLogEntry[];
}

export function activate(context: vscode.ExtensionContext): TestSeam {
  const requests: RequestLogEntry[] = [];
  const extension = load(context, (entry) => {
    if (requests.push(entry) > 1_000) requests.shift();
  });
  const seam: Partial<TestSeam> = { requests };
  // Every part, checked by the compiler: a part added to Parts and not here does not build.
  const parts = {
    ui: true,
    jobs: true,
    tracker: true,
    statusBar: true,
    tree: true,
    sync: true,
    gate: true,
    analytics: true,
    readers: true,
    signals: true,
    codeFeedback: true,
    reviewComments: true,
    preview: true,
    search: true,
    tools: true,
    startMs: true,
  } satisfies Record<keyof Parts, true>;
  for (const key of Object.keys(parts) as (keyof Parts)[]) Object.defineProperty(seam, key, { get: () => extension.get()[key], enumerable: true });
  return seam as TestSeam;
}

export { deactivate };
