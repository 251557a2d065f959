// Lambda entry: each operation of the table (handlers/lib/operations.ts) to its handler; today one,
// GET /plants, the plants the caller has access to, one page at a time.

import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { authenticate } from './lib/auth/authenticate.ts';
import { createTokenVerifier } from './lib/auth/token-verifier.ts';
import { readConfig } from './lib/config.ts';
import { decodeCursor, encodeCursor } from './lib/cursor.ts';
import { createPlantsClient } from './lib/dynamodb-client.ts';
import { NotFoundError, SERVER_ERROR_BODY } from './lib/errors.ts';
import { createGroupCache } from './lib/group-cache.ts';
import { type ApiEvent, errorResponses, header, json, nextLink, queryParameters } from './lib/http.ts';
import { parseLimit } from './lib/limit.ts';
import {
  loadTracer,
  noteCaller,
  notePlantsReturned,
  recordInit,
  requestTelemetry,
  startTracing,
  traceHandler,
} from './lib/observability.ts';
import { isCatchAll, LIST_PLANTS, operationOf, pathParametersOf } from './lib/operations.ts';
import { PAGE_BYTE_BUDGET, pageBody } from './lib/page-budget.ts';
import { accessiblePartitions } from './lib/partitions.ts';
import { readPlantsPage } from './lib/plants.ts';
import { linkBase } from './lib/public-url.ts';
import { INIT_WARM_UP_BUDGET_MS, settleWithin, warmUpPlantsClient } from './lib/warm-up.ts';

const config = readConfig();
loadTracer(config.telemetry);
const verifyToken = createTokenVerifier(config.auth);
const plantsClient = createPlantsClient(config);
const groupCache = createGroupCache(config.groupCache);
// The JWKS and DynamoDB's connection are made ready together during init, before tracing starts:
// outside an invocation there is no trace to record them in.
const warmUp = warmUpPlantsClient(plantsClient, config.tableName);
await settleWithin([verifyToken.hydrated, warmUp], INIT_WARM_UP_BUDGET_MS);
// From here on, with tracing on, each DynamoDB call is a subsegment of its invocation's trace.
await startTracing(config.telemetry);
recordInit(config.telemetry);

async function listPlants(event: ApiEvent, context: Context): Promise<APIGatewayProxyResult> {
  const caller = await authenticate(header(event, config.auth.tokenHeader), verifyToken, config.auth);
  noteCaller(context, caller.sub);

  // The caller's own partition, then one per group the verified token names: nothing else.
  const partitions = accessiblePartitions(caller);
  const query = queryParameters(event);
  const limit = parseLimit(query.get('limit'), config.maxPageSize);
  const from = decodeCursor(query.get('cursor'), caller.sub, partitions);

  const page = await readPlantsPage(plantsClient, config.tableName, {
    partitions,
    from,
    limit,
    byteBudget: PAGE_BYTE_BUDGET,
    deadlineMs: config.dynamodbDeadlineMs,
    groupCache,
  });
  notePlantsReturned(context, page.plants.length);

  const body = pageBody(page.plants);
  if (page.next === undefined) return json(body);
  const next = new URLSearchParams({ limit: String(limit), cursor: encodeCursor(caller.sub, partitions, page.next) });
  return json(body, { Link: nextLink(LIST_PLANTS.path, next, linkBase(event, config)) });
}

/** Each operation's handler, by its operationId in the table (handlers/lib/operations.ts). */
const OPERATION_HANDLERS: Record<string, (event: ApiEvent, context: Context) => Promise<APIGatewayProxyResult>> = {
  [LIST_PLANTS.operationId]: listPlants,
};

function dispatch(event: ApiEvent, context: Context): Promise<APIGatewayProxyResult> {
  const operation = operationOf(event);
  // A catch-all route (`$default`, a front forwarding every path) routes here: a path of no operation is a 404, as
  // API Gateway answers one it has no route for.
  if (!operation && isCatchAll(event)) throw new NotFoundError();
  // …with the path variables API Gateway would have sent with a route of its own.
  if (operation && isCatchAll(event) && 'rawPath' in event) {
    const variables = pathParametersOf(operation, event.rawPath) ?? {};
    if (Object.keys(variables).length > 0) event.pathParameters ??= variables;
  }
  const handle = operation && OPERATION_HANDLERS[operation.operationId];
  // Else only the table's routes reach the function (the stack's, the local server's matcher):
  // another is a wiring fault, a 500 whose cause the request record keeps.
  if (!handle)
    throw new Error(`The function has no operation for this route: ${operation?.operationId ?? 'none in the table'}`);
  return handle(event, context);
}

export const handler = middy<ApiEvent, APIGatewayProxyResult>()
  .use(traceHandler())
  // The one record of a refused or failed request, the 5xx's cause included (never the event: it
  // carries the token).
  .use(requestTelemetry(config.telemetry))
  // errorResponses answers every error itself; Middy's handler is the last resort should a response
  // ever be missing (it writes nothing when one is set), with the contract's generic 500 body.
  .use(httpErrorHandler({ logger: false, fallbackMessage: SERVER_ERROR_BODY }))
  .use(errorResponses())
  .handler(dispatch);
