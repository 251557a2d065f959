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
    responses: {
        /** @description Invalid `limit` or `cursor`; from the local server also malformed HTTP, or not exactly one `Host` header. */
        BadRequest: {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Missing, malformed, expired or otherwise invalid bearer token: from the function (`Error`),
         *     or with `-c jwtAuthorizer=true` from API Gateway's JWT authorizer (`GatewayError`,
         *     `{"message":"Unauthorized"}`), before the function.
         */
        Unauthorized: {
            headers: {
                /**
                 * @description The RFC 6750 challenge. The function always sends it: `Bearer`, or with a token
                 *     `Bearer error="invalid_token", error_description="..."`. API Gateway's JWT authorizer
                 *     puts the scope first: `Bearer scope="" error="invalid_token" error_description="..."`
                 *     (its troubleshooting guide); AWS documents none for a request without a token.
                 */
                "WWW-Authenticate"?: string;
                "Cache-Control": components["headers"]["CacheControlOfOurs"];
                "X-Content-Type-Options": components["headers"]["NoSniffOfOurs"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
            };
        };
        /**
         * @description Refused whatever the token. From the function (`Error`): the token is valid but lacks the
         *     scope this deployment requires (with `WWW-Authenticate`), or names more than 100 groups, the
         *     most one request reads. With `-c jwtAuthorizer=true` and a required scope, from API
         *     Gateway's JWT authorizer (`GatewayError`, `{"message":"Forbidden"}`). Behind an option's
         *     front, from the front before the token is looked at (`Error`, its page says when).
         */
        Forbidden: {
            headers: {
                /**
                 * @description When a scope is missing (RFC 6750): the function's
                 *     `Bearer error="insufficient_scope", scope="..."`, or API Gateway's JWT authorizer's, the
                 *     scope first as in its 401: `Bearer scope="..." error="insufficient_scope" ...`.
                 */
                "WWW-Authenticate"?: string;
                "Cache-Control": components["headers"]["CacheControlOfOurs"];
                "X-Content-Type-Options": components["headers"]["NoSniffOfOurs"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
            };
        };
        /**
         * @description No such route: any path or method but `GET /plants` (to `HEAD`, without a body). From API
         *     Gateway, from the function behind a catch-all route, or from an option's front (`Error`).
         */
        NotFound: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlOfOurs"];
                "X-Content-Type-Options": components["headers"]["NoSniffOfOurs"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
            };
        };
        /**
         * @description Too many requests; retry with backoff. From API Gateway: the stage or route throttle was
         *     exceeded. Behind an option's front, from the front (`Error`) when a caller or all callers went
         *     over its limits (its page).
         */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before retrying, where a front sends it (API Gateway does not). */
                "Retry-After"?: string;
                "Cache-Control": components["headers"]["CacheControlOfOurs"];
                "X-Content-Type-Options": components["headers"]["NoSniffOfOurs"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
            };
        };
        /** @description Unexpected error, from the function (generic message) or from API Gateway when the integration failed. */
        ServerError: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlOfOurs"];
                "X-Content-Type-Options": components["headers"]["NoSniffOfOurs"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
            };
        };
        /**
         * @description From the function (with `Retry-After`): the data store or the token issuer is unavailable.
         *     From API Gateway: the function did not answer in time (HTTP API). Retry later.
         */
        Unavailable: {
            headers: {
                /** @description Seconds to wait before retrying; always sent by the function. */
                "Retry-After"?: string;
                "Cache-Control": components["headers"]["CacheControlOfOurs"];
                "X-Content-Type-Options": components["headers"]["NoSniffOfOurs"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayError"];
            };
        };
        /** @description The request's body is over API Gateway's 10 MB payload limit. `GET /plants` takes no body. */
        ContentTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayError"];
            };
        };
        /** @description The request's headers are over the server's limit (the local server's, Node's 16 KiB). */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayError"];
            };
        };
        /**
         * @description The function failed (502) or did not answer in time (504) outside its own error handling:
         *     API Gateway's `GatewayError` from a REST API; behind an option's front, that front's own
         *     HTML page. Retry later.
         */
        GatewayFailure: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayError"];
                "text/html": unknown;
            };
        };
    };
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
        /** @description Sent with every `Error` body; API Gateway's own answers lack it. */
        CacheControlOfOurs: "no-store";
        /** @description Sent with every `Error` body; API Gateway's own answers lack it. */
        NoSniffOfOurs: "nosniff";
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["GatewayFailure"];
            503: components["responses"]["Unavailable"];
            504: components["responses"]["GatewayFailure"];
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
