import { describe, expect, it } from '@jest/globals';
import { header, queryParameters, resourceUrl } from '../../handlers/lib/http.ts';
import { httpApiEvent, restApiEvent } from '../helpers/events.ts';

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
});

describe('resourceUrl', () => {
  it('keeps the REST stage in the path', () => {
    expect(resourceUrl(restApiEvent())).toBe('https://rest123456.execute-api.eu-west-1.amazonaws.com/prod/plants');
  });

  it('uses http only when the front says the request came over http', () => {
    const event = httpApiEvent({ headers: { 'x-forwarded-proto': 'http' } });
    expect(resourceUrl(event)).toBe('http://api1234567.execute-api.eu-west-1.amazonaws.com/plants');
    expect(resourceUrl(httpApiEvent({ headers: { 'x-forwarded-proto': 'gopher' } }))).toMatch(/^https:/);
  });
});
