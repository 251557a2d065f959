// Real clients against `npm start`: `npm run smoke`, and the idioms client developers write,
// `fetch(next)` and Python requests' `r.links['next']['url']`, each walking every page as-is.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoPlants } from '../../local/store/demo.ts';
import { findCommand, interpreterOf } from '../checkers/installed.ts';
import { type LocalServer, removeTempDirs, runNpm, startLocalServer, tokenFor } from '../helpers/local-server.ts';

const run = promisify(execFile);

let server: LocalServer;
let token: string;
beforeAll(async () => {
  server = await startLocalServer();
  token = await tokenFor(server, 'alice');
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

/** alice's plants, then her group greenhouse's, as the API returns them. */
const alices = demoPlants()
  .filter((plant) => plant.owner === 'alice' || plant.group === 'greenhouse')
  .map(({ name }) => name);

describe('clients of npm start', () => {
  it('npm run smoke walks every page and passes every check, with a token from the running server', async () => {
    const result = await runNpm('smoke', [], { PLANTS_LOCAL_DIR: server.localDir });
    expect(result.stdout).toContain(`Smoke check of ${server.origin}/plants: passed`);
    expect(result.stdout).toContain(`walk       3 page(s), ${alices.length} plant(s), next links absolute`);
    expect(result.stdout).toMatch(/statuses {3}200 ×3, 400 ×1, 401 ×2/);
    expect(result.code).toBe(0);
  });

  it('fetch(next) with the Link target as it is', async () => {
    const names: string[] = [];
    let next: string | undefined = `${server.origin}/plants?limit=2`;
    for (let page = 0; next && page < 10; page++) {
      const response: Response = await fetch(next, { headers: { authorization: `Bearer ${token}` } });
      names.push(...((await response.json()) as { name: string }[]).map(({ name }) => name));
      next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(names).toEqual(alices);
  });

  it("Python requests, following r.links['next']['url'], the host spelt as the user typed it", async () => {
    // The Python that runs moto_server (which npm test provides): requests is one of moto's dependencies.
    const moto = findCommand('moto_server');
    if (!moto) throw new Error('moto_server is not on PATH: see docs/testing.md, Python checkers');
    const script = [
      'import json, sys, requests',
      'from urllib.parse import urljoin, urlsplit',
      'def origin(url):',
      '    u = urlsplit(url)',
      '    return u.scheme, u.hostname, u.port or {"http": 80, "https": 443}[u.scheme]',
      'api_url = sys.argv[1]',
      'headers = {"Authorization": "Bearer " + sys.argv[2]}',
      'r = requests.get(f"{api_url}plants?limit=2", headers=headers)',
      'r.raise_for_status()',
      'names = [plant["name"] for plant in r.json()]',
      'while "next" in r.links:',
      '    next_url = urljoin(r.url, r.links["next"]["url"])',
      '    if origin(next_url) != origin(api_url):',
      '        raise RuntimeError(f"next link leaves {api_url}: {next_url}")',
      '    r = requests.get(next_url, headers=headers)',
      '    r.raise_for_status()',
      '    names += [plant["name"] for plant in r.json()]',
      'print(json.dumps(names))',
    ].join('\n');
    const { stdout } = await run(interpreterOf(moto), ['-c', script, `http://LOCALHOST:${server.port}/`, token]);
    expect(JSON.parse(stdout)).toEqual(alices);
  });

  it('the Python snippet of docs/api.md, as written (its URL this server), runs and reads every plant', async () => {
    // The Python that runs moto_server (which npm test provides): requests is one of moto's dependencies.
    const moto = findCommand('moto_server');
    if (!moto) throw new Error('moto_server is not on PATH: see docs/testing.md, Python checkers');
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const snippet = /```python\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    expect(snippet).toContain('api_url = "http://127.0.0.1:3000/"');
    const script = `${snippet.replace('http://127.0.0.1:3000/', `${server.origin}/`)}\nimport json\nprint(json.dumps([p["name"] for p in plants]))\n`;
    const { stdout } = await run(interpreterOf(moto), ['-c', script], { env: { ...process.env, TOKEN: token } });
    expect(JSON.parse(stdout)).toEqual(alices);
  });
});
