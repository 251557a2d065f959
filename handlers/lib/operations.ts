// The API's operations, each written once: its operationId in openapi.yaml and its route, and the one
// matcher of a request's path against a route's template, which the function's catch-all route, the
// local server and a front that routes before the function (an option's) use as API Gateway matches routes. The stack's routes, the
// function's next link and request record, the test events and the lab read this table;
// test/openapi.test.ts holds it to openapi.yaml.

import type { ApiEvent } from './http.ts';
import { COLLECTION } from './names.ts';

/** The methods a route may take (API Gateway's HTTP API route methods). */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * A DynamoDB call an operation's handler makes on the table: its IAM action (`dynamodb:<call>`), the
 * function's grant, and the `Operation` dimension of DynamoDB's request metrics.
 */
export type TableCall =
  | 'Query'
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'TransactGetItems'
  | 'TransactWriteItems';

export interface Operation {
  /** The operation's `operationId` in openapi.yaml. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The route's path template, as API Gateway matches it (`/plants/{id}`: no stage, no base path). */
  readonly path: string;
  /** What its handler calls on the table: the function is granted these and nothing else. */
  readonly tableCalls: readonly TableCall[];
}

export const LIST_PLANTS = {
  operationId: 'listPlants',
  method: 'GET',
  path: `/${COLLECTION}`,
  tableCalls: ['Query'],
} as const satisfies Operation;

/** Every operation of the API. Adding one: docs/layout.md, "Adding an operation". */
export const OPERATIONS: readonly Operation[] = [LIST_PLANTS];

/** Every call the operations make on the table, once each, in the table's order. */
export const tableCallsOf = (operations: readonly Operation[]): TableCall[] => [
  ...new Set(operations.flatMap(({ tableCalls }) => tableCalls)),
];

/**
 * The longest route key a route may have: the access log's `route` field (telemetry-names.ts), which
 * the lab's worst hour prices at this length, so that a new route moves no committed figure.
 */
export const MAX_ROUTE_KEY_LENGTH = 64;

/** `GET /plants`: API Gateway's route key, and the local server's. */
export const routeKeyOf = ({ method, path }: Operation): string => `${method} ${path}`;

// What a path variable may hold, raw or percent-encoded as each surface sees the path: no `/` or `\`
// (nor %2F, %5C), no control character (nor %00-%1F, %7F), no `%` outside an escape, and not `.` or
// `..` in any spelling, which a proxy or a handler might resolve. Written with ES 5.1's regular
// expressions only (no lookahead, no \p{…}), which the most limited runtime a front may match it in has.
const DOT = String.raw`\.|%2[Ee]`;
const NOT_DOT = [
  String.raw`[^/\\%.\x00-\x1f\x7f-\x9f]`,
  '%2[0-9A-Da-d]',
  '%[346][0-9A-Fa-f]',
  '%5[0-9ABD-Fabd-f]',
  '%7[0-9A-Ea-e]',
  '%[89A-Fa-f][0-9A-Fa-f]',
].join('|');
/** One path variable's segment: at least one unit that is not a dot, or three dots or more. */
const VARIABLE = `(?:(?:${DOT})*(?:${NOT_DOT})(?:${DOT}|${NOT_DOT})*|(?:${DOT}){3,})`;

/**
 * A path template as a pattern over a request's path: each `{name}` one non-empty segment, as HTTP
 * APIs match path variables, of what VARIABLE allows; the rest literally. Its `source` may run in a
 * front's own request function too, so it keeps to ES 5.1.
 */
export function pathPattern(template: string, capture = false): RegExp {
  const parts = template.split(/\{[^/{}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join(capture ? `(${VARIABLE})` : VARIABLE)}$`);
}

/**
 * The path variables of a request's path under an operation's template (`/plants/{id}` and `/plants/p1`:
 * `{ id: 'p1' }`), decoded as HTTP APIs decode them; undefined when the path doesn't match or a value
 * isn't valid percent-encoded UTF-8. `{}` for a template without variables.
 */
export function pathParametersOf({ path: template }: Operation, path: string): Record<string, string> | undefined {
  const names = [...template.matchAll(/\{([^/{}]+)\}/g)].map(([, name]) => name ?? '');
  const values = pathPattern(template, true).exec(path)?.slice(1);
  if (values === undefined) return undefined;
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
  } catch {
    return undefined;
  }
}

const PATTERNS = new Map(OPERATIONS.map((operation) => [operation, pathPattern(operation.path)]));

/** The operation whose route a request's method and path match, as API Gateway routes it; or undefined. */
export function routeOf(method: string, path: string): Operation | undefined {
  return OPERATIONS.find((operation) => operation.method === method && PATTERNS.get(operation)?.test(path));
}

/** An event of a catch-all route: an HTTP API's `$default` route, or a front's that forwards every path. */
export const isCatchAll = (event: ApiEvent): boolean => 'routeKey' in event && event.routeKey === '$default';

/**
 * The operation API Gateway routed this event to: payload 2.0's `routeKey`; payload 1.0's method and
 * resource (REST's route, without the stage); a catch-all route's by its method and path, as API
 * Gateway routes. Undefined for a route the table doesn't hold.
 */
export function operationOf(event: ApiEvent): Operation | undefined {
  if (isCatchAll(event) && 'rawPath' in event) {
    const operation = routeOf(event.requestContext.http.method, event.rawPath);
    return operation && pathParametersOf(operation, event.rawPath) ? operation : undefined;
  }
  const key = 'routeKey' in event ? event.routeKey : `${event.httpMethod} ${event.resource}`;
  return OPERATIONS.find((operation) => routeKeyOf(operation) === key);
}
