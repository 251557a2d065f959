// Where next links point: the base URL clients use for this API, when the function can know it.

import type { Config } from './environment.ts';
import { type ApiEvent, header } from './http.ts';

/** API Gateway's ids are 10 lower-case letters and digits (`a1b2c3d4e5`). */
const API_ID = /^[a-z0-9]{10}$/;
/** `us-east-1`, `ap-southeast-2`, `us-gov-west-1`, `cn-north-1` (whose hosts end in `.com.cn`). */
const REGION = '[a-z]{2}(?:-[a-z]+)+-\\d+';
/** Stage names API Gateway allows, and `$default` (an HTTP API's stage at the URL's root). */
const STAGE = /^(?:\$default|[A-Za-z0-9_-]{1,128})$/;
/** A host name as a CDN names its own (`d111111abcdef8.cdn.example.net`): nothing that could break a Link. */
const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/**
 * The base that `/plants` follows in a next link, or undefined when the function can't vouch for
 * one (then the link is a query-only relative reference, right wherever the client is):
 *
 * 1. PUBLIC_BASE_URL, whatever the request says: a custom domain's API mapping key never reaches
 *    the function (payload 2.0's rawPath omits it), and a proxy or CDN in front of API Gateway
 *    arrives on the execute-api host, so only configuration knows the URL clients use.
 * 2. The host PUBLIC_HOST_HEADER names, when configured: a front that can't be told its own URL at
 *    deploy (a CDN whose name depends on the function's) writes it on every request, over whatever
 *    a caller sent under that name. Only a plain host name is taken.
 * 3. The API's own execute-api host, as API Gateway reports it in requestContext (set by the
 *    gateway, never by the client; the Host header is not read), with the stage unless `$default`.
 *    Payload 2.0 and 1.0 alike: a named stage is the first path segment on execute-api.
 */
export function linkBase(
  event: ApiEvent,
  settings: Pick<Config, 'publicBaseUrl' | 'requestContextFromApiGateway' | 'publicHostHeader'>,
): string | undefined {
  if (settings.publicBaseUrl !== undefined) return settings.publicBaseUrl;
  if (settings.publicHostHeader !== undefined) {
    const host = header(event, settings.publicHostHeader);
    return host !== undefined && HOST.test(host) ? `https://${host}` : undefined;
  }
  if (!settings.requestContextFromApiGateway) return undefined;
  const { apiId, domainName, stage } = event.requestContext;
  if (!API_ID.test(apiId) || !STAGE.test(stage)) return undefined;
  const executeApiHost = new RegExp(`^${apiId}\\.execute-api\\.${REGION}\\.amazonaws\\.com(?:\\.cn)?$`);
  if (domainName === undefined || !executeApiHost.test(domainName)) return undefined;
  return `https://${domainName}${stage === '$default' ? '' : `/${stage}`}`;
}
