// Figure 1b: the size of each release bundle, as `node esbuild.mjs --production` writes it, and what
// weighs in dist/extension.js by esbuild's own account (its metafile: bytes each input left in the output).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  file: string;
  rawBytes: number;
  gzipBytes: number;
}

/** One part of dist/extension.js: a library (by package) or a folder of src/, with its biggest file. */
export interface BundleInput {
  name: string;
  bytes: number;
  biggest: { file: string; bytes: number };
}

export function measureBundles(distDir: string): BundleSize[] {
  return ['extension.js', 'webview.js'].map((name) => {
    const bytes = fs.readFileSync(path.join(distDir, name));
    return { file: `dist/${name}`, rawBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** Groups the extension bundle's inputs: `node_modules/<package>` by package, `src/<folder>` by folder, files at src/'s top as one group. */
export function bundleInputs(metafilePath: string): BundleInput[] {
  const meta = JSON.parse(fs.readFileSync(metafilePath, 'utf8')) as Metafile;
  const output = Object.entries(meta.outputs).find(([file]) => file.endsWith('extension.js'))?.[1];
  if (!output) throw new Error(`${metafilePath} has no extension.js output`);
  const groups = new Map<string, BundleInput>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    // The build runs in out/bench/extension, so inputs read `../../../src/…`: name them from the repository's root.
    const file = input.replace(/^(\.\.\/)+/, '');
    const name = groupOf(file);
    const group = groups.get(name) ?? { name, bytes: 0, biggest: { file, bytes: 0 } };
    group.bytes += bytesInOutput;
    if (bytesInOutput > group.biggest.bytes) group.biggest = { file, bytes: bytesInOutput };
    groups.set(name, group);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
}

function groupOf(file: string): string {
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (library) return library[1] ?? file;
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : 'src/*.ts';
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
