// The operation table's one route matcher, which the local server and an option's front share: a
// request's method and path to the operation API Gateway would route.

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  LIST_PLANTS,
  MAX_ROUTE_KEY_LENGTH,
  OPERATIONS,
  pathParametersOf,
  pathPattern,
  routeKeyOf,
  routeOf,
} from '../../../handlers/lib/operations.ts';
import { notRoutes } from '../../helpers/not-routes.ts';
import { acceptableSegment, hostileSegment } from '../../helpers/path-segments.ts';

const SEED = Number(process.env.FC_SEED ?? 20261129);
const SCALE = Number(process.env.FC_RUNS ?? 1);
const PATH = process.env.FC_PATH;

describe('pathPattern', () => {
  it('matches a literal path exactly', () => {
    const pattern = pathPattern('/plants');
    expect(pattern.test('/plants')).toBe(true);
    for (const path of ['/plants/', '/Plants', '/plants/1', '/plantsX', '/x/plants'])
      expect(pattern.test(path)).toBe(false);
  });

  it('matches each {variable} as one non-empty segment, and escapes the rest', () => {
    const pattern = pathPattern('/plants/{id}/v1.0');
    expect(pattern.test('/plants/p-1/v1.0')).toBe(true);
    for (const path of ['/plants//v1.0', '/plants/a/b/v1.0', '/plants/p-1/v1x0'])
      expect(pattern.test(path)).toBe(false);
  });
});

describe('a path variable', () => {
  const pattern = pathPattern('/plants/{id}');

  it.each(['.', '..', '%2e%2E', '%2F', '%2f', 'a%5Cb', '%00', 'a%0Ab', '%7f', 'a\\b', 'a\u0000b', 'a\nb', '%', '%zz'])(
    'refuses %j: traversal, an encoded separator or control, a raw one, a stray %',
    (segment) => {
      expect(pattern.test(`/plants/${segment}`)).toBe(false);
    },
  );

  it.each(['p-1', '...', '.hidden', 'a%2Eb', '%7E', 'caf%C3%A9', 'café'])('matches %j', (segment) => {
    expect(pattern.test(`/plants/${segment}`)).toBe(true);
  });

  it('matches exactly the segments that decode to something safe to pass on', () => {
    fc.assert(
      fc.property(hostileSegment, (segment) => {
        expect(pattern.test(`/plants/${segment}`)).toBe(acceptableSegment(segment));
      }),
      { seed: SEED, numRuns: 2000 * SCALE, ...(PATH && { path: PATH }) },
    );
  });

  // A front's request function may run on an ES 5.1 runtime, whose regular expressions have neither.
  it('is written without lookaround or Unicode property escapes, for an ES 5.1 runtime', () => {
    expect(pattern.source).not.toMatch(/\(\?[=!<]|\\[pP]\{/);
    expect(pattern.flags).toBe('');
  });
});

describe('routeOf', () => {
  it('finds each operation of the table by its method and path', () => {
    for (const operation of OPERATIONS) expect(routeOf(operation.method, operation.path)).toBe(operation);
  });

  it('finds none for a method no route of a path takes, or a path no route has', () => {
    for (const [method, path] of notRoutes())
      expect({ method, path, route: routeOf(method, path) }).toEqual({ method, path, route: undefined });
  });
});

describe('the table', () => {
  it('keeps every route key within the length the access log is priced at', () => {
    for (const operation of OPERATIONS) expect(routeKeyOf(operation).length).toBeLessThanOrEqual(MAX_ROUTE_KEY_LENGTH);
  });
});

describe('pathParametersOf', () => {
  const byId = { ...LIST_PLANTS, path: '/plants/{id}/notes/{note}' };

  it('names each variable of the template with its segment, decoded as HTTP APIs decode it', () => {
    expect(pathParametersOf(byId, '/plants/p1/notes/caf%C3%A9')).toEqual({ id: 'p1', note: 'café' });
    expect(pathParametersOf(LIST_PLANTS, LIST_PLANTS.path)).toEqual({});
  });

  it('finds none where the path does not match or a segment is not valid percent-encoded UTF-8', () => {
    expect(pathParametersOf(byId, '/plants/p1')).toBeUndefined();
    expect(pathParametersOf(byId, '/plants/%2F/notes/n1')).toBeUndefined();
    expect(pathParametersOf(byId, '/plants/%C3/notes/n1')).toBeUndefined();
  });
});
