// A stand-in for IAM's and STS's query endpoints (moto implements no SimulatePrincipalPolicy): it answers
// SimulatePrincipalPolicy in the API's documented XML shape with the decisions of the project's IAM
// evaluator over a given policy, and GetCallerIdentity for one account. The AWS SDK clients point at it.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Call } from '../../infra/deploy-access/calls.ts';
import { decideCall } from './deploy-calls.ts';
import { ACCOUNT, type PolicyDocument } from './iam.ts';

const escaped = (text: string) => text.replace(/[<>&'"]/g, (each) => `&#${each.charCodeAt(0)};`);

/** The query API's XML for a value: objects as elements, lists as `member`s. */
const xml = (value: unknown): string => {
  if (Array.isArray(value)) return value.map((each) => `<member>${xml(each)}</member>`).join('');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, each]) => `<${key}>${xml(each)}</${key}>`)
      .join('');
  }
  return escaped(String(value));
};
const response = (action: string, result: unknown) =>
  `<${action}Response xmlns="https://iam.amazonaws.com/doc/2010-05-08/"><${action}Result>${xml(result)}</${action}Result><ResponseMetadata><RequestId>7a62c49f-347e-4fc4-9331-6e8eEXAMPLE</RequestId></ResponseMetadata></${action}Response>`;

/** The `name.member.N` values of a query request, in order. */
const members = (form: URLSearchParams, name: string) =>
  [...form.keys()]
    .filter((key) => new RegExp(`^${name}\\.member\\.\\d+$`).test(key))
    .sort((a, b) => Number(a.split('.').at(-1)) - Number(b.split('.').at(-1)))
    .map((key) => form.get(key) ?? '');

export interface IamEndpoint {
  url: string;
  /** The SimulatePrincipalPolicy requests received. */
  requests: URLSearchParams[];
  close(): Promise<void>;
}

/** Serves IAM's decisions for `policy` as the identity policy of whatever role the request names. */
export async function startIamEndpoint(policy: () => PolicyDocument): Promise<IamEndpoint> {
  const requests: URLSearchParams[] = [];
  const server: Server = createServer(async (request, reply) => {
    const form = new URLSearchParams(Buffer.concat(await Array.fromAsync(request)).toString());
    const action = form.get('Action');
    reply.setHeader('content-type', 'text/xml');
    if (action === 'GetCallerIdentity') {
      const identity = { Arn: `arn:aws:iam::${ACCOUNT}:user/admin`, UserId: 'AIDAEXAMPLE', Account: ACCOUNT };
      reply.end(response(action, identity).replace('iam.amazonaws.com', 'sts.amazonaws.com'));
      return;
    }
    if (action !== 'SimulatePrincipalPolicy') {
      reply.statusCode = 400;
      reply.end(
        `<ErrorResponse><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>${escaped(String(action))}</Message></Error></ErrorResponse>`,
      );
      return;
    }
    requests.push(form);
    const [resource = '*'] = members(form, 'ResourceArns');
    const context: Record<string, string> = {};
    for (let n = 1; form.has(`ContextEntries.member.${n}.ContextKeyName`); n += 1) {
      context[form.get(`ContextEntries.member.${n}.ContextKeyName`) ?? ''] =
        form.get(`ContextEntries.member.${n}.ContextKeyValues.member.1`) ?? '';
    }
    const results = [];
    for (const name of members(form, 'ActionNames')) {
      const call = { action: name, resource, context } as Call;
      const decision = await decideCall(call, form.get('PolicySourceArn') ?? '', policy());
      const EvalDecision =
        ({ Allowed: 'allowed', ExplicitlyDenied: 'explicitDeny' } as Record<string, string>)[decision] ??
        'implicitDeny';
      results.push({
        EvalActionName: name,
        EvalResourceName: resource,
        EvalDecision,
        MatchedStatements: [],
        MissingContextValues: [],
      });
    }
    reply.end(response(action, { EvaluationResults: results, IsTruncated: false }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
