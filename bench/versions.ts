// Figure 1b: the engine floor and today's VS Code side by side, in one run. The same steps in each,
// driven from outside as a person would (today's web workbench ignores a development extension, so
// the in-host entry of figure 1 cannot run there): the release build made by `npm run package`,
// installed from the .vsix in VS Code 1.139 (code-server 4.139.1) and loaded from the checkout,
// whose dist/ that packaging has just rebuilt, in VS Code 1.100 (code-server 4.100.3).
// - activation: VS Code's own figure in Developer: Show Running Extensions (code loading + the
//   activate() call, from the extension host's marks), read from the row of the extension;
// - page → figure: Go to File on a docs page, from the editor's tab on screen to the readers figure
//   in the status bar; cold (the first page: the range fetched from the simulator) and warm (a
//   second page: the kept snapshot).
import { packageExtension } from '../test/host/vsix';
import { FLOOR_RELEASE, findRepoRoot, TODAY_RELEASE, type CodeServerRelease } from '../test/host/codeServer';
import { DEMO_API_KEY } from '../test/simulator/demo';
import { INSTALLED_EXTENSION_ENV, PROJECT, UiSession } from '../test/ui/uiSession';
import { TIMEOUTS } from '../test/ui/workbench';
import { formatSpread, spread, type Spread } from './stats';

/** Its row: the display name, or its id (1.100 names a development extension by its id). */
const ROW_NAME = /Mintlify Agent & Analytics|mintlify-agent-analytics\.mintlify-agent-analytics/;
const COLD_PAGE = 'docs/quickstart.mdx';
const WARM_PAGE = 'docs/guides/webhooks.md';

export interface VersionFigures {
  release: CodeServerRelease;
  /** VS Code's "Activation: N ms" (code loading + activate()), one per start. */
  activation: Spread;
  cold: Spread | undefined;
  warm: Spread | undefined;
  /** What the status bar said instead of the figure, when it did not come. */
  notShown: string[];
}

export async function measureVersions(opts: { starts: number; log: (line: string) => void }): Promise<VersionFigures[]> {
  const repoRoot = findRepoRoot(__dirname);
  const packaged = await packageExtension(repoRoot, opts.log);
  try {
    const results: VersionFigures[] = [];
    for (const [release, installed] of [
      [FLOOR_RELEASE, undefined],
      [TODAY_RELEASE, packaged.folder],
    ] as const) {
      if (installed) process.env[INSTALLED_EXTENSION_ENV] = installed;
      else delete process.env[INSTALLED_EXTENSION_ENV];
      const activation: number[] = [];
      const cold: number[] = [];
      const warm: number[] = [];
      const notShown: string[] = [];
      for (let i = 1; i <= opts.starts; i++) {
        opts.log(`  VS Code ${release.vscode}: start ${i}/${opts.starts}…`);
        const one = await oneStart(opts.log);
        activation.push(one.activationMs);
        for (const [figure, into] of [
          [one.coldMs, cold],
          [one.warmMs, warm],
        ] as const)
          if (typeof figure === 'number') into.push(figure);
          else notShown.push(figure);
      }
      results.push({
        release,
        activation: spread(activation),
        cold: cold.length ? spread(cold) : undefined,
        warm: warm.length ? spread(warm) : undefined,
        notShown,
      });
    }
    return results;
  } finally {
    delete process.env[INSTALLED_EXTENSION_ENV];
    packaged.dispose();
  }
}

async function oneStart(log: (line: string) => void): Promise<{ activationMs: number; coldMs: number | string; warmMs: number | string }> {
  const session = await UiSession.start(log);
  try {
    const wb = session.workbench;
    // VS Code's own figure for the extension, in its Running Extensions editor.
    const row = wb.page.locator('.monaco-list-row').filter({ hasText: ROW_NAME });
    await wb.runCommand('Developer: Show Running Extensions', { then: row, shows: 'the extension in Running Extensions' }).catch(async (error: unknown) => {
      log(`screenshot: ${await wb.screenshot('bench-running-extensions')}`);
      throw error;
    });
    const text = await row.locator('text=/Activation: \\d+ms/').first().textContent({ timeout: TIMEOUTS.ui });
    const activationMs = Number(/Activation: (\d+)ms/.exec(text ?? '')?.[1]);
    if (!Number.isFinite(activationMs)) throw new Error(`no activation time in the Running Extensions row: ${text}`);
    await wb.closeAllEditors();

    await wb.signInToMintlify(DEMO_API_KEY);
    await wb.setProjectId(PROJECT);
    const readersItem = wb.page.locator('.part.statusbar .statusbar-item').filter({ hasText: /readers/ });
    /** ms from the tab to the figure; the status bar's words instead when the figure did not come. */
    const pageToFigure = async (file: string): Promise<number | string> => {
      await wb.goToFile(file);
      const name = file.split('/').pop() ?? file;
      await wb.editorTabs.filter({ hasText: name }).first().waitFor({ state: 'visible', timeout: TIMEOUTS.ui });
      const shown = await wb.page.evaluate(() => performance.now());
      const figure = wb.page.locator('.part.statusbar .statusbar-item').filter({ hasText: /readers · \d+% AI/ });
      const came = await figure
        .first()
        .waitFor({ state: 'visible', timeout: TIMEOUTS.poll })
        .then(() => true)
        .catch(() => false);
      if (came) return (await wb.page.evaluate(() => performance.now())) - shown;
      const words = (
        (await readersItem
          .first()
          .textContent({ timeout: TIMEOUTS.ui })
          .catch(() => '')) ?? ''
      ).trim();
      log(`no readers figure for ${file}; the status bar says "${words}"; screenshot: ${await wb.screenshot(`bench-no-figure-${name}`)}`);
      return words || 'no readers item';
    };
    const coldMs = await pageToFigure(COLD_PAGE);
    const warmMs = await pageToFigure(WARM_PAGE);
    return { activationMs, coldMs, warmMs };
  } finally {
    await session.stop();
  }
}

/** The summary lines: one per figure, the two versions side by side. */
export function versionLines(results: readonly VersionFigures[]): { figure: string; value: string }[] {
  const side = (pick: (r: VersionFigures) => Spread | undefined, unit: string, digits: number) =>
    results
      .map((r) => {
        const figures = pick(r);
        return `${r.release.vscode}: ${figures ? formatSpread(figures, unit, digits) : `not shown (the status bar said "${r.notShown[0] ?? '?'}")`}`;
      })
      .join(' · ');
  return [
    { figure: "activation, VS Code's own figure (Running Extensions: code loading + activate())", value: side((r) => r.activation, 'ms', 0) },
    { figure: 'opening a page → its readers figure, cold (the range fetched)', value: side((r) => r.cold, 'ms', 0) },
    { figure: 'opening a page → its readers figure, warm (kept snapshot)', value: side((r) => r.warm, 'ms', 0) },
  ];
}

/** Its section in BENCHMARKS.md: how it was measured and how to reproduce it. */
export function versionsSection(results: readonly VersionFigures[] | undefined): string {
  if (!results?.length) return '';
  return `## 1b. VS Code 1.100 and today's VS Code, side by side

${results.map((r) => `VS Code ${r.release.vscode} (code-server ${r.release.codeServer})`).join(' and ')}, each started fresh
${results[0]?.activation.n ?? 0} times in one run (bench/versions.ts), the same steps in each, driven from the page as a person would: today's
web workbench ignores a development extension, so figure 1's in-host entry cannot run there. The release build
\`npm run package\` makes is installed from its .vsix in today's VS Code and loaded from the checkout (whose dist/ that
packaging has just rebuilt) in 1.100. **Activation** is VS Code's own figure in Developer: Show Running Extensions (code
loading + the \`activate()\` call). **Page → figure**: Go to File on a docs page, from its editor tab on screen to the readers
figure in the status bar, against the simulator of the UI tier (400 paths): cold on the first page (the range fetched), warm
on a second (the kept snapshot). Reproduce: \`npm run bench -- --versions-only [--starts N]\` (prints, never writes).
`;
}
