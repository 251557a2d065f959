// Generated from openapi.yaml by `npm run client:types` (openapi-typescript): do not edit.

export interface paths {
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plants
         * @description Returns the plants the caller has access to (own, then shared through groups), at most
         *     `limit` of them (default and maximum: the deployment's page size, 100 unless configured). When more plants may
         *     remain, the `Link` header carries the next page (`rel="next"`); the body is always a
         *     bare array. A page also ends before `limit` when its plants pass 64 KiB (a single larger
         *     plant comes alone), or after 10 reads of the data store:
         *     `limit` is a maximum, and only a missing
         *     `Link` means the end. Ordering: own plants, then each group's in group-name order, by
         *     plant id within each; stable across pages.
         *
         *     **Following `next`**: GET the `rel="next"` target of the `Link` header with the same
         *     token, page after page, until a response has no `Link`. A deployment that knows its
         *     public URL (its `execute-api` URL, its custom domain, a configured base URL, the local
         *     server) sends the target absolute, to use as it is: `fetch(next)`, Python requests'
         *     `r.links['next']['url']`. Reached on a host it can't vouch for, it sends only the query
         *     (`?limit=N&cursor=...`); `new URL(next, response.url)` (`urljoin` in Python) follows
         *     both forms. The cursor is opaque: don't build or change it.
         */
        get: operations["listPlants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Plant: {
            /** @description Name of the plant */
            name: string;
            /** @description Tag that specifies the type of the plant */
            tag?: string;
        };
        Error: {
            /**
             * Format: int32
             * @description Numeric error value (the HTTP status)
             */
            error: number;
            /** @description Error message text */
            message: string;
        };
        /** @description What API Gateway itself answers, without the function (HTTP APIs cannot customise it). */
        GatewayError: {
            /** @description For example "Not Found", "Too Many Requests", "Internal Server Error", "Service Unavailable". */
            message: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description RFC 8288 link to the next page, present only when more plants may remain:
         *     `<https://.../plants?limit=N&cursor=...>; rel="next"`, absolute wherever the deployment
         *     knows its public URL. Otherwise the target is a relative reference holding only the
         *     query (`<?limit=N&cursor=...>`): resolve it against the URL you requested (RFC 3986 §5).
         */
        Link: string;
        /** @description Responses carry per-user data and are never cached. */
        CacheControl: "no-store";
        /** @description The body is JSON, whatever a browser might guess from its content. */
        NoSniff: "nosniff";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPlants: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of results to return: a base-10 integer from 1 to 2147483647, given
                 *     at most once. Values above the page size are clamped to it.
                 */
                limit?: number;
                /**
                 * @description Opaque position from a previous page's `Link` header. Valid only for the caller it
                 *     was issued to; any other value is refused with 400.
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's plants (one page). */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"][];
                };
            };
            /** @description Invalid `limit` or `cursor`. */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, expired or otherwise invalid bearer token. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge: `Bearer`, with `error="invalid_token"` when a token was sent. */
                    "WWW-Authenticate": string;
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The token is valid, but lacks the scope this deployment requires (with
             *     `WWW-Authenticate`), or names more than 100 groups, the most one request reads.
             */
            403: {
                headers: {
                    /** @description `Bearer error="insufficient_scope", scope="..."` (RFC 6750), when a scope is missing. */
                    "WWW-Authenticate"?: string;
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description From API Gateway: no such route (any path or method but `GET /plants`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description From API Gateway: the request's body is over its 10 MB payload limit. `GET /plants` takes no body: send none. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /** @description From API Gateway: the stage or route throttle was exceeded; retry with backoff. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
            /**
             * @description Unexpected server error: from the function (`Error`, generic message, with
             *     `Cache-Control: no-store`) or from API Gateway when the integration failed (`GatewayError`).
             */
            500: {
                headers: {
                    /** @description Sent by the function; API Gateway's own 500 may lack it. */
                    "Cache-Control"?: "no-store";
                    /** @description Sent by the function; API Gateway's own 500 may lack it. */
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
                };
            };
            /**
             * @description From the function (`Error`, with `Retry-After`): the data store or the token issuer
             *     is unavailable. From API Gateway (`GatewayError`): the function did not answer in time
             *     (HTTP API). Retry later.
             */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying; always sent by the function. */
                    "Retry-After"?: string;
                    /** @description Sent by the function; API Gateway's own 503 may lack it. */
                    "Cache-Control"?: "no-store";
                    /** @description Sent by the function; API Gateway's own 503 may lack it. */
                    "X-Content-Type-Options"?: "nosniff";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
                };
            };
            /** @description From API Gateway (REST API): the function did not answer in time. Retry later. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayError"];
                };
            };
        };
    };
}

/** Each operation's route, by operationId. */
export const operationRoutes = {
    "listPlants": {
        "method": "GET",
        "path": "/plants"
    }
} as const;
