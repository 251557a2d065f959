// `npm start`: the API on http://127.0.0.1:PORT through the bundle that deploys.

import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readConfig } from '../../handlers/lib/config.ts';
import { DEFAULT_DYNAMODB_DEADLINE_MS, ENV, functionEnvironment } from '../../handlers/lib/environment.ts';
import { type AuthMode, externalIssuer, startLocalIssuer } from '../issuer/auth-mode.ts';
import { DEFAULT_TOKEN_TTL } from '../issuer/tokens.ts';
import { createApp } from '../server/app.ts';
import { banner } from '../server/banner.ts';
import { createLocalServer } from '../server/connections.ts';
import { externalAuthorizeHelp, localAuthorizeHelp } from '../server/docs.ts';
import { loadBundledHandler } from '../server/lambda.ts';
import { DEFAULT_HOST, exposureNotice, knownOrigins, linkBaseFor, originOf } from '../server/listen-address.ts';
import {
  DEFAULT_PORT,
  LOCAL_DYNAMODB_DEADLINE_MS,
  LOCAL_JWKS_TIMEOUT_MS,
  readServerOptions,
} from '../server/options.ts';
import { forgetServer, recordServer } from '../server/servers.ts';
import { DEMO_USERS, demoDataNotice, seedDemoData } from '../store/demo.ts';
import { credentialsFor, openStore, type Store } from '../store/store.ts';
import { escapeControls } from '../terminal-text.ts';
import { holdingStdout, release } from './held-output.ts';
import { runCli } from './shell.ts';

const USAGE = `Usage: npm start [-- --port N] [--host ADDRESS] [--data-dir DIR]

  --port N          port to listen on (or PORT; default ${DEFAULT_PORT}; 0: any free port)
  --host ADDRESS    address to listen on (default ${DEFAULT_HOST}, this machine only; 0.0.0.0: every interface)
  --data-dir DIR    keep the embedded store's data in DIR (or PLANTS_DATA_DIR; default: in memory)

More in docs/local-development.md.`;

/** Sets each variable the user has not set. */
const setUnset = (variables: Record<string, string>) => {
  for (const [name, value] of Object.entries(variables)) process.env[name] ??= value;
};

/** As the shell says an error: one line, control characters escaped (it may quote --host or a cause). */
const fail = (message: string, code = 1): never => {
  console.error(escapeControls(message));
  process.exit(code);
};

const OPTIONS = { port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' } } as const;
const options = await runCli({ usage: USAGE, options: OPTIONS, positionals: false }, ({ values }) =>
  readServerOptions(values, process.env),
);

// Listen first, so a taken port fails in milliseconds; requests wait until the API is ready.
let app: RequestListener | undefined;
let ready = () => {};
const readiness = new Promise<void>((resolve) => {
  ready = resolve;
});
const server = createLocalServer(async (req, res) => {
  await readiness;
  app?.(req, res);
});
await new Promise<void>((resolve) => {
  server.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE')
      // The flag wins over PORT, so this works however the port was given.
      fail(`Port ${options.port} is already in use: stop what runs there, or pick another: npm start -- --port <N>`);
    fail(`Cannot listen on ${options.host} port ${options.port}: ${error.message}`);
  });
  server.listen(options.port, options.host, resolve);
});
// The address actually bound, not a name for it: `localhost` may resolve to ::1 first, where
// another process could listen on the same port and receive the tokens sent there.
const { port, address: boundAddress } = server.address() as AddressInfo;
const origin = originOf(boundAddress, port);

let store: Store | undefined;
let auth: AuthMode | undefined;
try {
  store = await openStore(options.store, 'emulator');
  if (store.createdTable) await seedDemoData(store.client, store.tableName);

  // The handler's configuration, set before the bundle loads, exactly as the stack sets it.
  Object.assign(process.env, {
    ...functionEnvironment({ tableName: store.tableName, dynamodbEndpoint: store.endpoint }),
    AWS_REGION: store.region,
  });
  // Unless set: next links absolute to this server, as the stack makes them absolute to its custom domain,
  // relative beyond loopback (listen-address.ts says why); bounds that fit an in-process store and issuer on
  // a busy laptop (options.ts); the function's records one JSON line each, as on Lambda
  // (POWERTOOLS_DEV=true indents them), no EMF metrics (they only mean something to CloudWatch), a cold
  // start reported as Lambda does.
  setUnset(
    functionEnvironment({
      publicBaseUrl: linkBaseFor(options.host, origin),
      dynamodbDeadlineMs: LOCAL_DYNAMODB_DEADLINE_MS,
      auth: { jwksTimeoutMs: LOCAL_JWKS_TIMEOUT_MS },
      telemetry: { metrics: false, initializationType: 'on-demand' },
    }),
  );
  const credentials = credentialsFor(store.endpoint);
  if (credentials) {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    });
  }
  auth = options.externalIssuer
    ? externalIssuer(process.env)
    : await startLocalIssuer(options.localDir, port, options.tokenShape, DEMO_USERS);
  Object.assign(process.env, auth.env);
  // A table that held data gets no demo data: say so when the banner's commands would find none.
  const demoNotice =
    auth.tokens && !store.createdTable ? await demoDataNotice(store.client, store.tableName) : undefined;
  // Locally, stack traces through the source map (a deployed function asks: -c sourceMaps=true).
  process.setSourceMapsEnabled(true);

  // The function's `init` record is held until the banner is out: the banner comes first, then the log.
  const [handler, initRecords] = await holdingStdout(() => loadBundledHandler(join(options.localDir, 'build')));
  const config = readConfig(process.env);
  app = createApp({
    handler,
    port,
    origins: knownOrigins(boundAddress, port),
    authorizeHelp: auth.jwks ? localAuthorizeHelp(port) : externalAuthorizeHelp(config.auth.issuer),
    jwks: auth.jwks,
    log: (line) => console.log(line),
  });
  recordServer(options.localDir, {
    pid: process.pid,
    port,
    origin,
    ...(auth.issuer && { issuer: auth.issuer }),
    dataDir: options.store.endpoint ? undefined : options.store.dataDir,
    embedded: store.embedded,
    store: { endpoint: store.endpoint, region: store.region, tableName: store.tableName },
  });
  ready();
  console.log(
    banner({
      origin,
      port,
      // performance.now() counts from process start, so module loading is included.
      startupMs: performance.now(),
      store: `${store.describe()}, table ${store.tableName}, deadline ${config.dynamodbDeadlineMs / 1000} s (${ENV.dynamodbDeadlineMs}; deployed: ${DEFAULT_DYNAMODB_DEADLINE_MS / 1000} s)`,
      issuer: auth.description,
      users: auth.tokens,
      tokenTtl: DEFAULT_TOKEN_TTL,
      notices: [demoNotice, exposureNotice(options.host)],
    }),
  );
  release(initRecords);
} catch (error) {
  console.error(escapeControls(`Cannot start: ${(error as Error).message}`));
  await stop(1);
}

/**
 * Ctrl+C under `npm start` arrives twice at once: the terminal signals the whole process group,
 * and npm forwards its own copy. Only a signal well after the first is someone asking to force.
 */
const FORCE_AFTER_MS = 1000;
let firstSignalAt: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    const now = performance.now();
    if (firstSignalAt === undefined) {
      firstSignalAt = now;
      console.log(`${signal}: finishing open requests, then stopping (Ctrl+C again to force)`);
      void stop(0);
    } else if (now - firstSignalAt > FORCE_AFTER_MS) {
      console.log(`${signal} again: stopping now, open requests are dropped`);
      process.exit(130);
    }
  });
}

async function stop(code: number): Promise<never> {
  const closed = new Promise((resolve) => server.close(resolve));
  // In-flight requests get a few seconds; a kept-alive connection closes as soon as it is idle (a
  // browser would otherwise hold the stop for its keep-alive timeout).
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  setTimeout(() => server.closeAllConnections(), 5000).unref();
  await closed;
  clearInterval(idle);
  await auth?.close();
  await store?.close();
  forgetServer(options.localDir, port);
  if (code === 0) console.log('Stopped.');
  process.exit(code);
}
