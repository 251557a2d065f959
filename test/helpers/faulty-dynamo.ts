// A DynamoDB endpoint that forwards to dynalite, or answers with a fault the real service (or
// something between) can produce but a local emulator cannot be made to: throttling, internal
// errors, silence, an answer that never ends or never stops growing, a proxy's HTML page.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES } from '../../handlers/lib/dynamodb-client.ts';
import { type PlantItem, startDynamo } from './dynamo.ts';
import { type StartOptions, startService } from './service.ts';
import { orUndo } from './undo.ts';

export type Fault =
  | 'none'
  | 'throttled'
  | 'throttling'
  | 'internal'
  | 'validation'
  | 'reset'
  | 'hang'
  /** The first two tries of each Query get no answer (every third request is forwarded). */
  | 'hang-twice'
  /** Headers, then nothing. */
  | 'stall'
  /** Headers, then a byte every 100 ms, forever. */
  | 'trickle'
  /** Headers, then bytes as fast as they are read, forever. */
  | 'endless'
  /** Headers announcing more than any Query answer (a Content-Length past MAX_RESPONSE_BYTES), then as endless. */
  | 'announced-too-large'
  /** A proxy's 502 page, in HTML. */
  | 'proxy-502'
  /** A 200 whose connection closes halfway through its body (FIN). */
  | 'fin-mid-body'
  /** A 200 whose connection is reset halfway through its body (RST). */
  | 'reset-mid-body'
  /** A 200's headers, then FIN before any of its body. */
  | 'fin-after-headers'
  /** A chunked 200, a chunk of its body, then FIN without the last chunk. */
  | 'chunked-fin'
  /** A 200's whole body under a Content-Length larger than it, then FIN. */
  | 'long-content-length';

/** The answers that end mid-body: a connection gone while a 200 was arriving. */
export const MID_BODY_DROPS = [
  'fin-mid-body',
  'reset-mid-body',
  'fin-after-headers',
  'chunked-fin',
  'long-content-length',
] as const satisfies Fault[];
type MidBodyDrop = (typeof MID_BODY_DROPS)[number];

const DYNAMODB_ERRORS: Partial<Record<Fault, [number, string]>> = {
  throttled: [400, 'ProvisionedThroughputExceededException'],
  throttling: [400, 'ThrottlingException'],
  internal: [500, 'InternalServerError'],
  validation: [400, 'ValidationException'],
};

export interface FaultyDynamo {
  endpoint: string;
  /** Where requests are forwarded when there is no fault. */
  target: string;
  fault: Fault;
  /** Requests forwarded before the fault applies (0: from the next one on); counts down. */
  faultAfter: number;
  /** Requests received, retries included. */
  requests: number;
  close(): Promise<void>;
}

export async function startFaultyDynamo(): Promise<FaultyDynamo> {
  const state: FaultyDynamo = {
    endpoint: '',
    target: '',
    fault: 'none',
    faultAfter: 0,
    requests: 0,
    close: async () => {},
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    state.requests += 1;
    const body = Buffer.concat(await Array.fromAsync(req));
    const fault = state.faultAfter > 0 ? 'none' : state.fault;
    if (state.faultAfter > 0) state.faultAfter -= 1;
    if (fault === 'reset') return void req.socket.destroy();
    if (fault === 'hang' || (fault === 'hang-twice' && state.requests % 3 !== 0)) return; // never answers
    if (fault === 'stall' || fault === 'trickle' || fault === 'endless' || fault === 'announced-too-large') {
      return void streamForever(res, fault);
    }
    if (fault === 'proxy-502') {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      return void res.end(
        '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
      );
    }
    const error = DYNAMODB_ERRORS[fault];
    if (error) {
      const [status, type] = error;
      res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0' });
      return void res.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: type }));
    }
    const upstream = await fetch(state.target, {
      method: req.method ?? 'POST',
      headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      body,
    });
    const answer = Buffer.from(await upstream.arrayBuffer());
    const headers = Object.fromEntries([...upstream.headers].filter(([name]) => name !== 'content-length'));
    if ((MID_BODY_DROPS as readonly Fault[]).includes(fault))
      return void dropMidBody(res, fault as MidBodyDrop, answer);
    res.writeHead(upstream.status, headers);
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** DynamoDB's own answer, cut as `fault` says: the connection ends before the body does. */
function dropMidBody(res: ServerResponse, fault: MidBodyDrop, answer: Buffer) {
  const half = answer.subarray(0, Math.floor(answer.length / 2));
  const length = fault === 'long-content-length' ? answer.length + 100 : answer.length;
  res.writeHead(200, {
    'Content-Type': 'application/x-amz-json-1.0',
    ...(fault === 'chunked-fin' ? {} : { 'Content-Length': String(length) }),
  });
  // Once what was written has left: a FIN (end), or a reset for reset-mid-body.
  const drop = () =>
    setTimeout(() => (fault === 'reset-mid-body' ? res.socket?.resetAndDestroy() : res.socket?.end()), 10);
  if (fault === 'fin-after-headers') {
    res.flushHeaders();
    drop();
  } else res.write(fault === 'long-content-length' ? answer : half, drop);
}

/** A 200 whose body never ends: nothing more (stall), a byte every 100 ms (trickle), or as fast as read. */
function streamForever(res: ServerResponse, fault: 'stall' | 'trickle' | 'endless' | 'announced-too-large') {
  res.writeHead(200, {
    'Content-Type': 'application/x-amz-json-1.0',
    ...(fault === 'announced-too-large' && { 'Content-Length': String(MAX_RESPONSE_BYTES + 1) }),
  });
  res.write('{"Items":[');
  if (fault === 'stall') return;
  const more = () => {
    if (res.destroyed) return;
    if (fault === 'trickle') return void setTimeout(() => res.write(' ', more), 100);
    if (res.write(' '.repeat(65_536))) setImmediate(more);
    else res.once('drain', more);
  };
  more();
}

/** The whole service with the fault proxy between the handler and dynalite, seeded with `items`. */
export async function startServiceWithFaultyDynamo(
  items: PlantItem[],
  options: StartOptions = {},
  env: Record<string, string> = {},
) {
  const dynamo = await startFaultyDynamo();
  // The target is known before the handler loads: its init warm-up Query goes through the proxy.
  const startStore = async (table: string) => {
    const store = await startDynamo(table);
    dynamo.target = store.endpoint;
    return store;
  };
  const service = await orUndo(startService({ ...env, DYNAMODB_ENDPOINT: dynamo.endpoint }, startStore, options), () =>
    dynamo.close(),
  );
  dynamo.requests = 0;
  await orUndo(
    service.seed(items),
    () => dynamo.close(),
    () => service.stop(),
  );
  return {
    dynamo,
    service,
    async stop() {
      await dynamo.close();
      await service.stop();
    },
  };
}
