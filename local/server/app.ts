// Routes of the local server: the API through the bundled handler, the docs, the JWKS, else 404.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pathParametersOf, routeKeyOf, routeOf } from '../../handlers/lib/operations.ts';
import { accessLine } from './access-log.ts';
import { errorReply, fromIncoming, type HttpReply, newRequestId, toHttpApiEvent, toHttpReply } from './apigateway.ts';
import { hostRefusal } from './connections.ts';
import { docsReply, NOSNIFF } from './docs.ts';
import { type Handler, lambdaContext, oneAtATime } from './lambda.ts';
import { linkOnOrigin, originFor } from './listen-address.ts';

/** API Gateway's payload limit for HTTP APIs. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** `fromFunction`: the handler answered, rather than the gateway or the local server's own pages. */
type RoutedReply = HttpReply & { fromFunction?: boolean };

/**
 * `origins`: those this server answers as, the first given out (listen-address.ts); `authorizeHelp`: how to
 * get a token for the API reference's "Authorize"; `jwks`: the local issuer's keys, also served here.
 */
export function createApp({
  handler,
  port,
  origins,
  authorizeHelp,
  jwks,
  log,
}: {
  handler: Handler;
  port: number;
  origins: readonly string[];
  authorizeHelp: string;
  jwks: object | undefined;
  log: (line: string) => void;
}): RequestListener {
  // Each invocation's context (its clock) starts when its turn comes, as Lambda's would.
  const invoke = oneAtATime((event: unknown) => handler(event, lambdaContext()));
  return async (req, res) => {
    const started = performance.now();
    const time = new Date();
    const requestId = newRequestId();
    const reply = await route(req, requestId).catch((error: unknown): RoutedReply => {
      // The caller left, or was closed for sending too slowly, before its request was in: no one to answer.
      if (req.destroyed && !req.complete) return errorReply(408, 'Request Timeout');
      console.error(error);
      return errorReply(500, 'Internal Server Error');
    });
    send(res, reply, requestId);
    const ms = performance.now() - started;
    // Why the function refused a request is its own record's `reason`, printed just before this line.
    log(accessLine({ time, method: req.method, url: req.url, status: reply.statusCode, ms, requestId }));
  };

  async function route(req: IncomingMessage, requestId: string): Promise<RoutedReply> {
    const refused = hostRefusal(req.httpVersion, req.headersDistinct.host);
    if (refused) return { ...refused, headers: [...refused.headers, ['connection', 'close']] };
    const body = await readBody(req);
    if (body === undefined) return errorReply(413, 'Request Entity Too Large');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const operation = routeOf(req.method ?? '', path);
    // The route's path variables, decoded as API Gateway decodes them (none can't be decoded: no route).
    const pathParameters = operation && pathParametersOf(operation, path);
    if (operation && pathParameters) {
      const routeKey = routeKeyOf(operation);
      const context = { routeKey, pathParameters, requestId, now: new Date(), port };
      const event = toHttpApiEvent(fromIncoming(req, body), context);
      try {
        const reply = toHttpReply(await invoke(event));
        const [given = '', called = given] = [origins[0], originFor(req.headers.host, origins)];
        const headers = reply.headers.map(([name, value]): [string, string] =>
          name.toLowerCase() === 'link' ? [name, linkOnOrigin(value, given, called)] : [name, value],
        );
        return { ...reply, headers, fromFunction: true };
      } catch (error) {
        // An error that escapes the function: API Gateway answers 500 and the log has the cause.
        console.error(error);
        return errorReply(500, 'Internal Server Error');
      }
    }
    if (req.method === 'GET') {
      // The first thing a browser asks for: the API reference (not an API Gateway route).
      if (path === '/') return { statusCode: 302, headers: [['location', '/docs'], NOSNIFF], body: Buffer.alloc(0) };
      // The document names this server as a client reached it, and never a Host it doesn't know.
      const docs = await docsReply(path, originFor(req.headers.host, origins), authorizeHelp);
      if (docs) return docs;
      if (jwks && path === '/.well-known/jwks.json') {
        return {
          statusCode: 200,
          headers: [['content-type', 'application/json'], NOSNIFF],
          body: Buffer.from(JSON.stringify(jwks)),
        };
      }
    }
    return errorReply(404, 'Not Found');
  }
}

function send(res: ServerResponse, reply: HttpReply, requestId: string): void {
  const headers = [...reply.headers, ['apigw-requestid', requestId], ['content-length', String(reply.body.length)]];
  res.writeHead(reply.statusCode, headers.flat());
  res.end(reply.body);
}

/** The whole body, or undefined when it exceeds the limit (read to the end, so a reply can follow). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks);
}
