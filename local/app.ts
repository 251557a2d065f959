// Routes of the local server: the API's one route through the bundled handler, the docs, the
// local issuer's JWKS, and API Gateway's own answers for everything else.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { errorReply, fromIncoming, type HttpReply, newRequestId, toHttpApiEvent, toHttpReply } from './apigateway.ts';
import { docsReply } from './docs.ts';
import { type Handler, lambdaContext } from './lambda.ts';
import type { RefusalExplainer } from './refusal.ts';

/** The API's routes, as the stack declares them on the HTTP API. */
const ROUTES = new Set(['GET /plants']);
/** API Gateway's payload limit for HTTP APIs. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** `fromFunction`: the handler answered, rather than the gateway or the local server's own pages. */
type RoutedReply = HttpReply & { fromFunction?: boolean };

export interface AppOptions {
  handler: Handler;
  port: number;
  /** The local issuer's key set, also served over plain HTTP for people and tools. */
  jwks: object | undefined;
  /** Says why the function answered 401 or 403, for the log (the caller sees a short reason). */
  explainRefusal?: RefusalExplainer | undefined;
  log: (line: string) => void;
}

export function createApp({ handler, port, jwks, explainRefusal, log }: AppOptions): RequestListener {
  return async (req, res) => {
    const started = performance.now();
    const requestId = newRequestId();
    const reply = await route(req, requestId).catch((error: unknown): RoutedReply => {
      console.error(error);
      return errorReply(500, 'Internal Server Error');
    });
    send(res, reply, requestId);
    const ms = (performance.now() - started).toFixed(1);
    log(`${new Date().toISOString()} ${req.method} ${req.url} ${reply.statusCode} ${ms} ms ${requestId}`);
    if (explainRefusal && reply.fromFunction && (reply.statusCode === 401 || reply.statusCode === 403)) {
      log(`  ${reply.statusCode} because: ${await explainRefusal(req.headers.authorization)}`);
    }
  };

  async function route(req: IncomingMessage, requestId: string): Promise<RoutedReply> {
    const body = await readBody(req);
    if (body === undefined) return errorReply(413, 'Request Entity Too Large');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const routeKey = `${req.method} ${path}`;
    if (ROUTES.has(routeKey)) {
      const event = toHttpApiEvent(fromIncoming(req, body), { routeKey, requestId, now: new Date(), port });
      try {
        return { ...toHttpReply(await handler(event, lambdaContext())), fromFunction: true };
      } catch (error) {
        // An error that escapes the function: API Gateway answers 500 and the log has the cause.
        console.error(error);
        return errorReply(500, 'Internal Server Error');
      }
    }
    if (req.method === 'GET') {
      // The first thing a browser asks for: the API reference (not an API Gateway route).
      if (path === '/') return { statusCode: 302, headers: [['location', '/docs']], body: Buffer.alloc(0) };
      const docs = await docsReply(path, `http://${req.headers.host ?? `localhost:${port}`}`);
      if (docs) return docs;
      if (jwks && path === '/.well-known/jwks.json') {
        return {
          statusCode: 200,
          headers: [['content-type', 'application/json']],
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
