// openapi.yaml itself: a valid OpenAPI 3.1 document that says what the spec requires, and that
// describes every answer something before the function sends (API Gateway, its JWT authorizer),
// replayed as AWS documents them (an option's own answers: its own tests).

import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { OPERATIONS } from '../handlers/lib/operations.ts';
import { JWT_AUTHORIZER_ANSWERS } from './helpers/gateway-answers.ts';
import { assertMatchesContract, openapi } from './helpers/openapi.ts';

// biome-ignore lint/suspicious/noExplicitAny: openapi.yaml, read by path
type Json = any;

describe('openapi.yaml', () => {
  it("holds exactly the operations of the function's table (handlers/lib/operations.ts), by operationId and route", () => {
    const documented = Object.entries(
      openapi.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.operationId !== undefined)
        .map(([method, operation]) => ({ operationId: operation.operationId, method: method.toUpperCase(), path })),
    );
    expect(documented).toEqual(OPERATIONS.map(({ operationId, method, path }) => ({ operationId, method, path })));
  });

  it('is a valid OpenAPI 3.1.0 document, version 1.0.0', async () => {
    const result = await new Validator().validate(structuredClone(openapi));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openapi).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } });
  });

  it('describes GET /plants with bearer auth, int32 limit, and Plant and Error schemas', () => {
    const operation = openapi.paths['/plants'].get;
    expect(openapi.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(openapi.security).toEqual([{ bearerAuth: [] }]);
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ name: 'limit', in: 'query', schema: expect.objectContaining({ format: 'int32' }) }),
    );
    expect(openapi.components.schemas.Plant.required).toEqual(['name']);
    expect(openapi.components.schemas.Error.required).toEqual(['error', 'message']);
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '429',
      '431',
      '500',
      '502',
      '503',
      '504',
    ]);
  });

  const gateway = (statusCode: number, message: string) => ({
    statusCode,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });

  it.each([
    [404, 'Not Found'],
    [413, 'Request Entity Too Large'],
    [429, 'Too Many Requests'],
    [431, 'Request Header Fields Too Large'],
    [500, 'Internal Server Error'],
    [502, 'Internal server error'],
    [503, 'Service Unavailable'],
    [504, 'Endpoint request timed out'],
  ])("documents API Gateway's own %i answer, {message}", (status, message) => {
    expect(() => assertMatchesContract(gateway(status, message))).not.toThrow();
  });

  it("keeps the gateway's and the function's shapes apart", () => {
    const functionShaped = { ...gateway(413, ''), body: '{"error":413,"message":"Too large"}' };
    expect(() => assertMatchesContract(functionShaped)).toThrow(/body/);
    expect(() => assertMatchesContract(gateway(400, 'Bad Request'))).toThrow(/body/);
    // Where both shapes are allowed, an Error body must still carry the status it came with.
    const mislabelled = { ...gateway(404, ''), body: '{"error":500,"message":"Not Found"}' };
    expect(() => assertMatchesContract(mislabelled)).toThrow(/Error.error/);
  });

  it('requires the headers the function always sends on every response only an Error answers', () => {
    const deref = (node: Json): Json =>
      node?.$ref
        ? node.$ref
            .slice(2)
            .split('/')
            .reduce((n: Json, k: string) => n[k], openapi)
        : node;
    for (const [status, declared] of Object.entries(openapi.paths['/plants'].get.responses)) {
      const { headers = {}, content } = deref(declared);
      const errorOnly = !JSON.stringify(content).includes('GatewayError');
      const required = ['Cache-Control', 'X-Content-Type-Options'].map(
        (name) => deref(headers[name])?.required === true,
      );
      expect({ status, required }).toEqual({ status, required: [errorOnly, errorOnly] });
    }
  });

  it.each(Object.entries(JWT_AUTHORIZER_ANSWERS))(
    "documents the JWT authorizer's refusal of %s (-c jwtAuthorizer=true) beside the function's",
    (_, answer) => {
      expect(() => assertMatchesContract(answer)).not.toThrow();
    },
  );

  it('refuses what neither the function nor the authorizer sends in a 401 or 403', () => {
    const refused = JWT_AUTHORIZER_ANSWERS['a refused token'];
    const challenge = (value: string) => ({ ...refused, headers: { ...refused.headers, 'www-authenticate': value } });
    expect(() => assertMatchesContract(challenge('Basic realm="plants"'))).toThrow(/header WWW-Authenticate/);
    expect(() => assertMatchesContract(challenge('Bearer error="insufficient_scope"'))).toThrow(/WWW-Authenticate/);
    expect(() => assertMatchesContract({ ...refused, body: '{"message":"Unauthorized","error":"x"}' })).toThrow(/body/);
    const html = { ...refused, headers: { 'content-type': 'text/html' }, body: '<h1>401</h1>' };
    expect(() => assertMatchesContract(html)).toThrow(/content-type/);
  });
});
