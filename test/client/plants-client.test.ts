// The reference client: the first URL under any base, next links in either form, every plant.

import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  listPlants,
  nextPage,
  type Plant,
  PlantsApiError,
  PlantsRedirectError,
  plantsUrl,
  sameOrigin,
} from '../../client/plants-client.ts';
import { FAKE_PLANTS, FAKE_TOKEN, type FakeApi, startFakeApi } from '../helpers/fake-api.ts';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  removeTempDirs();
});

describe('plantsUrl', () => {
  it.each([
    [
      'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/',
      'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/plants',
    ],
    ['https://api.example.com/v1', 'https://api.example.com/v1/plants'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1/plants'],
    ['http://localhost:3000/plants', 'http://localhost:3000/plants'],
  ])('puts plants under %s', (base, expected) => {
    expect(plantsUrl(base).href).toBe(expected);
  });

  it('adds the query', () => {
    expect(plantsUrl('http://localhost:3000', { limit: 2 }).href).toBe('http://localhost:3000/plants?limit=2');
  });
});

describe('nextPage', () => {
  const response = (link: string | undefined) => ({
    url: 'https://api.example.com/v1/plants?limit=2',
    headers: new Headers(link === undefined ? {} : { link }),
  });

  it('takes an absolute target as it is, and resolves a relative one against the response URL', () => {
    expect(nextPage(response('<https://x.example/plants?cursor=a>; rel="next"'))?.href).toBe(
      'https://x.example/plants?cursor=a',
    );
    expect(nextPage(response('<?limit=2&cursor=a>; rel="next"'))?.href).toBe(
      'https://api.example.com/v1/plants?limit=2&cursor=a',
    );
  });

  it('picks rel="next" among several links, and finds none on the last page', () => {
    expect(nextPage(response('<https://x.example/first>; rel="first", <https://x.example/2>; rel=next'))?.href).toBe(
      'https://x.example/2',
    );
    expect(nextPage(response('<https://x.example/first>; rel="first"'))).toBeUndefined();
    expect(nextPage(response(undefined))).toBeUndefined();
  });
});

describe('listPlants', () => {
  it('yields every plant, page after page', async () => {
    const plants = [];
    for await (const plant of listPlants(api.url, FAKE_TOKEN, { limit: 2 })) plants.push(plant);
    expect(plants).toEqual(FAKE_PLANTS);
  });

  it('never sends the token to another origin a next link names', async () => {
    const elsewhere = await startFakeApi('links elsewhere');
    try {
      const plants: Plant[] = [];
      const failure = await (async () => {
        for await (const plant of listPlants(elsewhere.url, FAKE_TOKEN, { limit: 2 })) plants.push(plant);
      })().catch((error: unknown) => error);
      expect(failure).toMatchObject({
        message: expect.stringMatching(/linked to http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:\d+/),
      });
      expect(plants).toEqual(FAKE_PLANTS.slice(0, 2));
      expect(elsewhere.tokenHosts).toEqual([new URL(elsewhere.url).host]);
    } finally {
      await elsewhere.close();
    }
  });

  it("takes localhost, 127.0.0.1 and [::1] as three origins: another process can listen on one of a server's names", () => {
    const first = new URL('http://127.0.0.1:3000/plants');
    expect(sameOrigin(new URL('http://127.0.0.1:3000/plants?cursor=a'), first)?.href).toBe(
      'http://127.0.0.1:3000/plants?cursor=a',
    );
    for (const next of [
      'http://localhost:3000/plants?cursor=a',
      'http://[::1]:3000/plants?cursor=a',
      'http://127.0.0.2:3000/plants',
      'http://127.0.0.1:3001/plants',
      'https://127.0.0.1:3000/plants',
    ]) {
      expect(() => sameOrigin(new URL(next), first)).toThrow(
        `linked to ${new URL(next).origin}, not http://127.0.0.1:3000`,
      );
    }
  });

  it.each([301, 302, 303, 307, 308])(
    'refuses a %i redirect to another origin, sending the token nowhere else',
    async (status) => {
      const elsewhere = await startFakeApi();
      const redirecting = createServer((req, res) => {
        res.writeHead(status, { location: `${elsewhere.url}${req.url}` }).end();
      });
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
      try {
        const plants: Plant[] = [];
        const failure = await (async () => {
          for await (const plant of listPlants(url, FAKE_TOKEN)) plants.push(plant);
        })().catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(PlantsRedirectError);
        expect(failure).toMatchObject({
          status,
          location: `${elsewhere.url}/plants`,
          message: expect.stringContaining(`answered ${status}, a redirect to ${elsewhere.url}/plants: not followed`),
        });
        expect(plants).toEqual([]);
        expect(elsewhere.tokenHosts).toEqual([]);
      } finally {
        await new Promise((resolve) => redirecting.close(resolve));
        await elsewhere.close();
      }
    },
  );

  it('throws the status and Error body of a refusal', async () => {
    const failure = await listPlants(api.url, 'expired')
      .next()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlantsApiError);
    expect(failure).toMatchObject({ status: 401, body: { error: 401, message: 'Invalid token' } });
  });
});

describe('the client copied into an app', () => {
  it('runs from plants-client.ts and api-types.ts alone, in a folder with no package, and walks every page', async () => {
    // Prepare: the two files docs/layout.md says copy as they are, and an app that uses them.
    const app = tempDir('app');
    for (const file of ['plants-client.ts', 'api-types.ts']) {
      copyFileSync(new URL(`../../client/${file}`, import.meta.url), join(app, file));
    }
    const script = [
      "import { listPlants } from './plants-client.ts';",
      'const names = [];',
      'for await (const plant of listPlants(process.argv[2], process.argv[3], { limit: 2 })) names.push(plant.name);',
      'console.log(JSON.stringify(names));',
    ].join('\n');
    writeFileSync(join(app, 'app.ts'), script);
    // Act: Node runs the TypeScript as it is (type stripping), as an app would.
    const { stdout } = await promisify(execFile)(process.execPath, ['app.ts', api.url, FAKE_TOKEN], { cwd: app });
    // Assess
    expect(JSON.parse(stdout)).toEqual(FAKE_PLANTS.map(({ name }) => name));
  });
});
