// The edge's CloudFront Function, run as CloudFront runs it on viewer-request events: what it lets
// through (the caller's token in the edge's header, the distribution's host) and what it answers
// itself (the API's 404 for any other path or method).

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { EDGE_HEADERS, NOT_FOUND, viewerFunctionCode } from '../../../infra/edge/viewer-function.ts';
import { acceptableSegment, hostileSegment } from '../../helpers/path-segments.ts';
import {
  type CloudFrontRequest,
  DISTRIBUTION_DOMAIN,
  isResponse,
  runViewerFunction,
  type ViewerRequest,
} from './cloudfront-function.ts';

const PATHS = ['/plants'];
const code = viewerFunctionCode({ paths: PATHS, methods: ['GET'] });
const withCors = viewerFunctionCode({ paths: PATHS, methods: ['GET', 'OPTIONS'] });

function forwarded(request: ViewerRequest, source = code): CloudFrontRequest {
  const result = runViewerFunction(source, request);
  if (isResponse(result)) throw new Error(`answered ${result.statusCode} instead of forwarding`);
  return result;
}
const headerOf = (request: CloudFrontRequest, name: string) => request.headers[name]?.value;

describe('the viewer-request function', () => {
  it('copies the caller’s Authorization to the edge’s header, which origin access control leaves alone', () => {
    const request = forwarded({ headers: { Authorization: 'Bearer abc.def.ghi' }, query: 'limit=2' });
    expect(headerOf(request, EDGE_HEADERS.authorization)).toBe('Bearer abc.def.ghi');
    expect(request.querystring).toEqual({ limit: { value: '2' } });
  });

  it('replaces a value the caller sent under the edge’s header with its own Authorization', () => {
    const request = forwarded({
      headers: { authorization: 'Bearer mine', [EDGE_HEADERS.authorization]: 'Bearer someone-else' },
    });
    expect(headerOf(request, EDGE_HEADERS.authorization)).toBe('Bearer mine');
  });

  it('removes the edge’s header when the caller sent no Authorization, so nothing forged reaches the function', () => {
    const request = forwarded({ headers: { [EDGE_HEADERS.authorization]: 'Bearer forged' } });
    expect(request.headers[EDGE_HEADERS.authorization]).toBeUndefined();
  });

  it('names the distribution’s host for next links, whatever the caller claimed', () => {
    const request = forwarded({ headers: { [EDGE_HEADERS.viewerHost]: 'evil.example' } });
    expect(headerOf(request, EDGE_HEADERS.viewerHost)).toBe(DISTRIBUTION_DOMAIN);
  });

  it.each([
    ['GET', '/'],
    ['GET', '/plants/'],
    ['GET', '/Plants'],
    ['GET', '/plants/1'],
    ['POST', '/plants'],
    ['HEAD', '/plants'],
    ['DELETE', '/plants'],
    ['OPTIONS', '/plants'],
  ])('answers %s %s itself with the API’s 404, as the HTTP API’s routes would', (method, uri) => {
    expect(runViewerFunction(code, { method, uri })).toEqual(JSON.parse(JSON.stringify(NOT_FOUND)));
  });

  it('matches a path template as the HTTP API does: one non-empty segment per variable', () => {
    const templated = viewerFunctionCode({ paths: ['/plants', '/plants/{id}'], methods: ['GET'] });
    expect(isResponse(runViewerFunction(templated, { uri: '/plants/p-1' }))).toBe(false);
    for (const uri of ['/plants/', '/plants/p-1/x', '/plantsX1']) {
      expect(isResponse(runViewerFunction(templated, { uri }))).toBe(true);
    }
  });

  it('refuses the path variables the route matcher refuses, as the same pattern in CloudFront’s runtime', () => {
    const templated = viewerFunctionCode({ paths: ['/plants/{id}'], methods: ['GET'] });
    fc.assert(
      fc.property(hostileSegment, (segment) => {
        const answered = isResponse(runViewerFunction(templated, { uri: `/plants/${segment}` }));
        expect(answered).toBe(!acceptableSegment(segment));
      }),
      { seed: Number(process.env.FC_SEED ?? 20261129), numRuns: 300 },
    );
  });

  it('lets preflights through to the function URL’s CORS only where origins are allowed', () => {
    expect(isResponse(runViewerFunction(withCors, { method: 'OPTIONS' }))).toBe(false);
    expect(isResponse(runViewerFunction(code, { method: 'OPTIONS' }))).toBe(true);
  });
});
