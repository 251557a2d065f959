// A free loopback port for a server started as a child process; whether an address accepts connections;
// raw bytes exchanged with a server, for what no HTTP client would send.

import { connect, createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Whether a TCP connection to host:port is accepted. */
export function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Writes `bytes` as they are on a new connection, and resolves once the server closes it with all it
 * sent back and when that was (performance.now()).
 */
export function exchange(port: number, bytes: string): Promise<{ raw: string; closedAt: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.once('connect', () => socket.write(bytes));
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.once('close', () => resolve({ raw, closedAt: performance.now() }));
  });
}

/** An HTTP/1.1 answer as it came on the wire: the status, lower-cased headers and the body. */
export function parseAnswer(raw: string): { statusCode: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split(/\r\n\r\n(.*)/s);
  const [status = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { statusCode: Number(status.split(' ')[1]), headers, body };
}
