// Following RFC 8288 next links as a client does: resolved against the URL it requested.

import type { Reply } from './service.ts';

/** Where the tests' clients say they sent their requests (any absolute URL works the same way). */
export const REQUESTED_URL = 'https://plants.example.com/v1/plants';

/** The target of the response's `rel="next"` link, as written. */
export function nextTarget(reply: Pick<Reply, 'headers'>): string | undefined {
  return reply.headers.link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
}

/** The next page's URL, resolved (RFC 3986 §5) against the URL that was requested. */
export function nextUrl(reply: Pick<Reply, 'headers'>, requested = REQUESTED_URL): URL | undefined {
  const target = nextTarget(reply);
  return target === undefined ? undefined : new URL(target, requested);
}

/** The next page's query string (without `?`), or undefined on the last page. */
export const nextQuery = (reply: Pick<Reply, 'headers'>) => nextUrl(reply)?.search.slice(1);

export const nextCursor = (reply: Pick<Reply, 'headers'>) => nextUrl(reply)?.searchParams.get('cursor') ?? undefined;
