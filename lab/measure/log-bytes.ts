// What one request writes to the function's log stream, measured: the production bundle runs as the
// default stack runs it on Lambda (its environment from infra/telemetry.ts, metrics on, tracing as
// deployed, AWS_LAMBDA_LOG_FORMAT=JSON) and every line it writes is kept, for a 200, a 400 (bad
// limit), a 401 (expired token) and a 503 (DynamoDB unreachable), warm, and at its cold start.
// Also with REQUEST_LOG=all and with tracing on, which the flags' prices need.

import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bundle } from '../harness/bundles.ts';
import type { BenchEnvironment } from '../harness/environment.ts';
import { type FunctionRun, runFunction } from '../harness/function-process.ts';

export const STATUSES = ['200', '400', '401', '503'] as const;
export type Status = (typeof STATUSES)[number];

export interface Written {
  /** The lines, as the function wrote them (each one CloudWatch log event). */
  lines: string[];
  /** UTF-8 bytes of the lines, without their newlines. */
  bytes: number;
}

export interface StatusLog {
  statusCode: number;
  function: Written;
  response: { statusCode: number; headers?: Record<string, string>; body: string };
}

export interface LogMeasurement {
  /** Each status, warm, as the default stack configures the function. */
  byStatus: Record<Status, StatusLog>;
  /** INIT and the first request of a fresh process: the init record (and the first request's). */
  coldStart: Written;
  /** The 200 and 401 again with REQUEST_LOG=all and with tracing on. */
  requestLogAll: Record<'200', StatusLog>;
  tracing: Record<'200' | '401', StatusLog>;
}

export const written = (lines: string[]): Written => ({
  lines,
  bytes: lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0),
});

export async function measureLogBytes(env: BenchEnvironment, bundle: Bundle): Promise<LogMeasurement> {
  // API Gateway's request ids are 16 characters; the test events' are shorter.
  const realistic = <Event extends { requestContext: object }>(event: Event) => ({
    ...event,
    requestContext: { ...event.requestContext, requestId: 'Jx4kXhXdoAMEV7A=' },
  });
  const ok = realistic(env.event);
  const expired = realistic(env.eventWith({ exp: Math.floor(Date.now() / 1000) - 60 }));
  const asDeployed = (options: Parameters<BenchEnvironment['functionEnv']>[0] = {}) => ({
    // As Lambda sets them: the JSON log format, the version the `live` alias points at, and the
    // execution environment, where Powertools would load the Tracer unless told not to.
    ...env.functionEnv({ ...options, version: '7' }),
    AWS_LAMBDA_LOG_FORMAT: 'JSON',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  });
  const run = (options: Parameters<BenchEnvironment['functionEnv']>[0], logEvents: Record<string, unknown>) =>
    runFunction({ bundle: bundle.file, env: asDeployed(options), event: env.event, logEvents });

  const main = await run({}, { '200': ok, '400': realistic(env.eventWith({}, 'limit=0')), '401': expired });
  const down = await run({ dynamodb: `https://127.0.0.1:${await closedPort()}` }, { '503': ok });
  const all = await run({ requestLog: 'all' }, { '200': ok });
  const traced = await run({ tracing: true }, { '200': ok, '401': expired });
  // Stack traces name the bundle where Lambda keeps it.
  const onLambda = (lines: string[]) =>
    lines.map((line) => line.replaceAll(pathToFileURL(dirname(bundle.file)).href, 'file:///var/task'));
  return {
    byStatus: {
      ...statusLogs(main, ['200', '400', '401'], onLambda),
      ...statusLogs(down, ['503'], onLambda),
    } as Record<Status, StatusLog>,
    coldStart: written(onLambda(main.logs?.cold ?? [])),
    requestLogAll: statusLogs(all, ['200'], onLambda) as Record<'200', StatusLog>,
    tracing: statusLogs(traced, ['200', '401'], onLambda) as Record<'200' | '401', StatusLog>,
  };
}

function statusLogs(
  run: FunctionRun,
  names: string[],
  onLambda: (lines: string[]) => string[],
): Record<string, StatusLog> {
  return Object.fromEntries(
    names.map((name) => {
      const event = run.logs?.events[name];
      if (!event || event.response.statusCode !== Number(name)) {
        throw new Error(`the ${name} request answered ${event?.response.statusCode}`);
      }
      const lines = onLambda(event.lines);
      return [name, { statusCode: event.response.statusCode, function: written(lines), response: event.response }];
    }),
  );
}

/** A local port nothing listens on: connections are refused at once, as from an unreachable endpoint. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
