// Requests no route of the operation table serves, derived from the table (never from the matcher
// they test), so that a new route never turns an example into a failure: each path with every method
// none of its routes takes, with a trailing slash and in capitals, under another resource, and a POST
// to the root (not GET /: the local server redirects it to its API reference).

import { type HttpMethod, OPERATIONS } from '../../handlers/lib/operations.ts';

// Not HEAD: its 404 carries no body to check.
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A concrete path for a route's template: each `{name}` a plain segment. */
export const concretePath = (template: string) => template.replace(/\{[^/{}]+\}/g, 'p1');

/** [method, path] pairs API Gateway would answer 404 (HTTP APIs have no 405). */
export function notRoutes(): [string, string][] {
  const templates = [...new Set(OPERATIONS.map(({ path }) => path))];
  return [
    ...templates.flatMap((template) => {
      const taken = new Set(OPERATIONS.filter(({ path }) => path === template).map(({ method }) => method));
      const path = concretePath(template);
      return [
        ...METHODS.filter((method) => !taken.has(method)).map((method): [string, string] => [method, path]),
        ['GET', `${path}/`],
        ['GET', path.toUpperCase()],
        ['GET', `/nothing-here${path}`],
      ] satisfies [string, string][];
    }),
    ['POST', '/'],
  ];
}
