// Figure 1b: the size of each release bundle, as `node esbuild.mjs --production` writes it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  file: string;
  rawBytes: number;
  gzipBytes: number;
}

export function measureBundles(distDir: string): BundleSize[] {
  return ['extension.js', 'webview.js'].map((name) => {
    const bytes = fs.readFileSync(path.join(distDir, name));
    return { file: `dist/${name}`, rawBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
