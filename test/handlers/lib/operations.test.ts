// The operation table's one route matcher, which the local server, the edge's middleware and its
// CloudFront function share: a request's method and path to the operation API Gateway would route.

import { describe, expect, it } from '@jest/globals';
import { LIST_PLANTS, OPERATIONS, pathPattern, routeOf } from '../../../handlers/lib/operations.ts';

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

describe('routeOf', () => {
  it('finds each operation of the table by its method and path', () => {
    for (const operation of OPERATIONS) expect(routeOf(operation.method, operation.path)).toBe(operation);
  });

  it('finds none for another method or path', () => {
    expect(routeOf('POST', LIST_PLANTS.path)).toBeUndefined();
    expect(routeOf('HEAD', LIST_PLANTS.path)).toBeUndefined();
    expect(routeOf(LIST_PLANTS.method, `${LIST_PLANTS.path}/`)).toBeUndefined();
  });
});
