// A small JSON Schema checker for the subset the published OpenAPI documents use ($ref, type with
// "null", properties, required, enum, anyOf, items, minimum, maximum), strict about unknown
// properties so the simulator cannot drift from the published contract unnoticed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: Schema[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema & { default?: unknown };
  $ref?: string;
}

export interface OpenApiDocument {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, { parameters: OpenApiParameter[]; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
}

/** The analytics OpenAPI as published (a copy kept next to the simulator). */
export function analyticsSpec(): OpenApiDocument {
  return JSON.parse(readFileSync(join(specDir(), 'mintlify-analytics-openapi.json'), 'utf8')) as OpenApiDocument;
}

/** The discovery OpenAPI as published (the site's search and assistant; a copy kept next to the simulator). */
export function discoverySpec(): OpenApiDocument & {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
} {
  return JSON.parse(readFileSync(join(specDir(), 'mintlify-discovery-openapi.json'), 'utf8')) as ReturnType<typeof discoverySpec>;
}

/** test/simulator/spec, found from wherever under out/test/ the test that bundles this lies. */
function specDir(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const spec = join(dir, 'test', 'simulator', 'spec');
    if (existsSync(spec)) return spec;
  }
  throw new Error(`No test/simulator/spec above ${__dirname}`);
}

/** Every way `value` breaks `schema`, as "path: problem" lines; empty when it conforms. */
export function violations(spec: OpenApiDocument, schema: Schema, value: unknown, path = '$'): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = spec.components.schemas[name];
    if (!target) return [`${path}: unknown $ref ${schema.$ref}`];
    return violations(spec, target, value, path);
  }
  if (schema.anyOf) {
    const results = schema.anyOf.map((option) => violations(spec, option, value, path));
    return results.some((r) => r.length === 0) ? [] : [`${path}: matches none of anyOf (${results.map((r) => r[0]).join(' | ')})`];
  }
  const problems: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => isType(type, value))) return [`${path}: expected ${types.join('|')}, got ${JSON.stringify(value)?.slice(0, 60)}`];
  }
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: ${value} < ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: ${value} > ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => problems.push(...violations(spec, schema.items as Schema, item, `${path}[${i}]`)));
  }
  if (schema.properties && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in record)) problems.push(`${path}.${name}: required`);
    for (const [name, field] of Object.entries(record)) {
      const fieldSchema = schema.properties[name];
      if (!fieldSchema) problems.push(`${path}.${name}: not in the published schema`);
      else problems.push(...violations(spec, fieldSchema, field, `${path}.${name}`));
    }
  }
  return problems;
}

function isType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}
