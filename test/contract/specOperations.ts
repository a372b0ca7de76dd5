/**
 * The operations of the published spec, to name what a request was (`GET /v1/analytics/{projectId}/visitors`)
 * and to check its query parameters' names. Prism accepts a query parameter the spec does not name
 * (OpenAPI allows them), so a misspelled one (`lmit=5`) passes its validation while the platform
 * would silently ignore it: the contract tier checks the names here.
 */
import * as fs from 'node:fs';

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
}

interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, { parameters?: Parameter[] } | Parameter[]>>;
  components?: { parameters?: Record<string, Parameter> };
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** How many `{…}` segments the template has: the most literal match wins. */
  templated: number;
  query: Set<string>;
}

/** Reads the operations of the given OpenAPI files (JSON). */
export function readOperations(files: readonly string[]): Operation[] {
  const operations: Operation[] = [];
  for (const file of files) {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Document;
    const resolve = (p: Parameter): Parameter => (p.$ref ? (doc.components?.parameters?.[p.$ref.split('/').pop() ?? ''] ?? {}) : p);
    // A server with a path (the External API's `https://api.mintlify.com/v1`) is where its paths start.
    const base = new URL(doc.servers?.[0]?.url ?? 'https://api.mintlify.com').pathname.replace(/\/$/, '');
    for (const [path, item] of Object.entries(doc.paths)) {
      const template = base + path;
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'parameters' || Array.isArray(operation)) continue;
        const parameters = [...shared, ...(operation.parameters ?? [])].map(resolve);
        const segments = template.split('/').map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
        operations.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${segments.join('/')}$`),
          templated: (template.match(/\{/g) ?? []).length,
          query: new Set(parameters.filter((p) => p.in === 'query' && p.name).map((p) => p.name as string)),
        });
      }
    }
  }
  return operations;
}

export interface Matched {
  /** The spec's name for the request, `GET /v1/analytics/{projectId}/visitors`; the path itself when none matches. */
  operation: string;
  /**
   * What the spec does not declare: each query parameter it does not name for the operation, or
   * the whole request when no operation matches (Prism answers that one with a 404 too).
   */
  undeclared: string[];
}

export function match(operations: readonly Operation[], method: string, url: string): Matched {
  const parsed = new URL(url, 'http://127.0.0.1');
  const path = decodeURIComponent(parsed.pathname);
  const found = operations.filter((o) => o.method === method && o.pattern.test(path)).sort((a, b) => a.templated - b.templated)[0];
  if (!found) return { operation: `${method} ${path}`, undeclared: [`no operation of the spec is ${method} ${path}`] };
  return {
    operation: `${method} ${found.template}`,
    undeclared: [...new Set(parsed.searchParams.keys())]
      .filter((name) => !found.query.has(name))
      .map((name) => `query parameter "${name}" is not one the spec declares for ${method} ${found.template} (${[...found.query].join(', ') || 'none'})`),
  };
}
