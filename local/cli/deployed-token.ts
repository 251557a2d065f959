// `npm run token -- <user> --deployed`: an access token from the deployed stack's user pool.

import { relative } from 'node:path';
import { deployedSession } from '../../deployed/session.ts';
import { localDirOf } from '../server/options.ts';
import { escapeControls } from '../terminal-text.ts';
import { UsageError } from './args.ts';

export interface DeployedTokenFlags {
  groups?: string[] | undefined;
  'reset-password'?: boolean | undefined;
  'outputs-file'?: string | undefined;
  env?: string | undefined;
  /** Flags of local tokens, refused here: the pool decides lifetime, scope and (kept) groups. */
  port?: string | undefined;
  ttl?: string | undefined;
  scope?: string | undefined;
  'no-groups'?: boolean | undefined;
}

const LOCAL_ONLY: Record<string, string> = {
  port: 'the deployed API is the one in the outputs file',
  ttl: 'the app client sets the lifetime (-c accessTokenMinutes at deploy)',
  scope: 'Cognito gives password sign-ins the scope aws.cognito.signin.user.admin',
  'no-groups': 'groups live in the pool: aws cognito-idp admin-remove-user-from-group takes a user out',
};

export async function printDeployedToken(user: string, flags: DeployedTokenFlags): Promise<void> {
  for (const [flag, why] of Object.entries(LOCAL_ONLY)) {
    if (flags[flag as keyof DeployedTokenFlags] !== undefined)
      throw new UsageError(`--${flag} is for local tokens: ${why}`);
  }
  const session = await deployedSession({
    user,
    groups: flags.groups ?? [],
    resetPassword: flags['reset-password'] === true,
    outputsFile: flags['outputs-file'],
    environment: flags.env,
    localDir: localDirOf(process.env),
  });
  const { outputs } = session;
  const facts = [
    `sub ${session.sub}`,
    session.groups.length > 0 && `cognito:groups ${session.groups.join(',')}`,
    session.created && `new user, password kept in ${relative(process.cwd(), session.passwordFile)}`,
  ];
  // The user name is the command line's.
  console.error(
    escapeControls(
      `Access token for ${session.username} (${facts.filter(Boolean).join(', ')}) from user pool ${outputs.userPoolId} ` +
        `of stack ${outputs.stackName}, expires ${session.expiresAt.toISOString()}:`,
    ),
  );
  if (outputs.machineClientId) {
    console.error(
      'This stack requires a scope: its API answers users\' tokens 403 insufficient_scope (docs/deploy.md, "Machine clients").',
    );
  }
  console.error(`Call: curl -i -H "Authorization: Bearer $TOKEN" ${outputs.baseUrl}plants`);
  console.log(session.token);
}
