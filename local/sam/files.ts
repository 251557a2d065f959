// The files `sam local` reads: the --env-vars file, the issuer's certificate, the events, the tokens.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COGNITO_GROUPS_CLAIM } from '../../handlers/lib/config.ts';
import { ENV, functionEnvironment } from '../../handlers/lib/environment.ts';
import { LOCAL_AUDIENCE } from '../issuer/tokens.ts';
import { LOCAL_DYNAMODB_DEADLINE_MS, LOCAL_JWKS_TIMEOUT_MS } from '../server/options.ts';
import type { SamServices } from './services.ts';
import type { SamTemplate } from './template.ts';

const EVENTS_DIR = fileURLToPath(new URL('../../events/', import.meta.url));
const CERT_IN_TASK = 'issuer-cert.pem';

/**
 * The function's environment for sam local; throws on a variable the template doesn't declare. `apiOrigin`
 * makes next links absolute: SAM puts the client's Host header in the event, which the function won't trust.
 */
export function samEnvironment(
  template: SamTemplate,
  services: SamServices,
  apiOrigin?: string,
): Record<string, string> {
  const wanted: Record<string, string> = {
    ...functionEnvironment({
      tableName: services.tableName,
      dynamodbEndpoint: services.dynamodbEndpoint,
      // dynalite beside the container, on a laptop that also runs Docker (server/options.ts).
      dynamodbDeadlineMs: LOCAL_DYNAMODB_DEADLINE_MS,
      // Cognito-shaped tokens, verified through the same path as the default stack's user pool.
      auth: {
        jwksTimeoutMs: LOCAL_JWKS_TIMEOUT_MS,
        issuer: services.issuer.url,
        issuerType: 'cognito',
        audience: [LOCAL_AUDIENCE],
        jwksUri: services.issuer.jwksUri,
      },
      publicBaseUrl: apiOrigin,
    }),
    NODE_EXTRA_CA_CERTS: `/var/task/${CERT_IN_TASK}`,
  };
  const undeclared = Object.keys(wanted).filter((name) => !(name in template.variables));
  if (undeclared.length > 0) {
    throw new Error(
      `${template.file} does not declare ${undeclared.join(', ')}: it must be synthesized with -c samLocal=true`,
    );
  }
  // A groups claim set at deploy (-c authGroupsClaim) would not be the one these tokens use.
  if (ENV.groupsClaim in template.variables) wanted[ENV.groupsClaim] = COGNITO_GROUPS_CLAIM;
  return wanted;
}

export function writeSamFiles(
  dir: string,
  template: SamTemplate,
  services: SamServices,
  { limit, apiOrigin }: { limit?: string | undefined; apiOrigin?: string | undefined } = {},
) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(template.assetDir, CERT_IN_TASK), services.issuer.cert);
  const envFile = join(dir, 'env.json');
  const environment = samEnvironment(template, services, apiOrigin);
  writeFileSync(envFile, `${JSON.stringify({ Parameters: environment }, null, 2)}\n`);
  const tokenFiles: Record<string, string> = {};
  for (const { user, token } of services.tokens) {
    tokenFiles[user] = join(dir, `${user}.token`);
    writeFileSync(tokenFiles[user], `${token}\n`, { mode: 0o600 });
  }
  // HTTP API (payload 2.0) and REST API (payload 1.0) events for `sam local invoke`, as alice.
  const alice = services.tokens[0]?.token ?? '';
  const events = { http: join(dir, 'http-event.json'), rest: join(dir, 'rest-event.json') };
  writeFileSync(events.http, JSON.stringify(httpEvent(alice, limit), null, 2));
  writeFileSync(events.rest, JSON.stringify(restEvent(alice, limit), null, 2));
  return { envFile, events, tokenFiles };
}

const readEvent = (name: string) => JSON.parse(readFileSync(join(EVENTS_DIR, name), 'utf8'));

// The events in events/ ask for limit=2; without --limit the call returns every plant of the caller.
function httpEvent(token: string, limit: string | undefined) {
  const event = readEvent('http-api-get-plants.json');
  event.headers.authorization = `Bearer ${token}`;
  event.rawQueryString = limit ? `limit=${limit}` : '';
  if (limit) event.queryStringParameters = { limit };
  else delete event.queryStringParameters;
  return event;
}

function restEvent(token: string, limit: string | undefined) {
  const event = readEvent('rest-api-get-plants.json');
  // Payload 1.0 carries each header twice; the function reads either.
  event.headers.Authorization = `Bearer ${token}`;
  event.multiValueHeaders.Authorization = [`Bearer ${token}`];
  event.queryStringParameters = limit ? { limit } : null;
  event.multiValueQueryStringParameters = limit ? { limit: [limit] } : null;
  return event;
}
