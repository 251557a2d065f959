// GET /docs opened in headless Chromium (Debian's chromium package): the operation is rendered
// from openapi.yaml with Swagger UI served by the local server itself, nothing from a CDN.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { type LocalServer, removeTempDirs, startLocalServer, tempDir } from '../helpers/local-server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

/** The page's DOM once scripts have run, as headless Chromium dumps it. */
async function renderedDom(url: string): Promise<string> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (as .ci/run does), or set CHROMIUM_PATH`);
  }
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${tempDir('chromium')}`,
      // Virtual time runs until the page is idle (scripts loaded, openapi.json fetched, rendered).
      '--virtual-time-budget=15000',
      '--dump-dom',
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024, timeout: 30_000 },
  );
  return stdout;
}

it('renders GET /plants from openapi.yaml in Swagger UI served by the local server', async () => {
  const dom = await renderedDom(`${server.origin}/docs`);

  expect(dom).toMatch(/class="title">Plant store/);
  expect(dom).toMatch(/opblock-summary-method">GET</);
  expect(dom).toMatch(/class="opblock-summary-path" data-path="\/plants"/);
  expect(dom).toContain('List plants');
  for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/openapi.json']) {
    await expect(server.waitForOutput(new RegExp(` GET ${asset} 200 `))).resolves.toBeTruthy();
  }
});

it('serves only the Swagger UI files the page needs from node_modules', async () => {
  for (const path of ['/docs/package.json', '/docs/../package.json', '/docs/index.html', '/docs/swagger-ui.js.map']) {
    expect((await fetch(`${server.origin}${path}`)).status).toBe(404);
  }
});
