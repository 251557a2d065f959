// The API's operations, each written once: its operationId in openapi.yaml and its route. The
// stack's routes, the local server's matcher, the function's next link and request record, the test
// events and the bench read this table; test/openapi.test.ts holds it to openapi.yaml.

import type { ApiEvent } from './http.ts';

export interface Operation {
  /** The operation's `operationId` in openapi.yaml. */
  readonly operationId: string;
  readonly method: 'GET';
  /** The route's path, as API Gateway matches it (no stage, no custom domain's base path). */
  readonly path: string;
}

export const LIST_PLANTS = { operationId: 'listPlants', method: 'GET', path: '/plants' } as const satisfies Operation;

/** Every operation of the API. Adding one: docs/layout.md, "Adding an operation". */
export const OPERATIONS: readonly Operation[] = [LIST_PLANTS];

/** `GET /plants`: API Gateway's route key, and the local server's. */
export const routeKeyOf = ({ method, path }: Operation): string => `${method} ${path}`;

/**
 * The operation API Gateway routed this event to: payload 2.0's `routeKey` (behind the edge, the
 * route its middleware found); payload 1.0's method and resource (REST's route, without the stage).
 * Undefined for a route the table doesn't hold.
 */
export function operationOf(event: ApiEvent): Operation | undefined {
  const key = 'routeKey' in event ? event.routeKey : `${event.httpMethod} ${event.resource}`;
  return OPERATIONS.find((operation) => routeKeyOf(operation) === key);
}
