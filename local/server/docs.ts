// The API reference: openapi.yaml rendered by Swagger UI from its npm package, under a strict CSP.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { HttpReply } from './apigateway.ts';

const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files served from the package: nothing else in node_modules is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Every page and file of the server's own is served as the type it says (no sniffing). */
export const NOSNIFF: [string, string] = ['x-content-type-options', 'nosniff'];

/**
 * Scripts, styles and "Try it out" calls from this server only, images also as data: URLs; no framing
 * (frame-ancestors, and X-Frame-Options for browsers older than CSP 2).
 */
const DOCS_PAGE_HEADERS: [string, string][] = [
  [
    'content-security-policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
      "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  ],
  ['x-frame-options', 'DENY'],
];

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Plant store API reference</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/** A file rather than an inline script, so the policy needs no 'unsafe-inline' for scripts. */
const INIT = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n";

/** GET /docs, its assets and /openapi.json (`origin`: one this server knows); undefined for other paths. */
export async function docsReply(path: string, origin: string, authorizeHelp: string): Promise<HttpReply | undefined> {
  if (path === '/docs') return reply('text/html; charset=utf-8', PAGE, 'no-cache', DOCS_PAGE_HEADERS);
  if (path === '/docs/init.js') return reply('text/javascript; charset=utf-8', INIT);
  if (path === '/openapi.json') {
    return reply('application/json', JSON.stringify(await openapiFor(origin, authorizeHelp)));
  }
  const asset = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined;
  if (!type) return undefined;
  return reply(type, await readFile(join(SWAGGER_UI_DIR, asset)), 'public, max-age=3600');
}

/** What Authorize should say on a server with the local issuer: how to get a token, and what to paste. */
export const localAuthorizeHelp = (port: number) =>
  `On this local server: run \`npm run -s token -- alice${port !== 3000 ? ` --port ${port}` : ''}\` ` +
  '(add `--groups greenhouse` for a member of that group) and paste the token alone into Value, without `Bearer ` ' +
  'in front: Swagger UI adds it. Tokens last an hour.';

/** The same with an external issuer (AUTH_ISSUER), which `npm run token` cannot mint for. */
export const externalAuthorizeHelp = (issuer: string) =>
  `This local server accepts access tokens from ${issuer}: paste one alone into Value, without \`Bearer \` in ` +
  'front: Swagger UI adds it.';

/** Read on every request so edits to openapi.yaml show without a restart. */
async function openapiFor(origin: string, authorizeHelp: string) {
  const document = parse(await readFile(OPENAPI_FILE, 'utf8'));
  // "Try it out" should call this server, whatever port it runs on.
  const variable = document.servers?.[0]?.variables?.base_url;
  if (variable) variable.default = origin;
  // Authorize asks for a token: say here how to get one for this server, and what to paste.
  const scheme = document.components?.securitySchemes?.bearerAuth;
  if (scheme) scheme.description = [scheme.description, authorizeHelp].filter(Boolean).join('\n\n');
  return document;
}

function reply(
  type: string,
  body: string | Buffer,
  cacheControl = 'no-cache',
  extra: [string, string][] = [],
): HttpReply {
  return {
    statusCode: 200,
    headers: [['content-type', type], ['cache-control', cacheControl], NOSNIFF, ...extra],
    body: Buffer.from(body),
  };
}
