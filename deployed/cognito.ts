// The deployed user pool as the CLIs use it: a user found or created, put in groups, signed in.

import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  CreateGroupCommand,
  GroupExistsException,
  InitiateAuthCommand,
  NotAuthorizedException,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { generatePassword, keepPassword, passwordFileOf, readPassword } from './passwords.ts';

/** A mistake or a state the user must act on, said in one line (no stack trace). */
export class DeployedUserError extends Error {
  override name = 'DeployedUserError';
}

/**
 * The stack's pool signs users in by e-mail address (its username attribute), so a bare name such
 * as `alice` stands for `alice@example.com`: a reserved domain (RFC 2606) that no mail reaches.
 */
export const poolUsername = (user: string) => (user.includes('@') ? user : `${user}@example.com`);

async function findUser(cognito: CognitoIdentityProviderClient, userPoolId: string, username: string) {
  try {
    const { UserAttributes } = await cognito.send(
      new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }),
    );
    const sub = UserAttributes?.find(({ Name }) => Name === 'sub')?.Value;
    if (!sub) throw new Error(`Cognito returned no sub for ${username}`);
    return { username, sub };
  } catch (error) {
    if (error instanceof UserNotFoundException) return undefined;
    throw error;
  }
}

/** The user's `sub` (what their plants' `owner` key holds); the user must exist. */
export async function subOf(cognito: CognitoIdentityProviderClient, userPoolId: string, user: string) {
  const username = poolUsername(user);
  const found = await findUser(cognito, userPoolId, username);
  if (!found) {
    throw new DeployedUserError(
      `No user ${username} in user pool ${userPoolId}: "npm run token -- ${user} --deployed" creates it`,
    );
  }
  return found.sub;
}

/** The user with a password this machine keeps: created when absent; one made elsewhere needs `resetPassword`. */
export async function ensureUser(
  cognito: CognitoIdentityProviderClient,
  {
    userPoolId,
    localDir,
    user,
    resetPassword,
  }: { userPoolId: string; localDir: string; user: string; resetPassword: boolean },
) {
  const username = poolUsername(user);
  const passwordFile = passwordFileOf(localDir, userPoolId, username);
  const existing = await findUser(cognito, userPoolId, username);
  const kept = readPassword(passwordFile);
  if (existing && kept && !resetPassword) return { ...existing, password: kept, passwordFile, created: false };
  if (existing && !resetPassword) {
    throw new DeployedUserError(
      `${username} already exists in user pool ${userPoolId} and its password is not in ${passwordFile}: ` +
        'pass --reset-password to give it a new generated one (kept there, never printed)',
    );
  }
  const password = generatePassword();
  keepPassword(passwordFile, password);
  await givePassword(cognito, userPoolId, username, password, { create: !existing });
  const found = existing ?? (await findUser(cognito, userPoolId, username));
  if (!found) throw new Error(`${username} was created but cannot be read back`);
  return { ...found, password, passwordFile, created: !existing };
}

/** Gives the user `password` as permanent (no first sign-in challenge), creating it first, unmailed, if `create`. */
export async function givePassword(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  username: string,
  password: string,
  { create }: { create: boolean },
): Promise<void> {
  if (create) {
    try {
      await cognito.send(
        new AdminCreateUserCommand({
          UserPoolId: userPoolId,
          Username: username,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: username },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
    } catch (error) {
      if (!(error instanceof UsernameExistsException)) throw error;
    }
  }
  await cognito.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolId,
      Username: username,
      Password: password,
      Permanent: true,
    }),
  );
}

/** Adds the user to each group, creating groups that don't exist; groups they are in stay. */
export async function addToGroups(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  username: string,
  groups: readonly string[],
): Promise<void> {
  for (const group of groups) {
    try {
      await cognito.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: group }));
    } catch (error) {
      if (!(error instanceof GroupExistsException)) throw error;
    }
    await cognito.send(
      new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: group }),
    );
  }
}

/** USER_PASSWORD_AUTH, which the app client allows (infra/user-pool.ts): the token is one a user would get. */
export async function signIn(
  cognito: CognitoIdentityProviderClient,
  appClientId: string,
  user: { username: string; password: string },
  /** What to do when the password is refused (or, where the pool says so, the user is absent). */
  whenRefused: string,
) {
  try {
    const { AuthenticationResult, ChallengeName } = await cognito.send(
      new InitiateAuthCommand({
        ClientId: appClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: user.username, PASSWORD: user.password },
      }),
    );
    if (!AuthenticationResult?.AccessToken) {
      throw new DeployedUserError(
        `Cognito asks ${user.username} for ${ChallengeName ?? 'another step'} before a token: this command signs in with a password only`,
      );
    }
    return { accessToken: AuthenticationResult.AccessToken, expiresIn: AuthenticationResult.ExpiresIn ?? 3600 };
  } catch (error) {
    // A pool that prevents user existence errors (the stack's) says "Incorrect username or password"
    // for an absent user too.
    if (
      (error instanceof NotAuthorizedException && /password/i.test(error.message)) ||
      error instanceof UserNotFoundException
    ) {
      throw new DeployedUserError(whenRefused);
    }
    throw error;
  }
}
