// The access stack's settings (-c githubRepository=… and the rest): what each changes in the
// synthesized roles, and each mistake refused in a line that says what to do.

import { describe, expect, it } from '@jest/globals';
import {
  boundaryName,
  EXECUTION_POLICY_FILES,
  executionPolicyNameOf,
} from '../../../infra/deploy-access/bootstrap/policies.ts';
import { readDeployAccess } from '../../../infra/deploy-access/settings.ts';
import { resources, roleTrust, synthAccess } from '../../helpers/access-stack.ts';

describe('the access stack, with settings given', () => {
  it('reuses an existing OIDC provider, and makes a role and bootstrap policies for each environment asked for', async () => {
    const provider = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const { template } = await synthAccess({
      githubRepository: 'acme/plants',
      githubRepositoryId: '42',
      githubEnvironments: 'staging, production',
      githubOidcProviderArn: provider,
    });
    expect(resources(template, 'AWS::IAM::OIDCProvider')).toEqual([]);
    const [trust] = roleTrust(template, 'DeployRoleStaging');
    expect(trust.Principal).toEqual({ Federated: provider });
    expect(trust.Condition.StringEquals['token.actions.githubusercontent.com:repository_id']).toBe('42');
    expect(resources(template, 'AWS::IAM::Role').map(({ id }) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'DeployRoleStaging',
      'DeployRoleProduction',
      'DiffRole',
    ]);
    expect(
      resources(template, 'AWS::IAM::ManagedPolicy').map(
        (policy) => (policy as { ManagedPolicyName?: string }).ManagedPolicyName,
      ),
    ).toEqual(
      ['staging', 'production'].flatMap((environment) => [
        boundaryName(environment),
        ...EXECUTION_POLICY_FILES.map((file) => executionPolicyNameOf(file, environment)),
      ]),
    );
  });

  it.each([
    [{}, /^githubRepository must be your repository as OWNER\/NAME .*or none .*got nothing$/],
    [
      { githubRepository: 'none', githubRepositoryId: '1' },
      /^githubRepository=none makes no GitHub roles: drop githubRepositoryId$/,
    ],
    [{ githubRepository: 'plant-store' }, /githubRepository must be .*got "plant-store"/],
    [
      { githubRepository: 'a/b' },
      /^githubRepositoryId must be the repository's numeric id, .*\(-c githubRepositoryId=\$\(gh api repos\/a\/b --jq \.id\)\), got nothing$/,
    ],
    [{ githubRepository: 'a/b', githubRepositoryId: 'a/b' }, /^githubRepositoryId must .*got "a\/b"$/],
    [{ githubRepository: 'a/b', githubRepositoryId: '012' }, /^githubRepositoryId must .*got "012"$/],
    [
      { githubRepository: 'a/b', githubRepositoryId: '1', githubEnvironments: 'Prod' },
      /^env must be 1 to 20 lower-case letters/,
    ],
    [
      { githubRepository: 'a/b', githubRepositoryId: '1', githubEnvironments: 'staging-eu1,staging-eu2' },
      /^githubEnvironments staging-eu1 and staging-eu2 would share the bootstrap qualifier psstaginge/,
    ],
    [
      { githubRepository: 'a/b', githubRepositoryId: '1', githubOidcProviderArn: 'arn:aws:iam::1:oidc-provider/x' },
      /^githubOidcProviderArn must/,
    ],
    [{ githubRepository: 'a/b', githubRepositoryId: '1', githubRepo: 'a/b' }, /^Unknown context key "githubRepo"/],
    [
      { githubRepository: 'a/b', githubRepositoryId: '1', githubSubjectIncludesRef: 'true' },
      /^githubSubjectIncludesRef is no longer read: .*customization\/sub -F use_default=true\)$/,
    ],
    [
      { githubRepository: 'a/b', githubRepositoryId: '1', bootstrapQualifier: 'x' },
      /^bootstrapQualifier is no longer read/,
    ],
  ])('refuses %j', (context, message) => {
    expect(() => readDeployAccess((key) => (context as Record<string, string>)[key], Object.keys(context))).toThrow(
      message,
    );
  });
});
