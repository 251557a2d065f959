// The smoke check: the reference client against a running API, every response checked against openapi.yaml.
// ES2022 (no toSorted), so that it runs wherever plants-client.ts does (docs/layout.md, "Boundaries").

import { assertMatchesContract } from './contract.ts';
import { getPlants, plantsUrl, walkPages } from './plants-client.ts';

/** What is checked, in order; a failure names one. */
export type SmokeCheck = 'walk' | 'no token' | 'bad token' | 'bad limit';

export class SmokeFailure extends Error {
  override name = 'SmokeFailure';
  readonly check: SmokeCheck;
  /** What was wrong, without the check's name. */
  readonly detail: string;
  constructor(check: SmokeCheck, detail: string) {
    super(`${check}: ${detail}`);
    this.check = check;
    this.detail = detail;
  }
}

export interface SmokeOptions {
  /** The API's base URL (ApiUrl, CustomDomainUrl, http://localhost:3000) or its /plants URL. */
  url: string;
  token: string;
  log?: (line: string) => void;
  /** Page size of the walk: small, so that `next` is followed. */
  limit?: number;
  /**
   * Take API Gateway's own 401/403 (`{"message": …}`) for a refusal, as with -c jwtAuthorizer=true; off by
   * default, since the function answers `{error, message}` and its challenge.
   */
  gatewayRefusals?: boolean;
  fetch?: typeof fetch;
}

export type SmokeSummary = Awaited<ReturnType<typeof runSmoke>>;

/** The walk fails beyond this many pages rather than run on. */
const MAX_PAGES = 1000;

interface Reply {
  status: number;
  response: Response;
  body: string;
}

export async function runSmoke(options: SmokeOptions) {
  const { token, log = () => {}, limit = 2, fetch: fetchImpl = fetch } = options;
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  // Who refused the bad tokens: the function, or API Gateway's JWT authorizer (-c jwtAuthorizer=true).
  let refusedBy = 'function' as 'function' | 'gateway';

  /** One request, timed, counted and checked against openapi.yaml; any failure names `check`. */
  async function call(check: SmokeCheck, url: URL, bearer: string | undefined): Promise<Reply> {
    const started = performance.now();
    let response: Response;
    let body: string;
    try {
      response = await getPlants(url, bearer, fetchImpl);
      body = await response.text();
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new SmokeFailure(check, `GET ${url} failed: ${cause}`);
    }
    const ms = performance.now() - started;
    times.push(ms);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    log(`${check}: GET ${url} → ${response.status} in ${ms.toFixed(1)} ms`);
    try {
      assertMatchesContract({ statusCode: response.status, headers: Object.fromEntries(response.headers), body });
    } catch (error) {
      throw new SmokeFailure(check, (error as Error).message);
    }
    if (isGatewayRefusal(response.status, body)) {
      if (!options.gatewayRefusals) {
        throw new SmokeFailure(check, `${response.status} ${body} is API Gateway's refusal, not the function's`);
      }
      refusedBy = 'gateway';
    } else if (response.status === 401 && !response.headers.has('www-authenticate')) {
      throw new SmokeFailure(
        check,
        "missing header WWW-Authenticate, which the function's 401 always sends (RFC 6750)",
      );
    }
    return { status: response.status, response, body };
  }
  const expectStatus = (check: SmokeCheck, reply: Reply, status: number) => {
    if (reply.status === status) return;
    const challenge = reply.response.headers.get('www-authenticate') ?? '';
    const why = /insufficient_scope/.test(challenge)
      ? ` (${challenge}: the token lacks the scope this deployment requires; docs/deploy.md, "Machine clients and a required scope")`
      : '';
    throw new SmokeFailure(check, `expected ${status}, got ${reply.status}: ${excerpt(reply.body)}${why}`);
  };

  // Every page, by following next as a client does, until it is absent.
  const first = plantsUrl(options.url, { limit });
  let pages = 0;
  let plants = 0;
  // How the API wrote its next links: absolute (usable as-is), relative, or none (one page).
  let links: 'absolute' | 'relative' | 'none' = 'none';
  const readPage = (url: URL) => {
    if (pages >= MAX_PAGES) throw new SmokeFailure('walk', `more than ${MAX_PAGES} pages at limit ${limit}`);
    pages += 1;
    return call('walk', url, token);
  };
  try {
    for await (const reply of walkPages(first, readPage)) {
      expectStatus('walk', reply, 200);
      const page = JSON.parse(reply.body) as unknown[];
      if (page.length > limit)
        throw new SmokeFailure('walk', `page ${pages} holds ${page.length} plants, limit ${limit}`);
      plants += page.length;
      const target = /<([^>]*)>/.exec(reply.response.headers.get('link') ?? '')?.[1];
      if (target !== undefined) links = URL.canParse(target) ? 'absolute' : 'relative';
    }
  } catch (error) {
    // The walk's own refusals (a link back, another origin) are the walk check's failures.
    throw error instanceof SmokeFailure ? error : new SmokeFailure('walk', (error as Error).message);
  }

  // The refusals a client relies on.
  const noToken = await call('no token', first, undefined);
  expectStatus('no token', noToken, 401);
  const badToken = await call('bad token', first, tampered(token));
  expectStatus('bad token', badToken, 401);
  if (!/error="invalid_token"/.test(badToken.response.headers.get('www-authenticate') ?? '')) {
    throw new SmokeFailure('bad token', 'WWW-Authenticate does not say error="invalid_token"');
  }
  const badLimitUrl = new URL(first);
  badLimitUrl.searchParams.set('limit', 'abc');
  const badLimit = await call('bad limit', badLimitUrl, token);
  expectStatus('bad limit', badLimit, 400);
  if (!/limit/.test(badLimit.body))
    throw new SmokeFailure('bad limit', `the message does not name limit: ${excerpt(badLimit.body)}`);

  const sorted = [...times].sort((a, b) => a - b);
  return {
    url: first.href.replace(/\?.*$/, ''),
    pages,
    plants,
    links,
    refusedBy,
    statuses,
    latencyMs: {
      p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0,
      max: sorted.at(-1) ?? 0,
      requests: sorted.length,
    },
  };
}

/** API Gateway's JWT authorizer's own refusals (docs/deploy.md), which openapi.yaml allows beside the function's. */
const isGatewayRefusal = (status: number, body: string) =>
  (status === 401 && body === '{"message":"Unauthorized"}') || (status === 403 && body === '{"message":"Forbidden"}');

/** A body short enough for a line of output. */
const excerpt = (body: string) => (body.length > 300 ? `${body.slice(0, 300)}…` : body);

/** The token with its signature replaced: well-formed, never valid. */
function tampered(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3) return `${token}x`;
  const signature = parts[2] ?? '';
  return `${parts[0]}.${parts[1]}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
}

/** The summary the CLI prints. */
export function formatSummary(summary: SmokeSummary): string {
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${status} ×${count}`)
    .join(', ');
  const { p50, max, requests } = summary.latencyMs;
  return [
    `Smoke check of ${summary.url}: passed`,
    `  walk       ${summary.pages} page(s), ${summary.plants} plant(s), next links ${summary.links}; every response as openapi.yaml says`,
    summary.refusedBy === 'function'
      ? '  no token   401 with WWW-Authenticate: Bearer'
      : "  no token   401 from API Gateway's JWT authorizer (-c jwtAuthorizer=true), its own {message} body",
    '  bad token  401 with error="invalid_token"',
    '  bad limit  400 naming limit',
    `  statuses   ${statuses}`,
    `  latency    p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms over ${requests} requests`,
  ].join('\n');
}
