// A stand-in for GET /plants that keeps the contract, or breaks one part of it on request: what
// the smoke check must pass, and each way it must fail.

import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JWT_AUTHORIZER_ANSWERS } from './gateway-answers.ts';

export const FAKE_TOKEN = 'a.valid.token';
export const FAKE_PLANTS = [{ name: 'Fern', tag: 'fern' }, { name: 'Ivy' }, { name: 'Cactus' }];

/** One way to break the contract; `none` keeps it. */
export type Break =
  | 'none'
  | 'extra field'
  | 'link loops'
  | 'relative links'
  | 'links elsewhere'
  | 'gateway authorizer'
  | 'scope required'
  | 'no WWW-Authenticate'
  | 'any token'
  | 'limit ignored';

export interface FakeApi {
  url: string;
  /** The Host header of every request that carried a token. */
  tokenHosts: string[];
  close(): Promise<void>;
}

export async function startFakeApi(breaks: Break = 'none'): Promise<FakeApi> {
  const tokenHosts: string[] = [];
  const handle: RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== '/plants') return send(res, 404, { message: 'Not Found' });
    const auth = req.headers.authorization;
    if (auth !== undefined) tokenHosts.push(req.headers.host ?? '');
    // Not a break: API Gateway's JWT authorizer (-c jwtAuthorizer=true) refusing before the function.
    if (breaks === 'gateway authorizer' && auth !== `Bearer ${FAKE_TOKEN}`) {
      const { statusCode, headers, body } = JWT_AUTHORIZER_ANSWERS[auth === undefined ? 'no token' : 'a refused token'];
      return res.writeHead(statusCode, headers).end(body);
    }
    if (auth === undefined) {
      return send(res, 401, { error: 401, message: 'Missing bearer token' }, challenge(breaks, 'Bearer'));
    }
    if (auth !== `Bearer ${FAKE_TOKEN}` && breaks !== 'any token') {
      return send(
        res,
        401,
        { error: 401, message: 'Invalid token' },
        { 'www-authenticate': 'Bearer error="invalid_token"' },
      );
    }
    if (breaks === 'scope required') {
      return send(
        res,
        403,
        { error: 403, message: 'Insufficient scope' },
        { 'www-authenticate': 'Bearer error="insufficient_scope", scope="plants/read"' },
      );
    }
    const rawLimit = url.searchParams.get('limit') ?? '1000';
    if (!/^\d+$/.test(rawLimit) && breaks !== 'limit ignored') {
      return send(res, 400, { error: 400, message: 'limit must be an integer from 1 to 2147483647' });
    }
    const limit = Number(rawLimit) || 1000;
    const from = Number(url.searchParams.get('cursor') ?? 0);
    const page = FAKE_PLANTS.slice(from, from + limit).map((plant) =>
      breaks === 'extra field' ? { ...plant, price: 3 } : plant,
    );
    const next = from + limit < FAKE_PLANTS.length ? (breaks === 'link loops' ? from : from + limit) : undefined;
    // `links elsewhere`: a second server, another origin, that would log any token it gets.
    const linked = breaks === 'links elsewhere' ? elsewhere : server;
    const origin = breaks === 'relative links' ? '' : `http://127.0.0.1:${portOf(linked)}/plants`;
    const link: Record<string, string> =
      next === undefined ? {} : { link: `<${origin}?limit=${limit}&cursor=${next}>; rel="next"` };
    return send(res, 200, page, link);
  };
  const server = createServer(handle);
  const elsewhere = createServer(handle);
  await Promise.all(
    [server, elsewhere].map((each) => new Promise<void>((resolve) => each.listen(0, '127.0.0.1', resolve))),
  );
  return {
    url: `http://127.0.0.1:${portOf(server)}`,
    tokenHosts,
    close: async () => {
      await Promise.all(
        [server, elsewhere].map(
          (each) =>
            new Promise<void>((resolve) => {
              each.closeAllConnections();
              each.close(() => resolve());
            }),
        ),
      );
    },
  };
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

const challenge = (breaks: Break, value: string): Record<string, string> =>
  breaks === 'no WWW-Authenticate' ? {} : { 'www-authenticate': value };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(JSON.stringify(body));
}
