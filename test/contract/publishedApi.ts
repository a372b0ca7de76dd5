/**
 * The platform's published OpenAPI files (test/contract/spec/) served by Prism, a validating mock
 * we did not write: every request is checked against the spec, and one the spec rejects is
 * answered with an error and an `sl-violations` header naming what was wrong. Prism serves one
 * document a process, so one runs per file (the agent API, the analytics API, the External API, the
 * discovery API of the site's search) and a small proxy on 127.0.0.1 gives the extension one base URL, routing by path, and records every exchange. The
 * proxy also flags a query parameter the spec does not declare, which Prism lets through.
 * No network: Prism comes from npm (`@stoplight/prism-cli`) and reads the files from disk.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { match, readOperations } from './specOperations';

export interface Exchange {
  method: string;
  /** The spec's operation it matched, `GET /v1/analytics/{projectId}/visitors` (specOperations.ts). */
  operation: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  /**
   * Prism's `sl-violations` for the request, and any query parameter the spec does not declare
   * (specOperations.ts); empty when the spec accepted it.
   */
  violations: string[];
  at: number;
}

export interface PublishedApi {
  url: string;
  readonly exchanges: readonly Exchange[];
  /** Exchanges from `since` on whose request the spec rejected, or that were not answered with a 2xx. */
  rejected(since?: number): Exchange[];
  close(): Promise<void>;
}

const SPECS = {
  agent: 'mintlify-admin-openapi.json',
  analytics: 'mintlify-analytics-openapi.json',
  external: 'mintlify-external-openapi.json',
  discovery: 'mintlify-discovery-openapi.json',
} as const;
/** The External API's server is `https://api.mintlify.com/v1` and its paths start after it; Prism matches the paths alone. */
const EXTERNAL_PREFIX = '/v1/project/';
/** The discovery API's server is `https://api.mintlify.com/discovery` (the site's search): the same. */
const DISCOVERY_PREFIX = '/discovery/';
/** Prism takes about 1.5 s to read a document here; generous for a loaded machine. */
const READY_WITHIN_MS = 60_000;

/** The repository root, from this file's place in out/test/contract/ or test/contract/. */
function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = http.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `prism mock <spec>` on a free port and resolves once it answers; its output goes to `log`. */
async function startPrism(root: string, spec: string, log: (line: string) => void): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const bin = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  if (!fs.existsSync(bin)) throw new Error(`Prism is not installed (${bin}): run npm ci.`);
  const child = spawn(process.execPath, [bin, 'mock', path.join(root, 'test', 'contract', 'spec', spec), '-h', '127.0.0.1', '-p', String(port), '--errors'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  const lines = (chunk: Buffer) =>
    chunk
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .forEach((line) => log(`[prism ${spec}] ${line}`));
  child.stdout?.on('data', lines);
  child.stderr?.on('data', lines);
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited (${child.exitCode}) before it answered; see the log.`);
    const answered = await new Promise<boolean>((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/', timeout: 1_000 }, (response) => {
        response.resume();
        resolve(true);
      });
      request.on('error', () => resolve(false));
      request.on('timeout', () => request.destroy());
    });
    if (answered) return { port, child };
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`Prism did not answer within ${READY_WITHIN_MS / 1000} s (${spec}).`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function startPublishedApi(log: (line: string) => void): Promise<PublishedApi> {
  const root = repoRoot();
  const started: ChildProcess[] = [];
  try {
    const agent = await startPrism(root, SPECS.agent, log);
    started.push(agent.child);
    const analytics = await startPrism(root, SPECS.analytics, log);
    started.push(analytics.child);
    const external = await startPrism(root, SPECS.external, log);
    started.push(external.child);
    const discovery = await startPrism(root, SPECS.discovery, log);
    started.push(discovery.child);
    const exchanges: Exchange[] = [];
    const operations = readOperations(Object.values(SPECS).map((spec) => path.join(root, 'test', 'contract', 'spec', spec)));
    const proxy = http.createServer((request, response) => {
      const method = request.method ?? '';
      const url = request.url ?? '';
      const { operation, undeclared } = match(operations, method, url);
      const outside = url.startsWith(EXTERNAL_PREFIX);
      const searching = url.startsWith(DISCOVERY_PREFIX);
      const port = url.startsWith('/v1/analytics/') ? analytics.port : outside ? external.port : searching ? discovery.port : agent.port;
      const upstreamPath = outside ? url.slice('/v1'.length) : searching ? url.slice('/discovery'.length) : url;
      const upstream = http.request({ host: '127.0.0.1', port, method, path: upstreamPath, headers: request.headers }, (answer) => {
        const header = answer.headers['sl-violations'];
        const violations = [...(header ? (JSON.parse(String(header)) as { message: string }[]).map((v) => v.message) : []), ...undeclared];
        exchanges.push({ method, operation, url, status: answer.statusCode ?? 0, violations, at: Date.now() });
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on('error', (error) => {
        exchanges.push({ method, operation, url, status: 502, violations: [`proxy: ${error.message}`], at: Date.now() });
        response.writeHead(502).end();
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      exchanges,
      rejected: (since = 0) => exchanges.filter((e) => e.at >= since && (e.violations.length > 0 || e.status < 200 || e.status > 299)),
      close: async () => {
        await new Promise<void>((resolve) => proxy.close(() => resolve()));
        for (const child of started) child.kill();
      },
    };
  } catch (error) {
    for (const child of started) child.kill();
    throw error;
  }
}
