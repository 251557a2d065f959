// The access stack as synthesized: the OIDC provider, one deploy role and the bootstrap's boundary and
// execution policies (the shipped files, filled) per environment, the diff role, the outputs the set-up reads;
// cdk-nag and cfn-lint clean. Who may assume what, and what each may do: the evaluator's tests
// (trust.test.ts, privilege.test.ts).

import { describe, expect, it } from '@jest/globals';
import {
  boundaryName,
  EXECUTION_POLICY_FILES,
  executionPolicyNameOf,
  renderPolicy,
  SMOKE_USERNAME,
  smokeSecretName,
} from '../../../infra/deploy-access/bootstrap/policies.ts';
import { SMOKE_SECRET_ACTIONS } from '../../../infra/deploy-access/grants.ts';
import { DRIFT_READS } from '../../../infra/deploy-access/reads.ts';
import { DEFAULT_ENVIRONMENTS } from '../../../infra/deploy-access/settings.ts';
import { ENVIRONMENT_TAG } from '../../../infra/stack-environment.ts';
import { resources, synthAccess } from '../../helpers/access-stack.ts';
import { cfnLint } from '../../helpers/cfn-lint.ts';
import { ACCOUNT, resolveIn } from '../../helpers/iam.ts';

const { template, path, nagViolations, acknowledged } = await synthAccess({
  githubRepository: 'octo-org/plant-store',
  githubRepositoryId: '2002',
});

describe('the access stack, created with its own OIDC provider', () => {
  it('creates the GitHub OIDC provider for the STS audience', () => {
    expect(resources(template, 'AWS::IAM::OIDCProvider')).toEqual([
      expect.objectContaining({
        Url: 'https://token.actions.githubusercontent.com',
        ClientIdList: ['sts.amazonaws.com'],
      }),
    ]);
  });

  it("creates each environment's execution policy and boundary from the files in infra/deploy-access/bootstrap/, under the names the bootstrap command gives", () => {
    const where = { accountId: ACCOUNT, partition: 'aws' };
    // CDK sorts a statement's actions and resources (@aws-cdk/aws-iam:minimizePolicies): same sets.
    const sorted = (document: unknown) =>
      JSON.parse(JSON.stringify(document), (_key, value) => (Array.isArray(value) ? [...value].sort() : value));
    const policies = Object.values(template.findResources('AWS::IAM::ManagedPolicy')).map(({ Properties }) => ({
      name: Properties.ManagedPolicyName,
      document: sorted(resolveIn(template, Properties.PolicyDocument)),
    }));
    expect(policies).toEqual(
      DEFAULT_ENVIRONMENTS.flatMap((environment) => [
        { name: boundaryName(environment), document: sorted(renderPolicy('permissions-boundary', environment, where)) },
        ...EXECUTION_POLICY_FILES.map((file) => ({
          name: executionPolicyNameOf(file, environment),
          document: sorted(renderPolicy(file, environment, where)),
        })),
      ]),
    );
  });

  // IAM refuses a managed policy over 6,144 characters (white space not counted): the longest environment
  // name (20 characters) in the longest partition still fits, in each of the execution role's policies.
  it.each(EXECUTION_POLICY_FILES)('keeps %s within IAM’s size for any environment name', (file) => {
    const longest = renderPolicy(file, 'e'.repeat(20), { accountId: ACCOUNT, partition: 'aws-iso-b' });
    expect(JSON.stringify(longest).length).toBeLessThanOrEqual(6_144);
  });

  it('needs no bootstrap itself: an administrator deploys it with their own credentials, before any', () => {
    const json = template.toJSON();
    expect(json.Parameters?.BootstrapVersion).toBeUndefined();
    expect(JSON.stringify(json)).not.toMatch(/cdk-hnb659fds/);
  });

  it('outputs one deploy role ARN per environment, each for that GitHub environment’s AWS_DEPLOY_ROLE_ARN', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Description: string; Value: unknown }>;
    for (const environment of DEFAULT_ENVIRONMENTS) {
      const role = `DeployRole${environment === 'dev' ? 'Dev' : 'Production'}`;
      const output = outputs[role.replace('DeployRole', 'DeployRoleArn')];
      expect(output?.Description).toBe(`vars.AWS_DEPLOY_ROLE_ARN of GitHub environment ${environment}`);
      expect(JSON.stringify(output?.Value)).toContain(role);
    }
  });

  it('attaches no managed policy to its roles and gives each role one inline policy', () => {
    const roles = resources(template, 'AWS::IAM::Role');
    for (const role of roles) {
      expect(role).not.toHaveProperty('ManagedPolicyArns');
      expect(role).not.toHaveProperty('Policies');
    }
    expect(resources(template, 'AWS::IAM::Policy')).toHaveLength(roles.length);
  });

  it("gives each environment its smoke user's secret, tagged with the environment, which its deploy role alone may read, and no call on any user pool but drift detection's reads", () => {
    const secrets = Object.entries(template.findResources('AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(DEFAULT_ENVIRONMENTS.length);
    for (const environment of DEFAULT_ENVIRONMENTS) {
      const [id, secret] = secrets.find(([, { Properties }]) => Properties.Name === smokeSecretName(environment)) ?? [];
      expect(JSON.parse(secret?.Properties.GenerateSecretString.SecretStringTemplate)).toEqual({
        username: SMOKE_USERNAME,
      });
      expect(secret?.Properties.GenerateSecretString).toMatchObject({ GenerateStringKey: 'password' });
      expect(secret?.Properties.Tags).toEqual([{ Key: ENVIRONMENT_TAG, Value: environment }]);
      const role = `DeployRole${environment === 'dev' ? 'Dev' : 'Production'}`;
      const statements = Object.entries(template.findResources('AWS::IAM::Policy'))
        .filter(([policyId]) => policyId.startsWith(role))
        .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
      // On the pool, only the reads drift detection makes (Read level: reads.test.ts), no Admin*.
      const poolCalls = statements
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => /^cognito-idp:/.test(action));
      expect(poolCalls.sort()).toEqual(
        [...new Set(Object.values(DRIFT_READS).flat())].filter((action) => action.startsWith('cognito-idp:')).sort(),
      );
      expect(statements.filter((statement) => JSON.stringify(statement).includes('secretsmanager:'))).toEqual([
        { Sid: 'ReadOwnSmokeSecret', Effect: 'Allow', Action: SMOKE_SECRET_ACTIONS[0], Resource: { Ref: id } },
      ]);
    }
  });

  it('leaves no cdk-nag finding unacknowledged, and gives each acknowledgement a reason', () => {
    expect(nagViolations).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [id, reason] of acknowledged) {
      // Wildcards (IAM5), and the smoke secrets' rotation (SMG4), which would need AdminSetUserPassword.
      expect(['AwsSolutions-IAM5', 'AwsSolutions-SMG4']).toContain(
        id.replace(/^annotation::/i, '').replace(/\[.*/, ''),
      );
      expect(reason.length).toBeGreaterThan(60);
    }
  });

  it('passes cfn-lint', async () => {
    await expect(cfnLint([path])).resolves.toBeUndefined();
  });
});
