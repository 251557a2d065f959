// With tracing on, as on Lambda with active tracing, the bundle's DynamoDB call is recorded in each
// invocation's trace: the function's client is not an SDK client, so the call is the Tracer's HTTPS
// capture (a remote subsegment under the handler's), read from the UDP datagrams X-Ray's daemon
// would receive. The bench's own environment runs it, in a child process (its modules read the
// bench's command line, not jest's).

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';

interface Subsegment {
  name: string;
  namespace?: string;
  trace_id: string;
  parent_id: string;
  id: string;
  http?: { request?: { method?: string }; response?: { status?: number } };
}

const bench = fileURLToPath(new URL('../', import.meta.url));
/** Invocations after the cold one: each has its own trace id (function-process.mjs). */
const WARM = 2;
const TRACED_RUN = `
import { createSocket } from 'node:dgram';
import { buildBundle } from '${bench}harness/bundles.ts';
import { CALLER } from '${bench}config.ts';
import { plantsOf, startEnvironment } from '${bench}harness/environment.ts';
import { runFunction } from '${bench}harness/function-process.ts';
import { writeAll } from '${bench}harness/seed.ts';
const bundle = await buildBundle('dynamodb-tracing-test');
const env = await startEnvironment();
const daemon = createSocket('udp4');
const received = [];
daemon.on('message', (m) => received.push(JSON.parse(m.toString().split('\\n')[1])));
await new Promise((resolve) => daemon.bind(0, '127.0.0.1', resolve));
try {
  await writeAll(env.dynamo.client, plantsOf(CALLER, 3));
  const functionEnv = { ...env.functionEnv({ tracing: true }), AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:' + daemon.address().port };
  const run = await runFunction({ bundle: bundle.file, env: functionEnv, event: env.event, invocations: ${WARM} });
  await new Promise((resolve) => setTimeout(resolve, 200));
  console.log(JSON.stringify({ status: run.statusCode, dynamodbHost: new URL(env.dynamoTls.url).hostname, received }));
} finally {
  daemon.close();
  await env.stop();
}
`;

describe('tracing the DynamoDB call', () => {
  it("records each invocation's Query as a POST to DynamoDB's endpoint, under the handler's subsegment", async () => {
    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', TRACED_RUN], {
      env: { ...process.env, BENCH_QUICK: '1' },
    });

    // Assess
    const { status, dynamodbHost, received } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      status: number;
      dynamodbHost: string;
      received: Subsegment[];
    };
    expect(status).toBe(200);
    const handlers = received.filter((s) => s.name.startsWith('## '));
    const calls = received.filter((s) => s.namespace === 'remote' && s.http?.request?.method === 'POST');
    // The cold invocation and each warm one.
    expect(handlers).toHaveLength(WARM + 1);
    for (const handler of handlers) {
      const call = calls.find((s) => s.parent_id === handler.id);
      expect(call).toMatchObject({ name: dynamodbHost, trace_id: handler.trace_id });
      expect(call?.http?.response?.status).toBe(200);
    }
  }, 60_000);
});
