// `npm test`: runs every tier and ends with one line `N passed, N failed`.
//   node out/test/run.js            all tiers
//   node out/test/run.js unit host  only those tiers
import Mocha from 'mocha';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runHostTests } from './host/runHostTests';

interface TierResult {
  passed: number;
  failed: number;
}

const repoRoot = resolve(__dirname, '..', '..');
const log = (line: string) => process.stdout.write(`${line}\n`);

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

/** Unit tier: plain node, no vscode; real HTTP against the simulator. */
function runUnit(): Promise<TierResult> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 10_000 });
  for (const file of testFiles(join(__dirname, 'unit'))) mocha.addFile(file);
  return new Promise((done) => {
    const runner = mocha.run(() => {
      const stats = runner.stats;
      // A skipped test did not prove anything: it counts as failed.
      done({ passed: stats?.passes ?? 0, failed: (stats?.failures ?? 0) + (stats?.pending ?? 0) });
    });
  });
}

/** Host tier: the integration suite inside a real VS Code (code-server) driven by headless Chromium. */
async function runHost(): Promise<TierResult> {
  // A copy of the fixture: the tests write workspace settings and must leave the repo clean.
  const workspaceFolder = mkdtempSync(join(tmpdir(), 'mintlify-ws-'));
  cpSync(join(repoRoot, 'test', 'fixtures', 'workspace'), workspaceFolder, { recursive: true });
  try {
    const result = await runHostTests({ repoRoot, workspaceFolder, testsEntry: join(__dirname, 'integration', 'index.js'), log });
    log(result.report);
    return result;
  } finally {
    rmSync(workspaceFolder, { recursive: true, force: true });
  }
}

const tiers: Record<string, () => Promise<TierResult>> = { unit: runUnit, host: runHost };

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const names = wanted.length ? wanted : Object.keys(tiers);
  let passed = 0;
  let failed = 0;
  for (const name of names) {
    const tier = tiers[name];
    if (!tier) throw new Error(`Unknown test tier "${name}"; known: ${Object.keys(tiers).join(', ')}`);
    const started = Date.now();
    log(`\n=== ${name} tests ===`);
    let result: TierResult;
    try {
      result = await tier();
    } catch (error) {
      log(`The ${name} tier could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      result = { passed: 0, failed: 1 };
    }
    log(`=== ${name}: ${result.passed} passed, ${result.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);
    passed += result.passed;
    failed += result.failed;
  }
  log(`${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(String(error));
    log('0 passed, 1 failed');
    process.exit(1);
  },
);
