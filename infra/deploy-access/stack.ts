// Deploy access without keys: GitHub's OIDC provider, a deploy role per environment, a diff role.
// No CDK bootstrap role: its CloudFormation rights span the account; each role deploys one environment.

import {
  Aws,
  CfnOutput,
  CliCredentialsStackSynthesizer,
  RemovalPolicy,
  Stack,
  type StackProps,
  Tags,
  Validations,
} from 'aws-cdk-lib';
import {
  type IOidcProvider,
  ManagedPolicy,
  OidcProviderNative,
  OpenIdConnectPrincipal,
  PolicyDocument,
  PolicyStatement,
  Role,
} from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENVIRONMENT_TAG } from '../stack-environment.ts';
import {
  boundaryName,
  EXECUTION_POLICY_FILES,
  executionPolicyNameOf,
  qualifierOf,
  renderPolicy,
  SMOKE_USERNAME,
  smokeSecretName,
} from './bootstrap/policies.ts';
import { acknowledgeWildcards, deployGrants, stackAcknowledgements, stackArnsOf } from './grants.ts';
import { deployTrust, diffTrust, GITHUB_OIDC_HOST, STS_AUDIENCE } from './trust.ts';

export interface DeployAccessProps extends StackProps {
  /** `OWNER/NAME` of the repository, for descriptions: the trust is on its id. None: no GitHub roles. */
  repository: string | undefined;
  /** The repository's immutable id (`gh api repos/OWNER/NAME --jq .id`). */
  repositoryId: string | undefined;
  /** GitHub environments whose jobs may deploy; each deploys the stack environment of the same name. */
  environments: string[];
  /** An existing GitHub OIDC provider of the account (IAM allows one per URL); else one is created. */
  oidcProviderArn: string | undefined;
}

/** `dev` → `Dev`, `eu-prod` → `EuProd`: the environment's part of its role's id and output name. */
export const pascal = (name: string) => name.replace(/(?:^|-)([a-z0-9])/g, (_, first: string) => first.toUpperCase());

export class DeployAccessStack extends Stack {
  constructor(scope: Construct, id: string, props: DeployAccessProps) {
    // Deployed with the administrator's own credentials: it needs no bootstrap, and is what makes one.
    super(scope, id, { synthesizer: new CliCredentialsStackSynthesizer(), ...props });
    const { repository, repositoryId, environments } = props;
    const where = { accountId: Aws.ACCOUNT_ID, partition: Aws.PARTITION };
    for (const environment of environments) {
      // Fixed names: `cdk bootstrap` and the app's roles (-c @aws-cdk/core:permissionsBoundary) name them.
      const boundary = new ManagedPolicy(this, `Boundary${pascal(environment)}`, {
        managedPolicyName: boundaryName(environment),
        description: `Permissions boundary of every role the ${environment} stacks create`,
        document: PolicyDocument.fromJson(renderPolicy('permissions-boundary', environment, where)),
      });
      for (const file of EXECUTION_POLICY_FILES) {
        // The first keeps the id it had when it was the only one: a named policy cannot be replaced in place.
        const id = file === 'execution-policy' ? 'Execution' : pascal(file);
        const execution = new ManagedPolicy(this, `${id}${pascal(environment)}`, {
          managedPolicyName: executionPolicyNameOf(file, environment),
          description: `CloudFormation execution policy (${file}) of the ${environment} bootstrap (qualifier ${qualifierOf(environment)})`,
          document: PolicyDocument.fromJson(renderPolicy(file, environment, where)),
        });
        acknowledgeWildcards(
          execution,
          'The execution policy names resources by their stack-name prefix; services whose ids AWS chooses only on resources created with, or carrying, the environment tag; a grant that cannot be fenced says what it reaches (docs/pipeline.md, "What one account still shares").',
        );
      }
      acknowledgeWildcards(
        boundary,
        "A boundary caps what a role may ever do: the environment's own resources by name prefix, nothing of IAM, nothing tagged for another environment.",
      );
    }
    // -c githubRepository=none: the bootstrap policies alone, for deploys by hand.
    if (repository === undefined || repositoryId === undefined) return;

    const provider: IOidcProvider = props.oidcProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', props.oidcProviderArn)
      : new OidcProviderNative(this, 'GitHubOidc', { url: `https://${GITHUB_OIDC_HOST}`, clientIds: [STS_AUDIENCE] });
    for (const environment of environments) {
      const deploy = new Role(this, `DeployRole${pascal(environment)}`, {
        description: `GitHub Actions deploys of ${repository} (id ${repositoryId}), environment ${environment}`,
        assumedBy: new OpenIdConnectPrincipal(provider, deployTrust({ repository, repositoryId }, environment)),
      });
      const smoke = smokeSecret(this, environment);
      const grants = deployGrants(environment, smoke.secretArn);
      for (const statement of grants.statements) deploy.addToPolicy(statement);
      Validations.of(deploy).acknowledge(...grants.acknowledgements);
      new CfnOutput(this, `DeployRoleArn${pascal(environment)}`, {
        description: `vars.AWS_DEPLOY_ROLE_ARN of GitHub environment ${environment}`,
        value: deploy.roleArn,
      });
    }

    // Pull requests (from this repository's branches: GitHub gives forks' runs no OIDC token) read
    // the deployed templates and nothing else. No bootstrap role: `cdk diff --method=template` fails
    // to assume the lookup and deploy roles, says so, and reads the template with these credentials.
    const diff = new Role(this, 'DiffRole', {
      description: `GitHub Actions cdk diff on pull requests of ${repository} (id ${repositoryId})`,
      assumedBy: new OpenIdConnectPrincipal(provider, diffTrust({ repository, repositoryId })),
    });
    diff.addToPolicy(
      new PolicyStatement({
        sid: 'ReadStackTemplates',
        actions: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate'],
        resources: environments.flatMap(stackArnsOf),
      }),
    );
    Validations.of(diff).acknowledge(
      ...environments.flatMap((environment) =>
        stackAcknowledgements(environment, 'read-only: its description and template'),
      ),
    );

    new CfnOutput(this, 'DiffRoleArn', { description: 'vars.AWS_DIFF_ROLE_ARN (optional)', value: diff.roleArn });
    new CfnOutput(this, 'Region', { description: 'vars.AWS_REGION', value: Aws.REGION });
  }
}

/**
 * The smoke user's name and password (docs/pipeline.md), tagged with its environment so no other's
 * execution role may read it; kept when the access stack goes, as the user is.
 */
function smokeSecret(scope: Construct, environment: string): Secret {
  const secret = new Secret(scope, `SmokeSecret${pascal(environment)}`, {
    secretName: smokeSecretName(environment),
    description: `The ${environment} pool's smoke user, signed in by the ${environment} deploy job after each deploy`,
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ username: SMOKE_USERNAME }),
      generateStringKey: 'password',
      // Every class the pool's password policy asks for (infra/user-pool.ts), well past its 12.
      passwordLength: 32,
      requireEachIncludedType: true,
    },
    removalPolicy: RemovalPolicy.RETAIN,
  });
  Tags.of(secret).add(ENVIRONMENT_TAG, environment);
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      "Rotating it means setting the pool user's password (AdminSetUserPassword), the very right the pipeline must not hold: an administrator rotates it by hand (docs/pipeline.md).",
  });
  return secret;
}
