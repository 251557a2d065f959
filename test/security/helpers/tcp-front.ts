// A TCP pass-through in front of a local dependency (dynalite, or the JWKS server: TLS passes
// through untouched) that can stop listening, so connections are refused as from a host that
// is down, or hold every answer back, as from one slower than the client's timeout.

import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpFront {
  port: number;
  /** Port on 127.0.0.1 that connections are forwarded to. */
  targetPort: number;
  /** Forwards to another port from now on, dropping kept-alive connections to the old one. */
  retarget(port: number): void;
  /** Milliseconds every chunk from the target is held back; 0 passes it on at once. */
  delayMs: number;
  /** Drops the open connections: answers still held back never arrive. */
  dropConnections(): void;
  /** Stops listening (and drops open connections): new connections are refused. */
  refuse(): Promise<void>;
  /** Listens again on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpFront(): Promise<TcpFront> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    // A late chunk may meet a socket the client has already given up on: not a failure here.
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    return socket;
  };
  const server = createServer((client) => {
    track(client);
    const upstream = track(createConnection(front.targetPort, '127.0.0.1'));
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      const send = () => client.destroyed || client.write(chunk);
      if (front.delayMs > 0) setTimeout(send, front.delayMs);
      else send();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => setTimeout(() => client.destroy(), front.delayMs));
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      dropConnections();
      server.close(() => resolve());
    });

  await listen(0);
  const address = server.address();
  const front: TcpFront = {
    port: typeof address === 'object' && address ? address.port : 0,
    targetPort: 0,
    retarget: (port) => {
      front.targetPort = port;
      dropConnections();
    },
    delayMs: 0,
    dropConnections,
    refuse: stop,
    accept: () => listen(front.port),
    close: async () => {
      if (server.listening) await stop();
    },
  };
  return front;
}
