// Checks responses against openapi.yaml with a JSON Schema 2020-12 validator (the OAS 3.1 dialect):
// the tests' check of every response, and the smoke check's.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';

export interface HttpResponse {
  statusCode: number;
  headers?: Record<string, unknown> | undefined;
  body?: string | undefined;
}

type HeaderSpec = { $ref?: string; required?: boolean; schema: object };
type ResponseSpec = {
  $ref?: string;
  headers?: Record<string, HeaderSpec>;
  content?: Record<string, { schema: object }>;
};

export const openapiPath = new URL('../openapi.yaml', import.meta.url);
export const openapi = parse(readFileSync(openapiPath, 'utf8'));
const operation = openapi.paths['/plants'].get;

// strict: false because the whole OpenAPI document is registered so that its `#/components/...`
// references resolve; only the schemas inside it are used as schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addSchema(openapi, 'openapi.json');

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Throws, with every mismatch listed, unless the response is one openapi.yaml describes. */
export function assertMatchesContract(response: HttpResponse): void {
  const status = String(response.statusCode);
  const declaredResponse: ResponseSpec | undefined = operation.responses[status];
  if (!declaredResponse) throw new Error(`Status ${status} is not documented in openapi.yaml`);
  // A shared answer lives in components/responses: its schemas are read where it is written.
  const at = declaredResponse.$ref ?? `#/${pointer('paths', '/plants', 'get', 'responses', status)}`;
  const spec = (declaredResponse.$ref ? resolve(declaredResponse.$ref) : declaredResponse) as ResponseSpec;
  const problems: string[] = [];
  const headers = new Map(Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

  for (const [name, declared] of Object.entries(spec.headers ?? {})) {
    const header = declared.$ref ? resolve(declared.$ref) : declared;
    const value = headers.get(name.toLowerCase());
    if (value === undefined) {
      if (header.required) problems.push(`missing header ${name}`);
      continue;
    }
    const schemaAt = declared.$ref ?? `${at}/${pointer('headers', name)}`;
    const check = ajv.getSchema(`openapi.json${schemaAt}/schema`);
    if (!check) throw new Error(`openapi.yaml has no schema at ${schemaAt}`);
    if (!check(value))
      problems.push(`header ${name}: ${ajv.errorsText(check.errors)} (value ${JSON.stringify(value)})`);
  }

  const contentType = String(headers.get('content-type') ?? '');
  if (!contentType.startsWith('application/json')) problems.push(`content-type is "${contentType}"`);
  const validateBody = ajv.getSchema(`openapi.json${at}/${pointer('content', 'application/json', 'schema')}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body ?? '');
  } catch {
    problems.push(`body is not JSON: ${response.body}`);
  }
  if (validateBody && body !== undefined && !validateBody(body))
    problems.push(`body: ${ajv.errorsText(validateBody.errors)}`);
  // API Gateway's own GatewayError bodies carry no `error`; the function's Error always does.
  const isErrorObject = typeof body === 'object' && body !== null && 'error' in body;
  if (isErrorObject && (body as { error?: unknown }).error !== response.statusCode) {
    problems.push('Error.error does not equal the HTTP status');
  }
  if (problems.length > 0) throw new Error(`Response ${status} breaks openapi.yaml:\n- ${problems.join('\n- ')}`);
}

function resolve(ref: string): HeaderSpec & ResponseSpec {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node, key) => node[key], openapi);
}
