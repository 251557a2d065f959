import { describe, expect, it } from '@jest/globals';
import {
  BadRequestError,
  InsufficientScopeError,
  ServiceUnavailableError,
  toErrorResponse,
  UnauthorizedError,
} from '../../../handlers/lib/errors.ts';

describe('toErrorResponse', () => {
  it('maps a bad request to 400 with the Error body', () => {
    const response = toErrorResponse(new BadRequestError('limit is wrong'));
    expect(response.statusCode).toBe(400);
    expect(response.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({ error: 400, message: 'limit is wrong' });
  });

  it('challenges with a bare Bearer when no token was sent', () => {
    const response = toErrorResponse(new UnauthorizedError('A bearer token is required', 'missing_token'));
    expect(response.statusCode).toBe(401);
    expect(response.headers['WWW-Authenticate']).toBe('Bearer');
  });

  it('names invalid_token when a token was refused', () => {
    const response = toErrorResponse(new UnauthorizedError('The access token has expired', 'expired'));
    expect(response.headers['WWW-Authenticate']).toBe(
      'Bearer error="invalid_token", error_description="The access token has expired"',
    );
  });

  it('names the missing scope on 403', () => {
    const response = toErrorResponse(new InsufficientScopeError(['plants:read']));
    expect(response.statusCode).toBe(403);
    expect(response.headers['WWW-Authenticate']).toBe('Bearer error="insufficient_scope", scope="plants:read"');
  });

  it('asks the caller to retry on 503 and hides the cause', () => {
    const response = toErrorResponse(new ServiceUnavailableError(new Error('ECONNREFUSED 10.0.0.1:443')));
    expect(response.statusCode).toBe(503);
    expect(response.headers['Retry-After']).toBe('1');
    expect(response.body).not.toContain('ECONNREFUSED');
  });

  it.each([
    [new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a string'],
    [null],
    [{ statusCode: 418 }],
  ])('turns anything unexpected into a generic 500 (%#)', (thrown) => {
    const response = toErrorResponse(thrown);
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 500, message: 'Internal server error' });
  });
});
