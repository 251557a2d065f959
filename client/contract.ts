// Checks a response against openapi.yaml (JSON Schema 2020-12): for the tests and the smoke check.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import type { operationRoutes } from './api-types.ts';

export interface HttpResponse {
  /** The request's method, when it was not GET. */
  method?: string | undefined;
  statusCode: number;
  headers?: Record<string, unknown> | undefined;
  body?: string | undefined;
}

type HeaderSpec = { $ref?: string; required?: boolean; schema: object };
type ResponseSpec = {
  $ref?: string;
  headers?: Record<string, HeaderSpec>;
  content?: Record<string, { schema?: object }>;
};
type OperationSpec = { operationId?: string; responses: Record<string, ResponseSpec> };
export type OperationId = keyof typeof operationRoutes;

export const openapiPath = new URL('../openapi.yaml', import.meta.url);
export const openapi = parse(readFileSync(openapiPath, 'utf8'));

// strict: false because the whole OpenAPI document is registered so that its `#/components/...`
// references resolve; only the schemas inside it are used as schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addSchema(openapi, 'openapi.json');

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The operation with this operationId in openapi.yaml, and the JSON pointer to it. */
function operationNamed(operationId: OperationId): { operation: OperationSpec; at: string } {
  const paths = openapi.paths as Record<string, Record<string, OperationSpec>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId === operationId) return { operation, at: `#/${pointer('paths', path, method)}` };
    }
  }
  throw new Error(`openapi.yaml has no operation ${operationId}`);
}

/** Throws, listing every mismatch, unless openapi.yaml describes the response for the operation. */
export function assertMatchesContract(response: HttpResponse, operationId: OperationId = 'listPlants'): void {
  const status = String(response.statusCode);
  const { operation, at: operationAt } = operationNamed(operationId);
  const declared: ResponseSpec | undefined = operation.responses[status];
  if (!declared) throw new Error(`Status ${status} is not documented for ${operationId} in openapi.yaml`);
  // Where the response is written: under the operation, or shared in components/responses.
  const at = declared.$ref ?? `${operationAt}/${pointer('responses', status)}`;
  const spec: ResponseSpec = declared.$ref ? resolve(declared.$ref) : declared;
  const problems: string[] = [];
  const headers = new Map(Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

  for (const [name, declaredHeader] of Object.entries(spec.headers ?? {})) {
    const header: HeaderSpec = declaredHeader.$ref ? resolve(declaredHeader.$ref) : declaredHeader;
    const value = headers.get(name.toLowerCase());
    if (value === undefined) {
      if (header.required) problems.push(`missing header ${name}`);
      continue;
    }
    const schemaAt = declaredHeader.$ref ?? `${at}/${pointer('headers', name)}`;
    const check = ajv.getSchema(`openapi.json${schemaAt}/schema`);
    if (!check) throw new Error(`openapi.yaml has no schema at ${schemaAt}`);
    if (!check(value))
      problems.push(`header ${name}: ${ajv.errorsText(check.errors)} (value ${JSON.stringify(value)})`);
  }

  // A HEAD's answer is a GET's headers without the body (RFC 9110 §9.3.2); without content, no body.
  // A media type declared without a schema (a front's HTML page) leaves its body unchecked.
  const media = Object.keys(spec.content ?? {});
  const contentType = String(headers.get('content-type') ?? '');
  const type = media.find((name) => contentType.split(';')[0]?.trim().toLowerCase() === name);
  let body: unknown;
  if (response.method === 'HEAD' || media.length === 0) {
    if (response.body) problems.push(`a body where none is declared: ${response.body}`);
  } else if (type === undefined) {
    problems.push(`content-type is "${contentType}", not ${media.join(' or ')}`);
  } else if (spec.content?.[type]?.schema) {
    const validateBody = ajv.getSchema(`openapi.json${at}/${pointer('content', type, 'schema')}`);
    try {
      body = JSON.parse(response.body ?? '');
    } catch {
      problems.push(`body is not JSON: ${response.body}`);
    }
    if (validateBody && body !== undefined && !validateBody(body))
      problems.push(`body: ${ajv.errorsText(validateBody.errors)}`);
  }
  // API Gateway's own GatewayError bodies carry no `error`; the function's Error always does.
  const isErrorObject = typeof body === 'object' && body !== null && 'error' in body;
  if (isErrorObject && (body as { error?: unknown }).error !== response.statusCode) {
    problems.push('Error.error does not equal the HTTP status');
  }
  if (problems.length > 0) throw new Error(`Response ${status} breaks openapi.yaml:\n- ${problems.join('\n- ')}`);
}

/** The node a local `$ref` (`#/components/...`) points at. */
function resolve<T>(ref: string): T {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((node, key) => node[key], openapi);
}
