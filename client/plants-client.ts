// A reference client for GET /plants, typed from openapi.yaml: fetch, a bearer token, every page by `next`.

import { type components, operationRoutes, type operations } from './api-types.ts';

const { path: PLANTS_PATH } = operationRoutes.listPlants;

export type Plant = components['schemas']['Plant'];
/** The function's error body; API Gateway's own answers (404, 429, …) carry only `message`. */
export type ApiError = components['schemas']['Error'] | components['schemas']['GatewayError'];
export type ListPlantsQuery = NonNullable<operations['listPlants']['parameters']['query']>;
type PlantsPage = operations['listPlants']['responses'][200]['content']['application/json'];

/** A request that should never take this long (a Lambda function times out well before). */
const REQUEST_TIMEOUT_MS = 30_000;

/** The API answered something other than 200: its status and body (`{error, message}` or `{message}`). */
export class PlantsApiError extends Error {
  override name = 'PlantsApiError';
  readonly status: number;
  readonly body: ApiError | undefined;
  readonly headers: Headers;
  constructor(status: number, body: ApiError | undefined, headers: Headers) {
    super(`GET /plants answered ${status}: ${body?.message ?? 'no message'}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** The first page's URL: `plants` under the API's base URL; a URL ending in `/plants` is taken as is. */
export function plantsUrl(apiUrl: string, query: ListPlantsQuery = {}): URL {
  const base = new URL(apiUrl);
  const url = base.pathname.endsWith(PLANTS_PATH)
    ? base
    : new URL(PLANTS_PATH.slice(1), base.href.replace(/\/?$/, '/'));
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url;
}

/** The API answered with a redirect, which the client does not follow: its status and target. */
export class PlantsRedirectError extends Error {
  override name = 'PlantsRedirectError';
  readonly status: number;
  readonly location: string | null;
  constructor(url: URL | string, status: number, location: string | null) {
    super(
      `GET ${url} answered ${status}, a redirect to ${location ?? 'nowhere'}: not followed, since GET /plants never redirects (call the API at the URL its links use: the stack's CustomDomainUrl or ApiUrl)`,
    );
    this.status = status;
    this.location = location;
  }
}

/**
 * One GET with the token, bounded in time. A redirect is refused: the walk would read another origin's page
 * as plants, and the API never redirects.
 */
export async function getPlants(url: URL | string, token: string | undefined, fetchImpl = fetch): Promise<Response> {
  const response = await fetchImpl(url, {
    headers: { accept: 'application/json', ...(token !== undefined && { authorization: `Bearer ${token}` }) },
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new PlantsRedirectError(url, response.status, response.headers.get('location'));
  }
  return response;
}

/** The next page's URL from the `Link` header (absolute, or resolved against the response's URL); none on the last. */
export function nextPage(response: Pick<Response, 'headers' | 'url'>): URL | undefined {
  const link = response.headers.get('link');
  if (!link) return undefined;
  for (const part of link.split(/,\s*(?=<)/)) {
    const [, target, params = ''] = /^\s*<([^>]*)>(.*)$/.exec(part) ?? [];
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params)?.[1] ?? '';
    if (target !== undefined && rel.toLowerCase().split(/\s+/).includes('next')) return new URL(target, response.url);
  }
  return undefined;
}

/**
 * The next URL if it stays on the walk's origin, compared exactly (localhost, 127.0.0.1 and [::1] are three),
 * else an error: a bearer token goes only where its holder sent it, never to a host a response names.
 */
export function sameOrigin(next: URL | undefined, first: URL): URL | undefined {
  if (next && next.origin !== first.origin) {
    throw new Error(
      `GET /plants linked to ${next.origin}, not ${first.origin} where the walk began; the token is not sent there. Call the API at the URL its links use (a stack's CustomDomainUrl, or its -c publicBaseUrl)`,
    );
  }
  return next;
}

/**
 * Every page from `first`, following next links: the walk of this client and of the smoke check. A link
 * back to a page already read (it would never end) or off the walk's origin throws.
 */
export async function* walkPages<Page extends { response: Pick<Response, 'headers' | 'url'> }>(
  first: URL,
  read: (url: URL) => Promise<Page>,
): AsyncGenerator<Page> {
  const visited = new Set<string>();
  for (let url: URL | undefined = first; url; ) {
    if (visited.has(url.href)) throw new Error(`page ${visited.size} links back to ${url}`);
    visited.add(url.href);
    const page = await read(url);
    yield page;
    url = sameOrigin(nextPage(page.response), first);
  }
}

/** Every plant the token's user has access to, page after page; throws PlantsApiError on any refusal. */
export async function* listPlants(apiUrl: string, token: string, query: ListPlantsQuery = {}): AsyncGenerator<Plant> {
  const pages = walkPages(plantsUrl(apiUrl, query), async (url) => ({ response: await getPlants(url, token) }));
  for await (const { response } of pages) {
    if (response.status !== 200) {
      const body = (await response.json().catch(() => undefined)) as ApiError | undefined;
      throw new PlantsApiError(response.status, body, response.headers);
    }
    yield* (await response.json()) as PlantsPage;
  }
}
