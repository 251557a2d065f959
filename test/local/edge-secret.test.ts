// `npm start` with EDGE_ORIGIN_SECRET set, as a user trying the edge's origin check locally: the
// banner says so and its curl sends the header, and the access log gives the edge's reason for a
// 403 that carries a good token but not the header (the check comes before the token's).

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EDGE_ORIGIN_HEADER } from '../../handlers/lib/environment.ts';
import { type LocalServer, removeTempDirs, startLocalServer, tokenFor } from '../helpers/local-server.ts';

const SECRET = 'local-edge-secret-0123456789';
let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer([], { EDGE_ORIGIN_SECRET: SECRET });
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

const bannerOf = (output: string) => output.slice(output.indexOf('Plant store API'), output.indexOf('Press Ctrl+C'));

describe('npm start with EDGE_ORIGIN_SECRET', () => {
  it("says so, and its curl, pasted in a shell that has the variable, sends the edge's header and gets 200", async () => {
    const banner = bannerOf(server.output());
    expect(banner).toContain(`Note: EDGE_ORIGIN_SECRET is set: a request without the ${EDGE_ORIGIN_HEADER} header`);
    const commands = banner
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^(TOKEN=|curl )/.test(line));
    expect(commands).toHaveLength(2);
    const { stdout } = await promisify(execFile)('sh', ['-c', commands.join('\n')], {
      env: { ...process.env, PLANTS_LOCAL_DIR: server.localDir, EDGE_ORIGIN_SECRET: SECRET },
    });
    expect(stdout).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("logs a good token's 403 without the header as the edge's refusal, not the token's", async () => {
    const token = await tokenFor(server, 'alice');
    const response = await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(403);
    const line = await server.waitForOutput(/^\S+Z GET \/plants 403 .*$/m);
    expect(line[0]).toContain(`because: no ${EDGE_ORIGIN_HEADER} header with EDGE_ORIGIN_SECRET`);
  });
});
