// Figure 3b, inside VS Code: the time for a change made in one window to show in another, in the
// real workbench (code-server + headless Chromium, two pages of one browser context, each with its
// own extension host). A tracks a job from the command palette; the time is from A's status bar
// counting it to B's status bar counting it, both seen by a MutationObserver in each page on the
// one machine clock. That covers A's write of its store file, VS Code's file watcher (or the 1 s
// fallback read) in B's extension host, B's merge, and B's status bar reaching B's page.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ensureCodeServer } from '../test/host/codeServer';
import type { Host } from '../test/host/host';
import { DEMO_API_KEY } from '../test/simulator/demo';
import { DEFAULT_PROJECT, startSimulator } from '../test/simulator/server';
import { Workbench } from '../test/ui/workbench';
import { startBenchHost } from './benchHost';
import { median } from './stats';
import type { WindowsResult } from './windows';

export type InVsCodePropagation = WindowsResult['propagation'];

/** How long one change may take to show before the run gives up (a bound, not a figure). */
const SHOW_BOUND_MS = 30_000;

/** Resolves with Date.now() in the page once its status bar counts `count` running agent jobs. */
function whenStatusCounts(page: Page, count: number): Promise<number> {
  return page.evaluate(
    ([wanted, bound]) =>
      new Promise<number>((resolve, reject) => {
        const pattern = new RegExp(`(^|\\D)${wanted} agent jobs? active`);
        const shown = () => [...document.querySelectorAll('.statusbar-item')].some((item) => pattern.test(item.textContent ?? ''));
        if (shown()) return resolve(Date.now());
        const timer = setTimeout(() => (observer.disconnect(), reject(new Error(`${wanted} agent jobs active: not shown within ${bound} ms`))), bound);
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          clearTimeout(timer);
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    [count, SHOW_BOUND_MS] as const,
  );
}

export async function measurePropagationInVsCode(opts: { repoRoot: string; changes: number; log: (line: string) => void }): Promise<InVsCodePropagation> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-bench-windows-'));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  const transcript = path.join(opts.repoRoot, 'artifacts', 'bench', 'windows-host.log');
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, `bench windows in VS Code, ${new Date().toISOString()}\n`);
  const log = (line: string) => fs.appendFileSync(transcript, `${line}\n`);
  const sim = await startSimulator({ projects: [DEFAULT_PROJECT] });
  let host: Host | undefined;
  try {
    const serverMain = await ensureCodeServer(opts.log, { repoRoot: opts.repoRoot });
    host = await startBenchHost({
      repoRoot: opts.repoRoot,
      workspaceFolder: workspace,
      apiBaseUrl: sim.url,
      projectId: DEFAULT_PROJECT,
      serverMain,
      transcript: log,
    });
    const a = new Workbench(host.page, scratch);
    await a.signInToMintlify(DEMO_API_KEY);
    const b = await a.openWindow(host.url);
    await b.signInToMintlify(DEMO_API_KEY);
    const times: number[] = [];
    for (let i = 1; i <= opts.changes; i++) {
      // Active for the whole run, so the count only grows.
      const id = sim.addJob(DEFAULT_PROJECT, { prompt: `Propagation ${i}`, activeForMs: 60 * 60_000 }).id;
      const inA = whenStatusCounts(a.page, i);
      const inB = whenStatusCounts(b.page, i);
      await a.trackJob(id);
      const [shownInA, shownInB] = await Promise.all([inA, inB]);
      times.push(Math.max(0, shownInB - shownInA));
    }
    return { medianMs: median(times), maxMs: Math.max(...times), changes: times.length };
  } finally {
    await host?.stop();
    await sim.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
