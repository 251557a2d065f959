// The request → HTTP API 2.0 event → response translation, against what API Gateway documents.

import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { queryParameters as handlerQuery, header } from '../../handlers/lib/http.ts';
import {
  clfTime,
  type EventContext,
  fromIncoming,
  type HttpRequest,
  queryParameters,
  toHttpApiEvent,
  toHttpReply,
} from '../../local/server/apigateway.ts';

const context: EventContext = {
  routeKey: 'GET /plants',
  requestId: 'JKJaXmPLvHcESHA=',
  now: new Date(Date.UTC(2026, 10, 21, 9, 5, 7)),
  port: 3000,
};
const request = (overrides: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'GET',
  url: '/plants',
  httpVersion: '1.1',
  headers: { host: ['localhost:3000'], 'user-agent': ['curl/8'] },
  sourceIp: '127.0.0.1',
  body: Buffer.alloc(0),
  ...overrides,
});

describe('toHttpApiEvent', () => {
  it('keeps the raw path and query string as sent and decodes the parameters, joining repeated keys with commas', () => {
    const event = toHttpApiEvent(request({ url: '/plants?limit=2&tag=a%20b&tag=c&empty=' }), context);
    expect(event).toMatchObject({
      version: '2.0',
      rawPath: '/plants',
      rawQueryString: 'limit=2&tag=a%20b&tag=c&empty=',
    });
    expect(event.queryStringParameters).toEqual({ limit: '2', tag: 'a b,c', empty: '' });
    // The handler reads the raw string, so it still tells a repeated key from a comma.
    expect(handlerQuery(event).get('tag')).toEqual(['a b', 'c']);
  });

  it('has no queryStringParameters when there is no query string', () => {
    const event = toHttpApiEvent(request({ url: '/plants' }), context);
    expect(event.rawQueryString).toBe('');
    expect(event).not.toHaveProperty('queryStringParameters');
  });

  it('joins repeated headers with commas and moves cookies to the cookies field', () => {
    const headers = { ...request().headers, 'x-custom': ['one', 'two'], cookie: ['a=1; b=2', 'c=3'] };
    const event = toHttpApiEvent(request({ headers }), context);
    expect(event.headers['x-custom']).toBe('one,two');
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(event.headers).not.toHaveProperty('cookie');
  });

  it('adds the forwarding headers API Gateway adds, with http as the protocol', () => {
    const event = toHttpApiEvent(
      request({ headers: { ...request().headers, 'x-forwarded-for': ['203.0.113.9'] } }),
      context,
    );
    expect(event.headers).toMatchObject({
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-port': '3000',
      'x-forwarded-proto': 'http',
    });
    expect(event.headers['x-amzn-trace-id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  });

  it('fills requestContext as API Gateway does', () => {
    const event = toHttpApiEvent(request(), context);
    expect(event.requestContext).toMatchObject({
      domainName: 'localhost:3000',
      http: { method: 'GET', path: '/plants', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'curl/8' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: 'GET /plants',
      stage: '$default',
      time: '21/Nov/2026:09:05:07 +0000',
      timeEpoch: context.now.getTime(),
    });
  });

  it("carries the route's path variables, and none for a route without any, as API Gateway does", () => {
    const byId = { ...context, routeKey: 'GET /plants/{id}', pathParameters: { id: 'café' } };
    expect(toHttpApiEvent(request({ url: '/plants/caf%C3%A9' }), byId)).toMatchObject({
      pathParameters: { id: 'café' },
    });
    expect(toHttpApiEvent(request(), { ...context, pathParameters: {} })).not.toHaveProperty('pathParameters');
  });

  it('passes text bodies as text and other bodies base64-encoded', () => {
    const json = toHttpApiEvent(
      request({ headers: { 'content-type': ['application/json'] }, body: Buffer.from('{"a":1}') }),
      context,
    );
    expect(json).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
    const binary = toHttpApiEvent(request({ body: Buffer.from([0, 255]) }), context);
    expect(binary).toMatchObject({ body: 'AP8=', isBase64Encoded: true });
    expect(toHttpApiEvent(request(), context)).toMatchObject({ isBase64Encoded: false });
    expect(toHttpApiEvent(request(), context)).not.toHaveProperty('body');
  });

  it('reads a real Node request: lower-cased names and every value of a repeated header', async () => {
    const server = createServer((req, res) => {
      res.end(JSON.stringify(toHttpApiEvent(fromIncoming(req, Buffer.alloc(0)), context)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({
        port,
        path: '/plants?a=1',
        headers: { 'X-Twice': ['1', '2'], Authorization: 'Bearer t' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
      });
      req.on('error', reject).end();
    });
    server.close();
    const event = JSON.parse(body);
    expect(event.headers).toMatchObject({ 'x-twice': '1,2', authorization: 'Bearer t', host: `localhost:${port}` });
    expect(header(event, 'Authorization')).toBe('Bearer t');
    expect(event.requestContext.http.sourceIp).toBe('127.0.0.1');
  });
});

describe('toHttpReply', () => {
  it('maps status, headers and body', () => {
    const reply = toHttpReply({
      statusCode: 201,
      headers: { 'Content-Type': 'text/plain', 'X-Count': 3 },
      body: 'made',
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.headers).toEqual([
      ['Content-Type', 'text/plain'],
      ['X-Count', '3'],
    ]);
    expect(reply.body.toString()).toBe('made');
  });

  it('decodes base64 bodies', () => {
    expect(toHttpReply({ statusCode: 200, body: 'AP8=', isBase64Encoded: true }).body).toEqual(Buffer.from([0, 255]));
  });

  it("answers 500 with API Gateway's own body for a result it cannot map", () => {
    for (const result of [{ statusCode: 'oops' }, [{ name: 'Fern' }], undefined]) {
      const reply = toHttpReply(result);
      expect(reply.statusCode).toBe(500);
      expect(JSON.parse(reply.body.toString())).toEqual({ message: 'Internal Server Error' });
    }
  });
});

it('queryParameters keeps the last key order and decodes plus signs as spaces', () => {
  expect(queryParameters('b=2&a=x+y&b=3')).toEqual({ b: '2,3', a: 'x y' });
});

it('clfTime formats the common log format time in UTC', () => {
  expect(clfTime(new Date(Date.UTC(2020, 2, 12, 19, 3, 58)))).toBe('12/Mar/2020:19:03:58 +0000');
});
