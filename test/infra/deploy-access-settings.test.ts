// The access stack's settings (-c githubRepository=… and the rest): what each changes in the
// synthesized roles, and each mistake refused in a line that says what is expected.

import { describe, expect, it } from '@jest/globals';
import { readDeployAccess } from '../../infra/deploy-access-settings.ts';
import { bootstrap, resources, rolePolicy, roleTrust, synthAccess } from '../helpers/access-stack.ts';

describe('the access stack, with settings given', () => {
  it('reuses an existing OIDC provider, names the environments asked for, and the bootstrap qualifier', () => {
    const provider = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const { template } = synthAccess({
      githubRepository: 'acme/plants',
      githubEnvironments: 'staging, production',
      githubOidcProviderArn: provider,
      bootstrapQualifier: 'acme1',
    });
    expect(resources(template, 'AWS::IAM::OIDCProvider')).toEqual([]);
    const [trust] = roleTrust(template, 'DeployRole');
    expect(trust.Principal).toEqual({ Federated: provider });
    expect(trust.Condition.StringEquals['token.actions.githubusercontent.com:sub']).toEqual([
      'repo:acme/plants:environment:staging',
      'repo:acme/plants:environment:production',
    ]);
    expect(rolePolicy(template, 'DeployRole')[0].Resource).toEqual(
      ['deploy', 'file-publishing', 'lookup'].flatMap((kind) => [
        bootstrap('acme1', kind),
        bootstrap('acme1', kind, 'us-east-1'),
      ]),
    );
  });

  it.each([
    [{}, /^githubRepository must be your repository as OWNER\/NAME .*got nothing$/],
    [{ githubRepository: 'plant-store' }, /githubRepository must be .*got "plant-store"/],
    [{ githubRepository: 'a/b', githubEnvironments: 'Prod' }, /^env must be 1 to 20 lower-case letters/],
    [
      { githubRepository: 'a/b', githubOidcProviderArn: 'arn:aws:iam::1:oidc-provider/x' },
      /^githubOidcProviderArn must/,
    ],
    [{ githubRepository: 'a/b', bootstrapQualifier: 'much-too-long' }, /^bootstrapQualifier must/],
    [{ githubRepository: 'a/b', githubRepo: 'a/b' }, /^Unknown context key "githubRepo"/],
  ])('refuses %j', (context, message) => {
    expect(() => readDeployAccess((key) => (context as Record<string, string>)[key], Object.keys(context))).toThrow(
      message,
    );
  });
});
