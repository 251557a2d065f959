// A modelled network for the benchmark: a TCP proxy that delays every segment by half a round
// trip each way (and the connection's first bytes by one more round trip, the TCP handshake a
// loopback connect skips), and a TLS front for dynalite, because DynamoDB on AWS is HTTPS only
// and the first TLS connection of a process is real CPU that a plain-http bench never pays.

import { connect, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { TlsIdentity } from '../../local/issuer/issuer.ts';

export interface Front {
  /** `https://127.0.0.1:<port>`: where a function process connects. */
  url: string;
  close(): Promise<void>;
}

/** TLS terminated here, plain TCP on to `target` (dynalite): what AWS's HTTPS endpoint costs a client. */
export async function startTlsFront(tls: TlsIdentity, target: string): Promise<Front> {
  const { hostname, port } = new URL(target);
  const server = createTlsServer({ key: tls.key, cert: tls.cert }, (client) => {
    pipeBoth(client, connect(Number(port), hostname), 0);
  });
  return listen(server);
}

/**
 * Forwards TCP to `target` (a URL's host and port) so that one round trip costs `rttMs`: each
 * chunk is held `rttMs / 2` in each direction, in order, and nothing from the client reaches the
 * target before `rttMs` after it connected (SYN, SYN-ACK, as a real connect waits for them).
 */
export async function startDelayProxy(target: string, rttMs: number): Promise<Front> {
  const { hostname, port } = new URL(target);
  // Half-open allowed: each side's end travels through the delay like its data, not ahead of it.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    pipeBoth(client, connect({ port: Number(port), host: hostname, allowHalfOpen: true }), rttMs);
  });
  return listen(server);
}

function pipeBoth(client: Socket, upstream: Socket, rttMs: number): void {
  const handshakeDone = performance.now() + rttMs;
  forward(client, upstream, rttMs / 2, handshakeDone);
  forward(upstream, client, rttMs / 2, 0);
  const fail = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', fail);
  upstream.on('error', fail);
}

/** Writes each chunk of `from` to `to` once `oneWayMs` has passed (and not before `notBefore`). */
function forward(from: Socket, to: Socket, oneWayMs: number, notBefore: number): void {
  if (oneWayMs === 0) {
    from.pipe(to);
    return;
  }
  // One queue and one timer per direction, so chunks leave in the order they came.
  const queue: { due: number; chunk: Buffer | null }[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    while (queue.length > 0 && (queue[0]?.due ?? 0) <= performance.now()) {
      const { chunk } = queue.shift() as { chunk: Buffer | null };
      if (chunk === null) to.end();
      else if (to.writable) to.write(chunk);
    }
    const next = queue[0];
    if (next) schedule(next.due);
  };
  const schedule = (due: number) => {
    scheduled = true;
    setTimeout(drain, Math.max(0, due - performance.now()));
  };
  const push = (chunk: Buffer | null) => {
    queue.push({ due: Math.max(performance.now(), notBefore) + oneWayMs, chunk });
    if (!scheduled) schedule(queue[0]?.due ?? 0);
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push(null));
}

async function listen(server: Server): Promise<Front> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open: the function processes are gone.
        for (const socket of sockets) socket.destroy();
      }),
  };
}
