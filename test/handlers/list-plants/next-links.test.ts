// Next links on the deployed bundle, for every way a request reaches the function: each row is a
// URL a client calls and the events API Gateway (or sam local) delivers for it. Where the function
// can know the public URL, the link is absolute and usable as-is (`fetch(next)`, Python requests'
// `r.links`); elsewhere it is a query-only relative reference, resolved against the URL requested.
// Either way, following it walks every page exactly once.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { customDomainBaseUrl } from '../../../infra/api.ts';
import { createSigningKey, type JwksServer, startJwksServer, type TlsIdentity } from '../../../local/issuer/issuer.ts';
import { mintToken } from '../../../local/issuer/tokens.ts';
import { type BundledFunction, buildBundle, startBundledFunction } from '../../helpers/bundle.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { removeTempDirs, tempDir } from '../../helpers/local-server.ts';
import { assertMatchesContract } from '../../helpers/openapi.ts';
import { restApiEvent } from '../../helpers/rest-api-event.ts';
import { AUDIENCE, serviceEnvironment, TABLE } from '../../helpers/service.ts';

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
const EXECUTE_API = 'https://api1234567.execute-api.eu-west-1.amazonaws.com';
const REST_EXECUTE_API = 'https://rest123456.execute-api.eu-west-1.amazonaws.com';

/** The function's configurations: as deployed by the stack (with or without its custom domain), under sam local, behind a proxy. */
const CONFIGS = {
  stack: {},
  'stack, custom domain api.example.com/v1': {
    PUBLIC_BASE_URL: customDomainBaseUrl({
      domainName: 'api.example.com',
      certificateArn: CERTIFICATE,
      basePath: 'v1',
    }),
  },
  'stack, custom domain api.example.com': {
    PUBLIC_BASE_URL: customDomainBaseUrl({
      domainName: 'api.example.com',
      certificateArn: CERTIFICATE,
      basePath: undefined,
    }),
  },
  'PUBLIC_BASE_URL of a proxy': { PUBLIC_BASE_URL: 'https://www.example.com/shop/api' },
  'sam local': { AWS_SAM_LOCAL: 'true' },
};
type Config = keyof typeof CONFIGS;

interface Row {
  flavour: 'http' | 'rest';
  config: Config;
  /** The URL the client calls first (without the query). */
  requested: string;
  /** What the link points at (without the query), or "relative": `?limit=…&cursor=…`. */
  link: string;
  /** A proxy at `requested` forwards to this execute-api URL. */
  proxiedTo?: string;
  /** The Host header the client sends, when it is not the URL's host. */
  host?: string;
}

const ROWS: [string, Row][] = [
  [
    'HTTP API, execute-api, $default stage',
    { flavour: 'http', config: 'stack', requested: `${EXECUTE_API}/plants`, link: `${EXECUTE_API}/plants` },
  ],
  [
    'HTTP API, execute-api, named stage prod',
    { flavour: 'http', config: 'stack', requested: `${EXECUTE_API}/prod/plants`, link: `${EXECUTE_API}/prod/plants` },
  ],
  [
    'REST API, execute-api, stage prod',
    {
      flavour: 'rest',
      config: 'stack',
      requested: `${REST_EXECUTE_API}/prod/plants`,
      link: `${REST_EXECUTE_API}/prod/plants`,
    },
  ],
  [
    "HTTP API, the stack's custom domain, mapping key v1",
    {
      flavour: 'http',
      config: 'stack, custom domain api.example.com/v1',
      requested: 'https://api.example.com/v1/plants',
      link: 'https://api.example.com/v1/plants',
    },
  ],
  [
    "HTTP API, the stack's custom domain, no mapping key",
    {
      flavour: 'http',
      config: 'stack, custom domain api.example.com',
      requested: 'https://api.example.com/plants',
      link: 'https://api.example.com/plants',
    },
  ],
  [
    'HTTP API, execute-api URL of a stack with a custom domain',
    {
      flavour: 'http',
      config: 'stack, custom domain api.example.com/v1',
      requested: `${EXECUTE_API}/plants`,
      link: 'https://api.example.com/v1/plants',
    },
  ],
  [
    'HTTP API, behind a proxy at /shop/api that sets PUBLIC_BASE_URL',
    {
      flavour: 'http',
      config: 'PUBLIC_BASE_URL of a proxy',
      requested: 'https://www.example.com/shop/api/plants',
      proxiedTo: EXECUTE_API,
      link: 'https://www.example.com/shop/api/plants',
    },
  ],
  [
    'HTTP API, behind a proxy without PUBLIC_BASE_URL (links go around it)',
    {
      flavour: 'http',
      config: 'stack',
      requested: 'https://www.example.com/shop/api/plants',
      proxiedTo: EXECUTE_API,
      link: `${EXECUTE_API}/plants`,
    },
  ],
  [
    'HTTP API, a custom domain the deployment does not know, mapping key v2',
    { flavour: 'http', config: 'stack', requested: 'https://plants.example.org/v2/plants', link: 'relative' },
  ],
  [
    'REST API, a custom domain the deployment does not know, base path v2',
    { flavour: 'rest', config: 'stack', requested: 'https://plants.example.org/v2/plants', link: 'relative' },
  ],
  [
    'REST API, sam local start-api',
    { flavour: 'rest', config: 'sam local', requested: 'http://127.0.0.1:3000/plants', link: 'relative' },
  ],
  [
    'REST API, sam local start-api, Host forged as an execute-api host',
    {
      flavour: 'rest',
      config: 'sam local',
      requested: 'http://127.0.0.1:3000/plants',
      host: 'rest123456.execute-api.eu-west-1.amazonaws.com',
      link: 'relative',
    },
  ],
  [
    'HTTP API, execute-api, forged Host header',
    {
      flavour: 'http',
      config: 'stack',
      requested: `${EXECUTE_API}/plants`,
      host: 'evil.example',
      link: `${EXECUTE_API}/plants`,
    },
  ],
];

const plants = [1, 2, 3].map((i) => ({ owner: 'alice', id: `p${i}`, name: `plant ${i}` }));
let dynamo: LocalDynamo;
let issuer: JwksServer;
/** A fresh token per request: however long the file runs, none expires in it. */
let mint: () => string;
const functions = new Map<Config, BundledFunction>();

beforeAll(async () => {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  const caFile = join(tempDir('links'), 'issuer-cert.pem');
  writeFileSync(caFile, tls.cert);
  const key = createSigningKey();
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, plants);
  mint = () => mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: 'alice', ttl: 600 });
  const bundle = await buildBundle();
  for (const [name, env] of Object.entries(CONFIGS)) {
    const fn = startBundledFunction(bundle, {
      ...serviceEnvironment(dynamo.endpoint, issuer.url),
      NODE_EXTRA_CA_CERTS: caFile,
      POWERTOOLS_METRICS_DISABLED: 'true',
      ...env,
    });
    functions.set(name as Config, fn);
  }
});
afterAll(async () => {
  await Promise.all([...functions.values()].map((fn) => fn.stop()));
  await Promise.all([issuer?.close(), dynamo?.close()]);
  removeTempDirs();
});

/** The event for a request to `url`, as the row's gateway delivers it to the function. */
function delivered(url: URL, row: Row) {
  const query = url.search.slice(1);
  const headers = { authorization: `Bearer ${mint()}`, host: row.host ?? url.host };
  if (row.config === 'sam local') {
    // start-api copies the client's Host header into domainName; apiId and stage are placeholders.
    return restApiEvent({
      query,
      headers,
      domainName: headers.host,
      path: url.pathname,
      stage: 'Prod',
      apiId: '1234567890',
    });
  }
  const seen = row.proxiedTo ? new URL(url.href.replace(new URL('.', row.requested).href, `${row.proxiedTo}/`)) : url;
  const apiId = /^([a-z0-9]{10})\.execute-api\./.exec(seen.hostname)?.[1];
  const [first, ...rest] = seen.pathname.split('/').filter(Boolean);
  const onExecuteApi = { domainName: seen.hostname, path: seen.pathname, ...(apiId ? { apiId } : {}) };
  if (row.flavour === 'rest')
    return restApiEvent({ query, headers, ...onExecuteApi, stage: apiId ? (first ?? '') : 'prod' });
  // Payload 2.0: rawPath keeps a named stage's segment but never a custom domain's mapping key.
  const stage = apiId && rest.length > 0 ? (first ?? '') : '$default';
  return httpApiEvent({ query, headers, ...onExecuteApi, ...(!apiId && { path: '/plants' }), stage });
}

describe.each(ROWS)('%s', (_, row) => {
  it(
    row.link === 'relative' ? 'links with the query alone, resolved against the URL requested' : `links to ${row.link}`,
    async () => {
      const fn = functions.get(row.config);
      let url: URL | undefined = new URL(`${row.requested}?limit=2`);
      const seen: unknown[] = [];
      for (let page = 0; url && page < 5; page++) {
        const result: APIGatewayProxyResult | undefined = await fn?.invoke(delivered(url, row));
        assertMatchesContract(result ?? { statusCode: 0 });
        expect(result?.statusCode).toBe(200);
        seen.push(...JSON.parse(result?.body ?? ''));
        const target: string | undefined = /^<([^>]+)>; rel="next"$/.exec(String(result?.headers?.Link ?? ''))?.[1];
        if (target === undefined) break;
        if (row.link === 'relative') {
          expect(target).toMatch(/^\?limit=2&cursor=/);
          url = new URL(target, url);
          expect(`${url.origin}${url.pathname}`).toBe(row.requested);
        } else {
          // What fetch(next) and Python requests do: take the target as a URL on its own.
          expect(URL.canParse(target)).toBe(true);
          url = new URL(target);
          expect(`${url.origin}${url.pathname}`).toBe(row.link);
        }
      }
      expect(seen).toEqual(plants.map(({ name }) => ({ name })));
    },
  );
});
