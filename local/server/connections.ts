// The local server's connections: deadlines for callers that send slowly or nothing, and answers in
// the contract's shape to what Node refuses before any request listener sees it.

import { createServer, type RequestListener, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { BadRequestError, toErrorResponse } from '../../handlers/lib/errors.ts';
import { COMMON_HEADERS } from '../../handlers/lib/http.ts';
import { errorReply, type HttpReply } from './apigateway.ts';

/**
 * Node's defaults leave a connection that sends nothing open for a minute and a half (headers: 60 s,
 * checked every 30 s) and a slow request for 5 minutes. A request's headers arrive in one packet, and
 * its body (at most API Gateway's 10 MB) in well under a second on loopback: these leave a laptop at
 * load 30 a wide margin. An idle kept-alive connection closes after 60 s, not Node's 5 s: a client
 * that pools connections (fetch keeps one 4 s) reuses one it still thinks open, and on a busy machine
 * its own timer fires late, so a close at 5 s met its next request ("other side closed") at load 45.
 */
export const CONNECTION_DEADLINES = { headersMs: 20_000, requestMs: 60_000, keepAliveMs: 60_000, checkEveryMs: 1_000 };

/** The HTTP server for `listener`, with the deadlines above and every refusal in the contract's shape. */
export function createLocalServer(listener: RequestListener, deadlines = CONNECTION_DEADLINES): Server {
  const server = createServer(
    {
      headersTimeout: deadlines.headersMs,
      requestTimeout: deadlines.requestMs,
      keepAliveTimeout: deadlines.keepAliveMs,
      connectionsCheckingInterval: deadlines.checkEveryMs,
      // Node's own 400 for a missing Host has no body: the request listener refuses it (hostRefusal).
      requireHostHeader: false,
    },
    listener,
  );
  server.on('clientError', answerClientError);
  // An expectation other than 100-continue is ignored, as RFC 9110 allows: Node's 417 is no status
  // the contract knows, and a GET has no body to hold back.
  server.on('checkExpectation', listener);
  return server;
}

/** A 400 as the function refuses a request: the `Error` body, `Cache-Control` and `X-Content-Type-Options`. */
export function badRequestReply(message: string): HttpReply {
  const { headers, body } = toErrorResponse(new BadRequestError(message));
  return { statusCode: 400, headers: Object.entries({ ...COMMON_HEADERS, ...headers }), body: Buffer.from(body) };
}

/** Exactly one Host on HTTP/1.1 (none is allowed on 1.0): two could name two origins to two readers. */
export function hostRefusal(httpVersion: string, hosts: readonly string[] | undefined): HttpReply | undefined {
  const count = hosts?.length ?? 0;
  if (count > 1 || (count === 0 && httpVersion === '1.1')) {
    return badRequestReply('A request must carry exactly one Host header');
  }
  return undefined;
}

/** Node's refusals by its parser's error code: past 16 KiB of headers, chunk extensions too long, else 400. */
function refusalOf(code: string | undefined): HttpReply {
  if (code === 'HPE_HEADER_OVERFLOW') return errorReply(431, 'Request Header Fields Too Large');
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return errorReply(413, 'Request Entity Too Large');
  return badRequestReply('Malformed HTTP request');
}

/**
 * The `clientError` listener. A caller too slow to send its request (often one that sent nothing, like
 * a browser's preconnect) is closed without an answer it would not read; so is one whose socket is
 * gone, or whose previous answer is on the wire already. Anything else gets its refusal, then close.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable || inFlight) return void socket.destroy();
  const { statusCode, headers, body } = refusalOf(error.code);
  const head = [...headers, ['content-length', String(body.length)], ['connection', 'close']];
  const lines = [
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}`,
    ...head.map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]));
}
