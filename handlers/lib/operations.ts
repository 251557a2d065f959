// The API's operations, each written once: its operationId in openapi.yaml and its route, and the one
// matcher of a request's path against a route's template, which the local server, the edge's
// middleware and its CloudFront function use as API Gateway matches routes. The stack's routes, the
// function's next link and request record, the test events and the lab read this table;
// test/openapi.test.ts holds it to openapi.yaml.

import type { ApiEvent } from './http.ts';

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
  path: '/plants',
  tableCalls: ['Query'],
} as const satisfies Operation;

/** Every operation of the API. Adding one: docs/layout.md, "Adding an operation". */
export const OPERATIONS: readonly Operation[] = [LIST_PLANTS];

/** Every call the operations make on the table, once each, in the table's order. */
export const tableCallsOf = (operations: readonly Operation[]): TableCall[] => [
  ...new Set(operations.flatMap(({ tableCalls }) => tableCalls)),
];

/** `GET /plants`: API Gateway's route key, and the local server's. */
export const routeKeyOf = ({ method, path }: Operation): string => `${method} ${path}`;

/**
 * A path template as a pattern over a request's path: each `{name}` one non-empty segment, as HTTP
 * APIs match path variables; the rest literally. Its `source` also runs in the edge's CloudFront
 * function (infra/edge/viewer-function.ts).
 */
export function pathPattern(template: string): RegExp {
  const parts = template.split(/\{[^/{}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

const PATTERNS = new Map(OPERATIONS.map((operation) => [operation, pathPattern(operation.path)]));

/** The operation whose route a request's method and path match, as API Gateway routes it; or undefined. */
export function routeOf(method: string, path: string): Operation | undefined {
  return OPERATIONS.find((operation) => operation.method === method && PATTERNS.get(operation)?.test(path));
}

/**
 * The operation API Gateway routed this event to: payload 2.0's `routeKey` (behind the edge, the
 * route its middleware found); payload 1.0's method and resource (REST's route, without the stage).
 * Undefined for a route the table doesn't hold.
 */
export function operationOf(event: ApiEvent): Operation | undefined {
  const key = 'routeKey' in event ? event.routeKey : `${event.httpMethod} ${event.resource}`;
  return OPERATIONS.find((operation) => routeKeyOf(operation) === key);
}
