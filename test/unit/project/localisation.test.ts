// The manifest and the run-time messages are translatable: every user-facing manifest string is a
// `%key%` with its English text in package.nls.json, and l10n/bundle.l10n.json holds exactly the
// strings that src/ passes to vscode.l10n.t (so a feature that lands later cannot forget either).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The manifest fields VS Code shows to a person (and so translates), as paths with `*` for any
 * array index or object key. A field not listed here is an id, a `when` clause or a value.
 */
const USER_FACING = [
  'displayName',
  'description',
  'capabilities.untrustedWorkspaces.description',
  'capabilities.virtualWorkspaces.description',
  'contributes.commands.*.title',
  'contributes.commands.*.shortTitle',
  'contributes.commands.*.category',
  'contributes.configuration.title',
  'contributes.configuration.properties.*.description',
  'contributes.configuration.properties.*.markdownDescription',
  'contributes.configuration.properties.*.enumDescriptions.*',
  'contributes.configuration.properties.*.markdownEnumDescriptions.*',
  'contributes.configuration.properties.*.deprecationMessage',
  'contributes.configuration.properties.*.markdownDeprecationMessage',
  'contributes.configuration.*.title',
  'contributes.configuration.*.properties.*.description',
  'contributes.configuration.*.properties.*.markdownDescription',
  'contributes.configuration.*.properties.*.enumDescriptions.*',
  'contributes.configuration.*.properties.*.markdownEnumDescriptions.*',
  'contributes.viewsContainers.*.*.title',
  'contributes.views.*.*.name',
  'contributes.views.*.*.contextualTitle',
  'contributes.viewsWelcome.*.contents',
  'contributes.submenus.*.label',
  'contributes.walkthroughs.*.title',
  'contributes.walkthroughs.*.description',
  'contributes.walkthroughs.*.steps.*.title',
  'contributes.walkthroughs.*.steps.*.description',
  'contributes.walkthroughs.*.steps.*.media.altText',
  'contributes.customEditors.*.displayName',
  'contributes.keybindings.*.title',
  'contributes.colors.*.description',
];

/** Every string in `json` at a path matching `pattern`, with its concrete path. */
function stringsAt(json: Json, pattern: string[], path: string[] = []): [string, string][] {
  if (pattern.length === 0) return typeof json === 'string' ? [[path.join('.'), json]] : [];
  if (json === null || typeof json !== 'object') return [];
  const [head, ...rest] = pattern;
  const entries: [string, Json][] = Array.isArray(json) ? json.map((v, i) => [String(i), v]) : Object.entries(json);
  return entries.filter(([key]) => head === '*' || head === key).flatMap(([key, value]) => stringsAt(value, rest, [...path, key]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('localisation (package.nls.json and the l10n bundle)', () => {
  const manifest = readJson('package.json') as Json;
  const nls = readJson('package.nls.json') as Record<string, string>;
  const userFacing = USER_FACING.flatMap((pattern) => stringsAt(manifest, pattern.split('.')));
  const placeholders = JSON.stringify(manifest).match(/%[\w.-]+%/g) ?? [];

  it('finds the user-facing manifest strings (the walk itself works)', () => {
    // Guards the test below against a pattern typo that would make it check nothing.
    const paths = new Set(userFacing.map(([path]) => path));
    for (const expected of [
      'displayName',
      'contributes.commands.0.title',
      'contributes.views.mintlifyAgent.0.name',
      'contributes.walkthroughs.0.steps.0.description',
    ]) {
      assert.ok(paths.has(expected), `${expected} is among the user-facing fields`);
    }
  });

  it('every user-facing manifest string is a %key%, not a literal', () => {
    const literals = userFacing.filter(([, value]) => !/^%[\w.-]+%$/.test(value)).map(([path, value]) => `${path}: ${JSON.stringify(value)}`);
    assert.deepEqual(literals, [], 'move these to package.nls.json and write "%key%" in package.json');
  });

  it('every %key% in package.json has its English text in package.nls.json', () => {
    const missing = placeholders.map((p) => p.slice(1, -1)).filter((key) => typeof nls[key] !== 'string' || !nls[key].trim());
    assert.deepEqual(missing, [], 'add these keys to package.nls.json');
  });

  it('package.nls.json has no key that package.json no longer uses', () => {
    const used = new Set(placeholders.map((p) => p.slice(1, -1)));
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
    );
  });

  it('declares the l10n folder that holds the English bundle', () => {
    assert.equal((manifest as { l10n?: string }).l10n, './l10n');
    assert.doesNotThrow(() => readJson('l10n/bundle.l10n.json'));
  });

  it('every file that calls l10n.t imports vscode (else `npm run l10n` skips its strings)', () => {
    // The extractor reads l10n.t only in a file that imports 'vscode' or '@vscode/l10n'; a pure
    // module that is passed `vscode.l10n` needs at least `import type * as vscode from 'vscode'`.
    const skipped = sourceFiles(join(repoRoot, 'src'))
      .filter((file) => /\bl10n\.t\(/.test(readFileSync(file, 'utf8')) && !/from '(vscode|@vscode\/l10n)'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(repoRoot, file));
    assert.deepEqual(skipped, []);
  });

  it('l10n/bundle.l10n.json holds exactly the strings src/ passes to vscode.l10n.t (run `npm run l10n` after changing one)', async function () {
    // The extractor parses every file of src/ with a wasm parser: seconds, and more on a busy machine.
    this.timeout(60_000);
    const files = sourceFiles(join(repoRoot, 'src')).map((file) => ({
      extension: file.endsWith('.tsx') ? '.tsx' : '.ts',
      contents: readFileSync(file, 'utf8'),
      name: relative(repoRoot, file),
    }));
    const extracted = await getL10nJson(files);
    const committed = readJson('l10n/bundle.l10n.json') as Record<string, unknown>;
    const keys = (bundle: object) => Object.keys(bundle).sort();
    assert.ok(keys(extracted).length > 0, 'src/ has strings for vscode.l10n.t');
    assert.deepEqual(keys(committed), keys(extracted));
  });
});
