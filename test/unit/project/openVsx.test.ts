// Open VSX (where Cursor, VSCodium and Windsurf install extensions from) takes the same .vsix as the
// Marketplace: `npm run publish:ovsx` publishes what `npm run package` makes, with only a token
// (OVSX_PAT). Without a token nothing can be sent, so this checks the packaged .vsix offline with
// ovsx's own checks (it reads the manifest from the .vsix as `ovsx publish` does, validates it, and
// checks the licence the registry requires), and what Open VSX's server rejects or warns about:
// a namespace-safe publisher and name, the engine, and no `*` activation.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isLicenseOk, validateManifest } from 'ovsx';
import { readVSIXPackage } from 'ovsx/lib/zip';
import { findRepoRoot } from '../../host/codeServer';
import { packageExtension, type PackagedExtension } from '../../host/vsix';

const repoRoot = findRepoRoot(__dirname);

interface Manifest {
  publisher: string;
  name: string;
  version: string;
  license?: string;
  engines?: { vscode?: string };
  activationEvents?: string[];
  scripts: Record<string, string>;
}

describe('the .vsix Open VSX publishes', function () {
  this.timeout(3 * 60_000); // npm run package: the release build and vsce
  let packaged: PackagedExtension;
  let read: Awaited<ReturnType<typeof readVSIXPackage>>;
  let manifest: Manifest;

  before(async () => {
    packaged = await packageExtension(repoRoot, () => undefined);
    read = await readVSIXPackage(packaged.vsix);
    manifest = read as unknown as Manifest;
  });

  after(() => packaged?.dispose());

  it("passes ovsx's own checks: the manifest read from the .vsix, and a licence", async () => {
    validateManifest(read);
    assert.ok(await isLicenseOk(packaged.folder, read), 'ovsx: no license field and no LICENSE file in the .vsix');
    assert.ok(
      fs.existsSync(path.join(packaged.folder, 'LICENSE')) || fs.existsSync(path.join(packaged.folder, 'LICENSE.txt')),
      'the LICENSE file is in the .vsix',
    );
  });

  it("has what Open VSX's registry requires: a namespace and name it accepts, an engine, no * activation", () => {
    for (const id of [manifest.publisher, manifest.name]) assert.match(id, /^[a-z0-9][a-z0-9-]*$/, `"${id}" as an Open VSX namespace or name`);
    assert.match(manifest.engines?.vscode ?? '', /^\^1\.\d+\.\d+$/);
    assert.ok(!(manifest.activationEvents ?? []).includes('*'), 'activation on every start ("*")');
  });

  it('publishes with a token alone, the .vsix npm run package makes', () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest).scripts;
    const publish = scripts['publish:ovsx'] ?? '';
    assert.match(publish, /OVSX_PAT/, 'says so when OVSX_PAT is not set');
    const vsix = /npm run package -- --out (\S+)/.exec(publish)?.[1];
    assert.ok(vsix, `publish:ovsx packages with npm run package: ${publish}`);
    assert.match(publish, new RegExp(`ovsx publish ${vsix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`), 'and publishes that .vsix');
  });
});
