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
    for (const [role, environment] of [
      ['DeployRoleStaging', 'staging'],
      ['DeployRoleProduction', 'production'],
    ]) {
      const [trust] = roleTrust(template, role ?? '');
      expect(trust.Principal).toEqual({ Federated: provider });
      expect(trust.Condition.StringEquals['token.actions.githubusercontent.com:sub']).toBe(
        `repo:acme/plants:environment:${environment}`,
      );
    }
    expect(resources(template, 'AWS::IAM::Role').map(({ id }) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'DeployRoleStaging',
      'DeployRoleProduction',
      'DiffRole',
    ]);
    expect(rolePolicy(template, 'DeployRoleStaging')[0].Resource).toEqual(
      ['deploy', 'file-publishing', 'lookup'].flatMap((kind) => [
        bootstrap('acme1', kind),
        bootstrap('acme1', kind, 'us-east-1'),
      ]),
    );
  });

  it('with githubSubjectIncludesRef=true, trusts each environment only on main, and pull requests by their merge ref', () => {
    const { template } = synthAccess({ githubRepository: 'acme/plants', githubSubjectIncludesRef: 'true' });
    const sub = 'token.actions.githubusercontent.com:sub';
    for (const [role, environment] of [
      ['DeployRoleDev', 'dev'],
      ['DeployRoleProduction', 'production'],
    ]) {
      expect(roleTrust(template, role ?? '')[0].Condition).toEqual({
        StringEquals: {
          'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
          [sub]: `repo:acme/plants:environment:${environment}:ref:refs/heads/main`,
        },
      });
    }
    expect(roleTrust(template, 'DiffRole')[0].Condition).toEqual({
      StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com' },
      StringLike: { [sub]: 'repo:acme/plants:pull_request:ref:refs/pull/*/merge' },
    });
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
    [{ githubRepository: 'a/b', githubSubjectIncludesRef: 'yes' }, /^githubSubjectIncludesRef must be true or false/],
  ])('refuses %j', (context, message) => {
    expect(() => readDeployAccess((key) => (context as Record<string, string>)[key], Object.keys(context))).toThrow(
      message,
    );
  });
});
