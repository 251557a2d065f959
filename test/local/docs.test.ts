// GET /docs opened in headless Chromium as a person would open it: Swagger UI, served by the local
// server itself (nothing from a CDN), shows the operation from openapi.yaml and its parameters.

import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'puppeteer-core';
import { OPERATIONS } from '../../handlers/lib/operations.ts';
import { launchBrowser, newPage } from '../helpers/browser.ts';
import { type LocalServer, removeTempDirs, startLocalServer } from '../helpers/local-server.ts';
import { openapi } from '../helpers/openapi.ts';

let server: LocalServer;
let browser: Browser;
beforeAll(async () => {
  // One at a time, so whichever started is closed by afterAll when the other fails.
  server = await startLocalServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  removeTempDirs();
});

/**
 * Opens /docs and waits for Swagger UI to have rendered the operation; notes every request, and
 * everything the page's Content-Security-Policy blocked (`violations()`).
 */
async function openDocs(): Promise<{ page: Page; requested: string[]; violations(): Promise<string[]> }> {
  const page = await newPage(browser);
  const requested: string[] = [];
  page.on('request', (request) => void requested.push(request.url()));
  // Page code, as text: this project's TypeScript has no DOM types.
  await page.evaluateOnNewDocument(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline code'));
    });
  `);
  await page.goto(`${server.origin}/docs`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('.opblock-summary-path[data-path="/plants"]', { visible: true });
  const violations = () => page.evaluate('window.cspViolations') as Promise<string[]>;
  return { page, requested, violations };
}

const visibleText = (page: Page, selector: string) =>
  page.$$eval(selector, (nodes) => nodes.map((node) => (node as unknown as { innerText: string }).innerText.trim()));

it('shows GET /plants from openapi.yaml, with its parameters once opened, using only the local server', async () => {
  const { page, requested, violations } = await openDocs();

  expect(await visibleText(page, '.info .title')).toEqual([expect.stringMatching(/^Plant store/)]);
  // Every operation openapi.yaml documents, as the API's table lists them.
  const documented = OPERATIONS.map(({ method, path }) => openapi.paths[path][method.toLowerCase()]);
  expect(await visibleText(page, '.opblock-summary-method')).toEqual(OPERATIONS.map(({ method }) => method));
  expect(await visibleText(page, '.opblock-summary-description')).toEqual(documented.map(({ summary }) => summary));
  expect(await visibleText(page, '.btn.authorize')).toEqual([expect.stringMatching(/Authorize/)]);

  // A person clicks the operation to read what it takes.
  await page.click('.opblock-summary-control');
  await page.waitForSelector('.parameters .parameter__name', { visible: true });
  const parameters = await visibleText(page, '.parameters .parameter__name');
  expect(parameters.map((name) => name.replace(/\s*\*?$/, ''))).toEqual(['limit', 'cursor']);

  // Inline data: images are part of the page; anything else must come from the local server.
  expect(requested.filter((url) => !url.startsWith(`${server.origin}/`) && !url.startsWith('data:'))).toEqual([]);
  for (const path of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/openapi.json']) {
    expect(requested).toContain(`${server.origin}${path}`);
  }
  // Everything Swagger UI needs is allowed by the page's Content-Security-Policy.
  expect(await violations()).toEqual([]);
  await page.close();
});

it("calls the API from Try it out under the page's Content-Security-Policy", async () => {
  const { page, violations } = await openDocs();
  await page.click('.opblock-summary-control');
  await page.waitForSelector('.try-out__btn', { visible: true });
  await page.click('.try-out__btn');
  await page.click('.btn.execute');

  // No token: the function's 401, fetched by the page from this server.
  await page.waitForSelector('.live-responses-table tbody .response-col_status', { visible: true });
  expect(await visibleText(page, '.live-responses-table tbody .response-col_status')).toEqual(['401']);
  expect(await violations()).toEqual([]);
  await page.close();
});

it('refuses to be shown in a frame of another page (clickjacking)', async () => {
  const page = await newPage(browser);
  const refusals: string[] = [];
  page.on('console', (message) => void refusals.push(message.text()));
  await page.setContent(`<iframe src="${server.origin}/docs" width="800" height="600"></iframe>`, {
    waitUntil: 'load',
  });

  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  const rendered = await frame?.evaluate("document.querySelector('#swagger-ui') !== null").catch(() => false);
  expect(rendered).toBe(false);
  expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'/);
  await page.close();
});

it('says in the Authorize dialog how to get a token for this server, and to paste it alone', async () => {
  const { page } = await openDocs();
  await page.click('.btn.authorize');
  await page.waitForSelector('.modal-ux .auth-container', { visible: true });
  const [dialog] = await visibleText(page, '.modal-ux .auth-container');
  expect(dialog).toContain(`npm run -s token -- alice --port ${server.port}`);
  expect(dialog).toContain('paste the token alone');
  await page.close();
});

it('serves only the Swagger UI files the page needs from node_modules', async () => {
  for (const path of ['/docs/package.json', '/docs/../package.json', '/docs/index.html', '/docs/swagger-ui.js.map']) {
    expect((await fetch(`${server.origin}${path}`)).status).toBe(404);
  }
});
