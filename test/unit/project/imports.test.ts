// The house rule "no import runs back up a layer, no import cycle", checked on the source: every
// relative import in src/ (types included: a type-only import still ties the two modules' meaning
// together). A layer is a folder of src/ (or a file at its top); the folders must form a graph
// without a circle, so there is an order in which each imports only what comes before it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
const src = join(repoRoot, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The module a relative specifier names: `./x` is x.ts, or x/index.ts for a folder. */
function resolveImport(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  return existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/g;

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => resolveImport(file, m[1] ?? ''));
}

/** The layer of a module: its folder under src/, or the file itself at src/'s top. */
const layerOf = (file: string) => {
  const parts = relative(src, file).split('/');
  return parts.length > 1 ? `${parts[0]}/` : (parts[0] ?? file);
};

/** A circle in `edges` as the path that closes it, or undefined. */
function findCycle(edges: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}

describe('imports in src/ (layers and cycles)', () => {
  const files = sources(src);
  const modules = new Map(files.map((file) => [file, new Set(importsOf(file))]));
  const layers = new Map<string, Set<string>>();
  for (const [file, imports] of modules) {
    for (const target of imports) {
      if (layerOf(target) === layerOf(file)) continue;
      const edges = layers.get(layerOf(file)) ?? new Set<string>();
      edges.add(layerOf(target));
      layers.set(layerOf(file), edges);
    }
  }

  it('every relative import names a module that exists', () => {
    const missing = [...modules].flatMap(([file, imports]) =>
      [...imports].filter((target) => !existsSync(target)).map((target) => `${relative(src, file)} → ${relative(src, target)}`),
    );
    assert.deepEqual(missing, []);
  });

  it('has no import cycle between modules', () => {
    const cycle = findCycle(modules);
    assert.equal(cycle?.map((file) => relative(src, file)).join(' → '), undefined);
  });

  it('has no import running back up a layer: the folders form no circle', () => {
    const cycle = findCycle(layers);
    assert.equal(cycle?.join(' → '), undefined);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    assert.deepEqual(
      findCycle(
        new Map([
          ['a/', new Set(['b/'])],
          ['b/', new Set(['c/'])],
          ['c/', new Set(['a/'])],
        ]),
      ),
      ['a/', 'b/', 'c/', 'a/'],
    );
    assert.equal(
      findCycle(
        new Map([
          ['a/', new Set(['b/'])],
          ['b/', new Set<string>()],
        ]),
      ),
      undefined,
    );
  });
});
