// The API reference: openapi.yaml as JSON, rendered by Swagger UI from its npm package (no CDN).

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { HttpReply } from './apigateway.ts';

const OPENAPI_FILE = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files served from the package: nothing else in node_modules is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

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
    <script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });</script>
  </body>
</html>
`;

/** Answers GET /docs, /docs/<asset> and /openapi.json; undefined for any other path. */
export async function docsReply(path: string, origin: string): Promise<HttpReply | undefined> {
  if (path === '/docs') return reply('text/html; charset=utf-8', PAGE);
  if (path === '/openapi.json') return reply('application/json', JSON.stringify(await openapiFor(origin)));
  const asset = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined;
  if (!type) return undefined;
  return reply(type, await readFile(join(SWAGGER_UI_DIR, asset)), 'public, max-age=3600');
}

const authorizeHelp = (port: string) =>
  `On this local server: run \`npm run -s token -- alice${port && port !== '3000' ? ` --port ${port}` : ''}\` ` +
  '(add `--groups greenhouse` for a member of that group) and paste the token alone into Value, without `Bearer ` ' +
  'in front: Swagger UI adds it. Tokens last an hour.';

/** Read on every request so edits to openapi.yaml show without a restart. */
async function openapiFor(origin: string) {
  const document = parse(await readFile(OPENAPI_FILE, 'utf8'));
  // "Try it out" should call this server, whatever port it runs on.
  const variable = document.servers?.[0]?.variables?.base_url;
  if (variable) variable.default = origin;
  // Authorize asks for a token: say here how to get one for this server, and what to paste.
  const scheme = document.components?.securitySchemes?.bearerAuth;
  if (scheme)
    scheme.description = [scheme.description, authorizeHelp(new URL(origin).port)].filter(Boolean).join('\n\n');
  return document;
}

function reply(type: string, body: string | Buffer, cacheControl = 'no-cache'): HttpReply {
  return {
    statusCode: 200,
    headers: [
      ['content-type', type],
      ['cache-control', cacheControl],
    ],
    body: Buffer.from(body),
  };
}
