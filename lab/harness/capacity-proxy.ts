// A pass-through proxy in front of dynalite that adds `ReturnConsumedCapacity: TOTAL` to every
// Query and records what each one consumed, so the read cost of the real, unmodified bundle can be
// measured. dynalite does not check SigV4 signatures, so rewriting the request body is harmless;
// the response is forwarded untouched (its x-amz-crc32 checksum stays valid).

import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapacityProxy {
  endpoint: string;
  /** Each Query since the last `take()`, in order (its partition, its capacity units); resets the record. */
  take(): QueryRecord[];
  close(): Promise<void>;
}

export interface QueryRecord {
  /** The `:owner` value the Query asked for (the handler's key condition). */
  partition: string;
  capacityUnits: number;
}

export async function startCapacityProxy(target: string): Promise<CapacityProxy> {
  const targetUrl = new URL(target);
  let consumed: QueryRecord[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const isQuery = String(req.headers['x-amz-target']).endsWith('.Query');
    let body = Buffer.concat(chunks);
    let partition = '';
    if (isQuery) {
      const input = JSON.parse(body.toString());
      partition = String(input.ExpressionAttributeValues?.[':owner']?.S);
      body = Buffer.from(JSON.stringify({ ...input, ReturnConsumedCapacity: 'TOTAL' }));
    }
    const upstream = request(
      { host: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method },
      async (reply) => {
        const replyChunks: Buffer[] = [];
        for await (const chunk of reply) replyChunks.push(chunk as Buffer);
        const replyBody = Buffer.concat(replyChunks);
        if (isQuery) {
          const units = JSON.parse(replyBody.toString()).ConsumedCapacity?.CapacityUnits;
          consumed.push({ partition, capacityUnits: units ?? Number.NaN });
        }
        res.writeHead(reply.statusCode ?? 502, reply.headers).end(replyBody);
      },
    );
    upstream.setHeader('content-type', req.headers['content-type'] ?? 'application/x-amz-json-1.0');
    for (const name of ['x-amz-target', 'authorization', 'x-amz-date']) {
      const value = req.headers[name];
      if (value !== undefined) upstream.setHeader(name, value);
    }
    upstream.setHeader('content-length', body.length);
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => {
      const taken = consumed;
      consumed = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
