// Requests no route of the operation table serves, derived from the table so that a new route never
// turns an example into a failure: each path with every method it doesn't take, with a trailing slash
// and in capitals, under another resource, and the root.

import { type HttpMethod, OPERATIONS, routeOf } from '../../handlers/lib/operations.ts';

const METHODS: HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** [method, path] pairs API Gateway would answer 404 (HTTP APIs have no 405), each checked against the table. */
export function notRoutes(): [string, string][] {
  // A concrete path for a template: each `{name}` a plain segment.
  const paths = OPERATIONS.map(({ path }) => path.replace(/\{[^/{}]+\}/g, 'p1'));
  const candidates: [string, string][] = [
    ...paths.flatMap((path) => METHODS.map((method): [string, string] => [method, path])),
    ...paths.flatMap((path): [string, string][] => [
      ['GET', `${path}/`],
      ['GET', path.toUpperCase()],
      ['GET', `/nothing-here${path}`],
    ]),
    ['GET', '/'],
    ['POST', '/'],
  ];
  return candidates.filter(([method, path]) => routeOf(method, path) === undefined);
}
