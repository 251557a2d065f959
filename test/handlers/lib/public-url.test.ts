// Which base a next link gets: configured, the API's own execute-api host, or none (relative).

import { describe, expect, it } from '@jest/globals';
import { linkBase } from '../../../handlers/lib/public-url.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { restApiEvent } from '../../helpers/rest-api-event.ts';

const API_GATEWAY = { publicBaseUrl: undefined, requestContextFromApiGateway: true, publicHostHeader: undefined };

describe('linkBase', () => {
  it("is the execute-api host API Gateway reports, with a named stage, without $default's", () => {
    expect(linkBase(httpApiEvent(), API_GATEWAY)).toBe('https://api1234567.execute-api.eu-west-1.amazonaws.com');
    expect(linkBase(httpApiEvent({ path: '/prod/plants', stage: 'prod' }), API_GATEWAY)).toBe(
      'https://api1234567.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(linkBase(restApiEvent(), API_GATEWAY)).toBe('https://rest123456.execute-api.eu-west-1.amazonaws.com/prod');
    const china = httpApiEvent({ domainName: 'api1234567.execute-api.cn-north-1.amazonaws.com.cn' });
    expect(linkBase(china, API_GATEWAY)).toBe('https://api1234567.execute-api.cn-north-1.amazonaws.com.cn');
  });

  it('is PUBLIC_BASE_URL when configured, whatever host the request came on', () => {
    const settings = { ...API_GATEWAY, publicBaseUrl: 'https://api.example.com/v1' };
    expect(linkBase(httpApiEvent(), settings)).toBe('https://api.example.com/v1');
    expect(linkBase(httpApiEvent({ domainName: 'other.example.com' }), settings)).toBe('https://api.example.com/v1');
  });

  it.each([
    ['a custom domain the deployment did not configure', httpApiEvent({ domainName: 'api.example.com' })],
    ["another API's execute-api host", httpApiEvent({ domainName: 'zzz9999999.execute-api.eu-west-1.amazonaws.com' })],
    [
      'a host that only starts like execute-api',
      httpApiEvent({ domainName: 'api1234567.execute-api.eu-west-1.amazonaws.com.evil.example' }),
    ],
    [
      'an apiId API Gateway never issues',
      { ...httpApiEvent(), requestContext: { ...httpApiEvent().requestContext, apiId: 'local' } },
    ],
    ['a stage name API Gateway refuses', httpApiEvent({ stage: 'prod/../x' })],
  ])('is none (a relative link) for %s', (_, event) => {
    expect(linkBase(event, API_GATEWAY)).toBeUndefined();
  });

  it('is the host PUBLIC_HOST_HEADER names, when configured and a plain host name, else none', () => {
    const fronted = { ...API_GATEWAY, publicHostHeader: 'x-front-host' };
    const host = (value: string) => httpApiEvent({ headers: { 'x-front-host': value } });
    expect(linkBase(host('d111111abcdef8.cdn.example.net'), fronted)).toBe('https://d111111abcdef8.cdn.example.net');
    expect(linkBase(host('evil.example/x>; rel="prev", <https://evil.example'), fronted)).toBeUndefined();
    expect(linkBase(httpApiEvent(), fronted)).toBeUndefined();
    // Unconfigured, the header is nobody's to trust.
    expect(linkBase(host('d111111abcdef8.cdn.example.net'), API_GATEWAY)).toBe(
      'https://api1234567.execute-api.eu-west-1.amazonaws.com',
    );
  });

  it('ignores the Host header, which the client chooses', () => {
    const event = httpApiEvent({
      domainName: 'api.example.com',
      headers: { host: 'api1234567.execute-api.eu-west-1.amazonaws.com' },
    });
    expect(linkBase(event, API_GATEWAY)).toBeUndefined();
  });

  it('trusts no requestContext under sam local, which copies the Host header into it', () => {
    expect(linkBase(restApiEvent(), { ...API_GATEWAY, requestContextFromApiGateway: false })).toBeUndefined();
  });
});
