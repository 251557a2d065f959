// openapi.yaml itself: a valid OpenAPI 3.1 document that says what the spec requires.

import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openapi } from './helpers/openapi.ts';

describe('openapi.yaml', () => {
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
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '500', '503']);
  });
});
