// The judge of the conformance tier: Mintlify's own published code, `@mintlify/common` and
// `@mintlify/prebuild` (devDependencies pinned in package.json; never bundled: esbuild.mjs leaves
// them outside the test bundles, and the release bundle's guard refuses any devDependency). Both are
// ES modules, loaded once per run with import(): a dozen seconds on this machine, which is why they
// have a tier of their own and the unit tier stays quick.
import type * as Common from '@mintlify/common';
import type * as Prebuild from '@mintlify/prebuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Judge {
  common: typeof Common;
  prebuild: typeof Prebuild;
}

let loading: Promise<Judge> | undefined;

export function judge(): Promise<Judge> {
  loading ??= Promise.all([import('@mintlify/common'), import('@mintlify/prebuild')]).then(([common, prebuild]) => ({ common, prebuild }));
  return loading;
}

/** The seed of every generated case: fixed, so a run is repeatable; MINTLIFY_CONFORMANCE_SEED tries others. */
export const SEED = Number(process.env.MINTLIFY_CONFORMANCE_SEED ?? 48);

/** Writes `files` (POSIX paths → text) into a fresh folder, runs `use` on it, and removes it. */
export async function withTree<T>(files: ReadonlyMap<string, string>, use: (root: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), 'mintlify-conformance-'));
  try {
    for (const [path, text] of files) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return await use(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Agreement over generated cases: how many, and the first few that disagree, printed for the report. */
export class Tally<C> {
  private agreed = 0;
  private readonly disagreed: { case: C; ours: unknown; judge: unknown }[] = [];

  check(item: C, ours: unknown, judged: unknown, same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)): void {
    if (same(ours, judged)) this.agreed++;
    else this.disagreed.push({ case: item, ours, judge: judged });
  }

  /** One line for the log (`N of M agree`), then fails listing the first disagreements, if any. */
  report(what: string): void {
    const total = this.agreed + this.disagreed.length;
    process.stdout.write(`      ${what}: ${this.agreed} of ${total} agree with Mintlify's code\n`);
    if (this.disagreed.length) {
      const shown = this.disagreed.slice(0, 8).map((d) => `  ${JSON.stringify(d.case)}: ours ${JSON.stringify(d.ours)}, Mintlify's ${JSON.stringify(d.judge)}`);
      throw new Error(`${this.disagreed.length} of ${total} ${what} disagree with Mintlify's code:\n${shown.join('\n')}`);
    }
  }
}
