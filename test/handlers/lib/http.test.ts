import { describe, expect, it } from '@jest/globals';
import { errorResponses, header, nextLink, queryParameters } from '../../../handlers/lib/http.ts';
import { LIST_PLANTS } from '../../../handlers/lib/operations.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { restApiEvent } from '../../helpers/rest-api-event.ts';

describe('queryParameters', () => {
  it('keeps repeated keys apart in HTTP API events, where API Gateway joins them with commas', () => {
    const params = queryParameters(httpApiEvent({ query: 'limit=1&limit=2&cursor=a%2Bb' }));
    expect(params.get('limit')).toEqual(['1', '2']);
    expect(params.get('cursor')).toEqual(['a+b']);
  });

  it('reads multi-value parameters of REST API events', () => {
    const params = queryParameters(restApiEvent({ query: 'limit=1&limit=2' }));
    expect(params.get('limit')).toEqual(['1', '2']);
  });

  it('falls back to single-value parameters when a REST event has no multi-value map', () => {
    const event = { ...restApiEvent(), queryStringParameters: { limit: '3' }, multiValueQueryStringParameters: null };
    expect(queryParameters(event).get('limit')).toEqual(['3']);
  });

  it('is empty without a query string', () => {
    expect(queryParameters(httpApiEvent()).size).toBe(0);
    expect(queryParameters(restApiEvent()).size).toBe(0);
  });
});

describe('header', () => {
  it('finds a header whatever its case', () => {
    expect(header(restApiEvent({ headers: { AUTHORIZATION: 'Bearer x' } }), 'authorization')).toBe('Bearer x');
    expect(header(httpApiEvent({ headers: { Authorization: 'Bearer y' } }), 'Authorization')).toBe('Bearer y');
  });

  it('joins repeated REST API headers so two credentials cannot pass as one', () => {
    const event = { ...restApiEvent(), multiValueHeaders: { Authorization: ['Bearer a', 'Bearer b'] } };
    expect(header(event, 'authorization')).toBe('Bearer a, Bearer b');
  });

  it.each([
    ['two spellings in headers', { headers: { Authorization: 'Bearer a', authorization: 'Bearer b' } }],
    [
      'two spellings in multiValueHeaders',
      { multiValueHeaders: { Authorization: ['Bearer a'], authorization: ['Bearer b'] } },
    ],
    [
      'one spelling in each map',
      { headers: { Authorization: 'Bearer a' }, multiValueHeaders: { authorization: ['Bearer b'] } },
    ],
  ])('counts every value of a payload 1.0 header sent as %s', (_, maps) => {
    const event = { ...restApiEvent(), headers: {}, multiValueHeaders: {}, ...maps };
    expect(header(event, 'authorization')?.split(', ').sort()).toEqual(['Bearer a', 'Bearer b']);
  });

  it('counts every spelling of a header in a payload 2.0 event', () => {
    const event = { ...httpApiEvent(), headers: { Authorization: 'Bearer a', authorization: 'Bearer b' } };
    expect(header(event, 'authorization')).toBe('Bearer a, Bearer b');
  });

  it('reads one value once when headers repeats what multiValueHeaders holds, under any spelling', () => {
    const event = {
      ...restApiEvent(),
      headers: { Authorization: 'Bearer a', authorization: 'Bearer a' },
      multiValueHeaders: { AUTHORIZATION: ['Bearer a'] },
    };
    expect(header(event, 'authorization')).toBe('Bearer a');
  });
});

describe('nextLink', () => {
  const query = new URLSearchParams({ limit: '2', cursor: 'abc.def' });

  it('is a query-only relative reference by default, which keeps whatever path the client used', () => {
    expect(nextLink(LIST_PLANTS.path, query, undefined)).toBe('<?limit=2&cursor=abc.def>; rel="next"');
    const resolved = new URL('?limit=2&cursor=abc.def', 'https://api.example.com/v1/plants?limit=2');
    expect(resolved.href).toBe('https://api.example.com/v1/plants?limit=2&cursor=abc.def');
  });

  it('is absolute under the base, when one is known', () => {
    expect(nextLink(LIST_PLANTS.path, query, 'https://api.example.com/v1')).toBe(
      '<https://api.example.com/v1/plants?limit=2&cursor=abc.def>; rel="next"',
    );
  });
});

describe('errorResponses', () => {
  it('answers a server fault with nosniff and no-store too', () => {
    const boom = new Error('boom');
    const request = { error: boom } as Parameters<NonNullable<ReturnType<typeof errorResponses>['onError']>>[0];
    errorResponses().onError?.(request);
    expect(request.response).toEqual({
      statusCode: 500,
      headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: 500, message: 'Internal server error' }),
    });
    // The error stays as it was thrown, for the request's record (its cause and stack included).
    expect(request.error).toBe(boom);
  });
});
