// `npm run test:desktop`: the same integration suite in desktop VS Code through
// @vscode/test-electron, for machines with internet access (it downloads VS Code).
import { runTests } from '@vscode/test-electron';
import { resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');

runTests({
  // The build whose activate() returns its parts (esbuild.mjs --tests), as in the code-server run.
  extensionDevelopmentPath: resolve(repoRoot, 'out', 'test', 'extension'),
  extensionTestsPath: resolve(__dirname, 'integration', 'index.js'),
  launchArgs: [resolve(repoRoot, 'test', 'fixtures', 'workspace'), '--disable-extensions', '--disable-workspace-trust'],
}).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
