// `npm run smoke -- --deployed`'s target: the deployed stack's URL and a token of its pool.

import { relative } from 'node:path';
import { deployedSession } from '../../deployed/session.ts';
import { localDirOf } from '../server/options.ts';
import { type Flags, UsageError } from './args.ts';

/** What smoke's command line says of its target, local or deployed (smoke.ts's options). */
export type TargetOptions = { user: string } & Flags<
  'url' | 'token' | 'port' | 'outputs-file' | 'env' | 'password-secret',
  'reset-password' | 'set-password'
>;

/** The deployed stack's URL (or --url) and a token of its pool (or --token). */
export async function deployedTarget(values: TargetOptions) {
  const secret = values['password-secret'];
  if (values['set-password'] && secret === undefined)
    throw new UsageError('--set-password goes with --password-secret');
  if (values['reset-password'] && secret !== undefined)
    throw new UsageError("--reset-password is for --user: a secret's user gets its password with --set-password");
  if (values.port !== undefined)
    throw new UsageError("--port names a local server: --deployed checks the outputs file's stack");
  if (values.url !== undefined && !URL.canParse(values.url)) throw new UsageError(`--url is not a URL: ${values.url}`);
  // A deployed API may sit behind API Gateway's JWT authorizer (-c jwtAuthorizer=true).
  if (values.url !== undefined && values.token !== undefined)
    return { url: values.url, token: values.token, gatewayRefusals: true };
  const session = await deployedSession({
    user: values.user,
    outputsFile: values['outputs-file'],
    environment: values.env,
    resetPassword: values['reset-password'] === true,
    localDir: localDirOf(process.env),
    passwordSecret: secret,
    setPassword: values['set-password'] === true,
  });
  if (session.created) {
    console.error(
      `Created ${session.username} in user pool ${session.outputs.userPoolId}; its password is kept in ${relative(process.cwd(), session.passwordFile)}`,
    );
  }
  // A stack behind a proxy or with a custom domain links there from any host: walk it where its links lead.
  return {
    url: values.url ?? session.outputs.baseUrl,
    token: values.token ?? session.token,
    gatewayRefusals: true,
  };
}
