// One settings hub: every setting package.json contributes is read in src/config.ts, and no other
// module of src/ reads the configuration or listens for its changes (they use the hub's getters
// and its one change event).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..', '..');
const HUB = 'src/config.ts';

interface Manifest {
  contributes: { configuration: { properties: Record<string, unknown> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('the settings hub', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
  const hub = readFileSync(join(repoRoot, HUB), 'utf8');

  it('reads every contributed setting', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties);
    assert.ok(keys.length > 0);
    const unread = keys.filter((key) => !hub.includes(`'${key.replace(/^mintlifyAgent\./, '')}'`));
    assert.deepEqual(unread, [], `settings in package.json without a getter in ${HUB}`);
  });

  it("restricts every setting that raises spending or reach, and reads only the user's value of each in an untrusted folder", () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.deepEqual([...restricted].sort(), [
      'mintlifyAgent.analytics.teamSize',
      'mintlifyAgent.apiBaseUrl',
      'mintlifyAgent.docsSiteUrl',
      'mintlifyAgent.jobs.pollIntervalSeconds',
      'mintlifyAgent.readers.maxPages',
      'mintlifyAgent.signals.backgroundShare',
    ]);
    for (const key of restricted.map((k) => k.replace(/^mintlifyAgent\./, ''))) {
      // The address the key goes to and the share of every teammate: a workspace's value is never read, trusted or not.
      const userOnly = ({ apiBaseUrl: 'string', 'analytics.teamSize': 'number' } as Record<string, string>)[key];
      const read = userOnly
        ? new RegExp(`inspect<${userOnly}>\\('${key.replace('.', '\\.')}'\\)\\?\\.globalValue`)
        : new RegExp(`userValueIfUntrusted\\([^']*'${key.replace('.', '\\.')}'\\)`);
      assert.match(hub, read, `${key}: read as the user's value only when the folder is not trusted`);
      assert.ok(!hub.includes(`get<number>('${key}')`), `${key}: never read as get(), which would take a workspace value if VS Code did not drop it`);
    }
  });

  it('is the only module that reads the configuration or listens for its changes', () => {
    const readers = sourceFiles(join(repoRoot, 'src'))
      .map((file) => relative(repoRoot, file).split('\\').join('/'))
      .filter((file) => file !== HUB && /\b(getConfiguration|onDidChangeConfiguration)\b/.test(readFileSync(join(repoRoot, file), 'utf8')));
    assert.deepEqual(readers, [], `read the settings through ${HUB} instead`);
  });
});
