// `-c authRequiredScope` with the stack's own pool, end to end as far as runs offline: the function
// configured with the synthesized template's AUTH_* values, called with tokens shaped as Cognito
// issues them (client credentials for the machine client, initiate-auth for a user).

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signToken } from '../../local/issuer/issuer.ts';
import { synth } from '../helpers/cdk.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { type Service, startService } from '../helpers/service.ts';

const POOL_ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_TestPool1';
const APP_CLIENT = 'app-client-123';
const MACHINE_CLIENT = 'machine-client-456';
// What the template's references stand for once deployed.
const DEPLOYED: Record<string, string> = {
  IdentityUserPoolAppClient: APP_CLIENT,
  IdentityUserPoolMachineClient: MACHINE_CLIENT,
  IdentityUserPool: POOL_ISSUER,
};

let service: Service;

beforeAll(async () => {
  const synthesized = await synth({ authRequiredScope: 'plants/read' });
  const [fn] = Object.values(synthesized.template.findResources('AWS::Lambda::Function'));
  const variables: Record<string, unknown> = fn?.Properties.Environment.Variables;
  const auth = Object.fromEntries(
    Object.entries(variables)
      .filter(([name]) => name.startsWith('AUTH_'))
      .map(([name, value]) => [name, resolve(value)]),
  );
  service = await startService(auth);
  await service.seed([
    { owner: MACHINE_CLIENT, id: 'p1', name: 'Fern' },
    { owner: 'user-sub-1', id: 'p1', name: 'Cactus' },
  ]);
  // synth() holds the event loop for seconds (cdk-nag), far longer on a loaded machine: no hook
  // timeout shorter than the run's (jest.config.js), past which jest would run afterAll while
  // startService is still under way, and the service it then starts would keep the run from exiting.
});
afterAll(() => service?.stop());

/** Resolves Ref, Fn::GetAtt and Fn::Join to the deployed values above. */
function resolve(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as { Ref?: string; 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, unknown[]] };
  const logicalId = node.Ref ?? node['Fn::GetAtt']?.[0];
  if (logicalId) {
    const match = Object.keys(DEPLOYED).find((prefix) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(logicalId));
    if (!match) throw new Error(`no deployed value for ${logicalId}`);
    return DEPLOYED[match] as string;
  }
  if (node['Fn::Join']) return node['Fn::Join'][1].map(resolve).join(node['Fn::Join'][0]);
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

const now = () => Math.floor(Date.now() / 1000);
const call = (claims: Record<string, unknown>) => {
  const token = signToken(service.key, {
    iss: POOL_ISSUER,
    token_use: 'access',
    iat: now(),
    exp: now() + 600,
    ...claims,
  });
  return service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));
};
// A client-credentials access token: `sub` and `client_id` are the client, no user, no groups.
const machineToken = (scope: string) => ({ sub: MACHINE_CLIENT, client_id: MACHINE_CLIENT, scope, version: 2 });

describe('a required scope with the own pool', () => {
  it("answers the machine client's client-credentials token with its own plants", async () => {
    expect(await call(machineToken('plants/read'))).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
  });

  it('answers 403 insufficient_scope to a user token from initiate-auth, which cannot carry the scope', async () => {
    const reply = await call({ sub: 'user-sub-1', client_id: APP_CLIENT, scope: 'aws.cognito.signin.user.admin' });
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="plants/read"');
  });

  it('answers 403 to a machine token granted another scope of the resource server', async () => {
    expect((await call(machineToken('plants/write'))).status).toBe(403);
  });

  it('answers 401 to a client of another pool or app, whatever its scope', async () => {
    const reply = await call({ sub: 'other', client_id: 'other-client', scope: 'plants/read' });
    expect(reply.status).toBe(401);
  });
});
