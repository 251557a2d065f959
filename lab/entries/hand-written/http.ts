// One HTTPS (or, for a local endpoint, HTTP) POST to DynamoDB over keep-alive connections, with the
// timeouts the SDK client has (node-http-handler's connectionTimeout and requestTimeout).

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** How long a new connection may take to open (TCP), and a request may wait on its socket. */
export interface Timeouts {
  connectionMs: number;
  requestMs: number;
}

// The SDK's node-http-handler defaults: connections kept alive, 50 at most per host.
const AGENT = { keepAlive: true, maxSockets: 50 };

export interface Agents {
  'http:': HttpAgent;
  'https:': HttpsAgent;
}

export const createAgents = (): Agents => ({ 'http:': new HttpAgent(AGENT), 'https:': new HttpsAgent(AGENT) });

/** A failure named as the SDK names it, so its retry classification (TimeoutError: transient) applies. */
const timeoutError = (what: string, ms: number) =>
  Object.assign(new Error(`${what} timed out after ${ms} ms`), { name: 'TimeoutError' });

/** One POST with the SDK's node-http-handler timeouts: connecting (TCP) and waiting on the socket. */
export function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  agents: Agents,
  { connectionMs, requestMs }: Timeouts,
  signal: AbortSignal | undefined,
): Promise<{ status: number; requestId: string | undefined; text: string }> {
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const options = {
      method: 'POST',
      hostname: url.hostname,
      port: url.port,
      path: url.pathname,
      headers,
      agent: https ? agents['https:'] : agents['http:'],
      ...(signal && { signal }),
    };
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const requestId = response.headers['x-amzn-requestid'];
        const text = Buffer.concat(chunks).toString();
        resolve({
          status: response.statusCode ?? 0,
          requestId: typeof requestId === 'string' ? requestId : undefined,
          text,
        });
      });
    };
    const request = https ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
    const timeout = (what: string, ms: number) => request.destroy(timeoutError(what, ms));
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => timeout('Connection', connectionMs), connectionMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.setTimeout(requestMs, () => timeout('Request', requestMs));
    request.on('error', reject);
    request.end(body);
  });
}
