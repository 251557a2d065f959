// Next links resolve to the right place however the client addressed the API: each row is an
// event as API Gateway delivers it for one way of reaching the function, and the URL the client
// requested. The link, resolved as a client does (RFC 3986 §5), must lead back to that same
// resource and, followed, to the next page.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent, type RequestShape, restApiEvent } from './helpers/events.ts';
import { nextUrl } from './helpers/links.ts';
import { type Service, startService } from './helpers/service.ts';

let service: Service;
beforeAll(async () => {
  service = await startService();
  await service.seed([1, 2, 3].map((i) => ({ owner: 'alice', id: `p${i}`, name: `plant ${i}` })));
});
afterAll(() => service.stop());

type Shape = [string, 'http' | 'rest', string, Omit<RequestShape, 'query' | 'headers'>];
const shapes: Shape[] = [
  ['HTTP API, execute-api, $default stage', 'http', 'https://a1.execute-api.eu-west-1.amazonaws.com/plants', {}],
  [
    'HTTP API, execute-api, named stage',
    'http',
    'https://a1.execute-api.eu-west-1.amazonaws.com/prod/plants',
    { path: '/prod/plants', stage: 'prod' },
  ],
  // Payload 2.0's rawPath carries no API mapping key: "/plants", not "/v1/plants".
  [
    'HTTP API, custom domain, mapping key v1',
    'http',
    'https://api.example.com/v1/plants',
    { domainName: 'api.example.com' },
  ],
  [
    'HTTP API, custom domain, no mapping key',
    'http',
    'https://api.example.com/plants',
    { domainName: 'api.example.com' },
  ],
  ['HTTP API, behind a proxy adding /shop', 'http', 'https://www.example.com/shop/api/plants', {}],
  ['REST API, execute-api, stage prod', 'rest', 'https://r1.execute-api.eu-west-1.amazonaws.com/prod/plants', {}],
  [
    'REST API, custom domain, base path v2',
    'rest',
    'https://api.example.com/v2/plants',
    { domainName: 'api.example.com', path: '/v2/plants' },
  ],
];

describe.each(shapes)('%s', (_, flavour, requested, shape) => {
  const event = (query: string) => {
    const headers = { Authorization: `Bearer ${service.token('alice')}` };
    return flavour === 'http' ? httpApiEvent({ ...shape, query, headers }) : restApiEvent({ ...shape, query, headers });
  };

  it('links to the next page at the URL the client used', async () => {
    const first = await service.call(event('limit=2'));
    expect(first.body).toEqual([{ name: 'plant 1' }, { name: 'plant 2' }]);
    const next = nextUrl(first, `${requested}?limit=2`);
    expect(`${next?.origin}${next?.pathname}`).toBe(requested);

    const second = await service.call(event(next?.search.slice(1) ?? ''));
    expect(second.body).toEqual([{ name: 'plant 3' }]);
    expect(second.headers.link).toBeUndefined();
  });
});
