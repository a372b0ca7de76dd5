// Figure 8, drawing the Reader Signals view on the large site (10,000 pages, 2,000 feedback items,
// 5,000 search terms, 20,000 assistant turns, as bench/signals.ts builds it): runs inside VS Code's
// extension host, since the tree's rows are VS Code's own TreeItems. A simulator with the large
// data set is started here, its snapshot fetched once through the real SignalsStore and ApiClient,
// and the real SignalsTreeProvider (with the window's job store and signal links) draws the root and
// the three groups' rows, as VS Code asks when each group is open: getChildren, then getTreeItem
// for every row. Each draw follows refresh(), as after a new snapshot, a link or a linked job's
// change, so the inbox, the setting and the links are read afresh each time.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createApiClient } from '../../src/api';
import type { TestSeam } from '../../test/support/extensionUnderTest';
import { createLogger } from '../../src/log';
import { SignalsStore } from '../../src/signals/signalsStore';
import { SignalsTreeProvider } from '../../src/signals/signalsTree';
import { startSimulator } from '../../test/simulator/server';
import { LARGE_SIGNALS } from '../../test/simulator/signals';
import type { SignalsDrawTiming } from './protocol';
import { unlimited } from '../../test/support/grants';

const PROJECT = 'bench-signals-large';
const API_KEY = 'mint_bench_key';
/** Pages hovered for the tooltip figure. */
const HOVERS = 20;

export async function measureSignalsDraw(seam: TestSeam, draws: number): Promise<SignalsDrawTiming> {
  const sim = await startSimulator({ projects: [PROJECT], analyticsLimitPerHour: 10_000, pathCount: 10_000, signals: LARGE_SIGNALS });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mintlify-signals-draw-'));
  const channel = vscode.window.createOutputChannel('Mintlify bench: signals draw', { log: true });
  const store = new SignalsStore({
    api: createApiClient({ baseUrl: () => sim.url, getApiKey: async () => API_KEY }),
    projectId: () => PROJECT,
    storageDir: vscode.Uri.file(scratch),
    gate: seam.gate,
    windowShare: () => 60,
    log: createLogger(channel),
  });
  const tree = new SignalsTreeProvider(store, seam.jobs, seam.signals.links, { rankByAiShare: () => false, projectId: () => PROJECT });
  try {
    if ((await store.refresh({ grant: unlimited })).kind !== 'fetched') throw new Error('the large signals snapshot was not fetched');
    const drawMs: number[] = [];
    let rows = 0;
    for (let i = 0; i < draws; i++) {
      tree.refresh();
      const started = performance.now();
      rows = 0;
      for (const group of tree.getChildren()) {
        tree.getTreeItem(group);
        for (const node of tree.getChildren(group)) {
          tree.getTreeItem(node);
          rows++;
        }
      }
      drawMs.push(performance.now() - started);
    }
    const pages = tree.getChildren(tree.getChildren()[0]).slice(0, HOVERS);
    const hoverMs = pages.map((node) => {
      const item = tree.getTreeItem(node);
      const started = performance.now();
      tree.resolveTreeItem(item, node);
      return performance.now() - started;
    });
    return { drawMs, rows, hoverMs };
  } finally {
    tree.dispose();
    store.dispose();
    channel.dispose();
    await sim.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
