// The command registry (src/commands.ts) and package.json agree: every contributed command is in
// the registry (activate() registers exactly the registry's ids, so a command missing there would
// be "not found"), every registry id is contributed, and menus, keybindings, welcome views and the
// walkthrough name only known commands. Each id is written once in src/.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { COMMAND_IDS, COMMANDS } from '../../src/commands';

const repoRoot = resolve(__dirname, '..', '..', '..');
const REGISTRY = 'src/commands.ts';

interface MenuItem {
  command?: string;
  alt?: string;
}
interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus?: Record<string, MenuItem[]>;
    keybindings?: { command: string }[];
    viewsWelcome?: { view: string; contents: string }[];
    views?: Record<string, { id: string }[]>;
    walkthroughs?: { steps: { description: string; completionEvents?: string[] }[] }[];
  };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string) => nls[value.replace(/^%(.*)%$/, '$1')] ?? value;
const known = new Set<string>(COMMAND_IDS);
/** VS Code's own commands the manifest may link to. */
const BUILT_IN = new Set(['workbench.action.openWalkthrough']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('the command registry', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command);

  it('has a handler id for every contributed command', () => {
    assert.deepEqual(
      contributed.filter((id) => !known.has(id)),
      [],
      'contributed in package.json but not in the registry',
    );
  });

  it('contributes every command it registers', () => {
    assert.deepEqual(
      COMMAND_IDS.filter((id) => !contributed.includes(id)),
      [],
      'in the registry but not contributed in package.json',
    );
  });

  it('declares each id once', () => {
    assert.equal(new Set(Object.values(COMMANDS)).size, Object.values(COMMANDS).length, 'two names for one id');
    assert.equal(new Set(contributed).size, contributed.length, 'a command contributed twice');
    const repeated = sourceFiles(join(repoRoot, 'src')).flatMap((file) => {
      const path = relative(repoRoot, file).split('\\').join('/');
      if (path === REGISTRY) return [];
      const literals = readFileSync(file, 'utf8').match(/['"`](mintlifyAgent\.[A-Za-z]+)['"`]/g) ?? [];
      return literals
        .map((l) => l.slice(1, -1))
        .filter((id) => known.has(id))
        .map((id) => `${path}: ${id}`);
    });
    assert.deepEqual(repeated, [], `command ids written outside ${REGISTRY} (use COMMANDS.…)`);
  });

  it('is all that menus, keybindings, welcome views and the walkthrough refer to', () => {
    const views = new Set(
      Object.values(manifest.contributes.views ?? {})
        .flat()
        .map((v) => `${v.id}.focus`),
    );
    const allowed = (id: string) => known.has(id) || BUILT_IN.has(id) || views.has(id);
    const referred: string[] = [];
    for (const [menu, items] of Object.entries(manifest.contributes.menus ?? {})) {
      for (const item of items) for (const id of [item.command, item.alt]) if (id) referred.push(`${menu}: ${id}`);
    }
    for (const binding of manifest.contributes.keybindings ?? []) referred.push(`keybindings: ${binding.command}`);
    const links = (where: string, markdown: string) => {
      for (const [, id] of markdown.matchAll(/command:([A-Za-z0-9_.-]+)/g)) referred.push(`${where}: ${id}`);
    };
    for (const welcome of manifest.contributes.viewsWelcome ?? []) links(`viewsWelcome ${welcome.view}`, text(welcome.contents));
    for (const walkthrough of manifest.contributes.walkthroughs ?? []) {
      for (const step of walkthrough.steps) {
        links('walkthrough', text(step.description));
        for (const event of step.completionEvents ?? []) if (event.startsWith('onCommand:')) referred.push(`walkthrough: ${event.slice('onCommand:'.length)}`);
      }
    }
    assert.ok(referred.length > 20, 'the manifest was read');
    assert.deepEqual(
      referred.filter((r) => !allowed(r.slice(r.lastIndexOf(' ') + 1))),
      [],
      'unknown command ids in package.json',
    );
  });
});
