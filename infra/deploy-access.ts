// Deploy access without keys: GitHub's OIDC provider and the roles an administrator deploys once
// (infra/deploy-access-app.ts), with each environment's bootstrap policies (infra/bootstrap/). One
// deploy role per GitHub environment, trusted by that environment's jobs of pipeline.yml on main
// (infra/deploy-access-trust.ts), deploys that environment's stacks itself: no CDK bootstrap role,
// whose CloudFormation rights span the account; the diff role, for pull requests, may only read the
// environments' templates (`cdk diff`). Both reach us-east-1 too, where the edge's web ACL stack lives.

import { Aws, CfnOutput, CliCredentialsStackSynthesizer, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  type IOidcProvider,
  ManagedPolicy,
  OidcProviderNative,
  OpenIdConnectPrincipal,
  PolicyDocument,
  PolicyStatement,
  Role,
} from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { boundaryName, executionPolicyName, qualifierOf, renderPolicy } from './bootstrap/policies.ts';
import { deployTrust, diffTrust, GITHUB_OIDC_HOST, STS_AUDIENCE } from './deploy-access-trust.ts';
import { EDGE_WAF_REGION } from './edge-waf.ts';
import { defaultStackName, ENVIRONMENT_TAG } from './stack-environment.ts';

export interface DeployAccessProps extends StackProps {
  /** `OWNER/NAME` of the repository, for descriptions: the trust is on its id. */
  repository: string;
  /** The repository's immutable id (`gh api repos/OWNER/NAME --jq .id`). */
  repositoryId: string;
  /** GitHub environments whose jobs may deploy; each deploys the stack environment of the same name. */
  environments: string[];
  /** An existing GitHub OIDC provider of the account (IAM allows one per URL); else one is created. */
  oidcProviderArn: string | undefined;
}

/** The Cognito calls of the smoke check's token (deployed/cognito.ts); InitiateAuth needs no IAM permission. */
export const SMOKE_COGNITO_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminSetUserPassword',
];

/** What `cdk deploy` does with a deploy role's own credentials once it cannot take the bootstrap roles. */
export const DEPLOY_STACK_ACTIONS = [
  'cloudformation:CreateChangeSet',
  'cloudformation:DescribeChangeSet',
  'cloudformation:ExecuteChangeSet',
  'cloudformation:DeleteChangeSet',
  'cloudformation:DescribeStacks',
  'cloudformation:DescribeStackEvents',
  'cloudformation:GetTemplate',
  'cloudformation:GetTemplateSummary',
  'cloudformation:ListStackResources',
  'cloudformation:DescribeStackResources',
];

/** `dev` → `Dev`, `eu-prod` → `EuProd`: the environment's part of its role's id and output name. */
export const pascal = (name: string) => name.replace(/(?:^|-)([a-z0-9])/g, (_, first: string) => first.toUpperCase());

// IAM5 acknowledgements name the resource as cdk-nag renders it.
const ack = (resource: string, reason: string) => ({
  id: `AwsSolutions-IAM5[Resource::${resource.replace(/\$\{Token\[AWS\.(\w+)\.\d+\]\}/g, '<AWS::$1>')}]`,
  reason,
});

/** Each wildcard action and resource of a policy, acknowledged with one reason (IAM5 names each). */
function acknowledgeWildcards(policy: ManagedPolicy, reason: string): void {
  const { Statement } = policy.document.toJSON() as { Statement: { Action?: unknown; Resource?: unknown }[] };
  const wildcards = (value: unknown) =>
    [value].flat().filter((each): each is string => typeof each === 'string' && each.includes('*'));
  const findings = Statement.flatMap((statement) => [
    ...wildcards(statement.Action).map((action) => ({ id: `AwsSolutions-IAM5[Action::${action}]`, reason })),
    ...wildcards(statement.Resource).map((resource) => ack(resource, reason)),
  ]);
  Validations.of(policy).acknowledge(...findings);
}

export class DeployAccessStack extends Stack {
  constructor(scope: Construct, id: string, props: DeployAccessProps) {
    // Deployed with the administrator's own credentials: it needs no bootstrap, and is what makes one.
    super(scope, id, { synthesizer: new CliCredentialsStackSynthesizer(), ...props });
    const { repository, repositoryId, environments } = props;
    const provider: IOidcProvider = props.oidcProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', props.oidcProviderArn)
      : new OidcProviderNative(this, 'GitHubOidc', { url: `https://${GITHUB_OIDC_HOST}`, clientIds: [STS_AUDIENCE] });
    const where = { accountId: Aws.ACCOUNT_ID, partition: Aws.PARTITION };
    // An environment's stack (PlantStore, PlantStore-<env>) and its edge's web ACL stack in us-east-1.
    const regions = [Aws.REGION, EDGE_WAF_REGION];
    const stackArns = (environment: string) =>
      [
        [defaultStackName(environment), Aws.REGION],
        [`${defaultStackName(environment)}EdgeWaf`, EDGE_WAF_REGION],
      ].map(([name, region]) => `arn:${Aws.PARTITION}:cloudformation:${region}:${Aws.ACCOUNT_ID}:stack/${name}/*`);
    const stackAcks = (environment: string, what: string) =>
      stackArns(environment).map((arn) =>
        ack(
          arn,
          `A stack ARN ends in its id, which changes on re-creation; this is the ${environment} stack's, ${what}.`,
        ),
      );

    for (const environment of environments) {
      const qualifier = qualifierOf(environment);
      // Fixed names: `cdk bootstrap` and the app's roles (-c @aws-cdk/core:permissionsBoundary) name them.
      const boundary = new ManagedPolicy(this, `Boundary${pascal(environment)}`, {
        managedPolicyName: boundaryName(environment),
        description: `Permissions boundary of every role the ${environment} stacks create`,
        document: PolicyDocument.fromJson(renderPolicy('permissions-boundary', environment, where)),
      });
      const execution = new ManagedPolicy(this, `Execution${pascal(environment)}`, {
        managedPolicyName: executionPolicyName(environment),
        description: `CloudFormation execution policy of the ${environment} bootstrap (qualifier ${qualifier})`,
        document: PolicyDocument.fromJson(renderPolicy('execution-policy', environment, where)),
      });
      const deploy = new Role(this, `DeployRole${pascal(environment)}`, {
        description: `GitHub Actions deploys of ${repository} (id ${repositoryId}), environment ${environment}`,
        assumedBy: new OpenIdConnectPrincipal(provider, deployTrust(repositoryId, environment)),
      });
      const inRegions = <T>(each: (region: string) => T) => regions.map(each);
      deploy.addToPolicy(
        new PolicyStatement({
          sid: 'DeployOwnStacks',
          actions: DEPLOY_STACK_ACTIONS,
          resources: stackArns(environment),
        }),
      );
      deploy.addToPolicy(
        new PolicyStatement({
          sid: 'PassOwnExecutionRole',
          actions: ['iam:PassRole'],
          resources: inRegions(
            (region) =>
              `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-cfn-exec-role-${Aws.ACCOUNT_ID}-${region}`,
          ),
          conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
        }),
      );
      const bucket = (region: string) =>
        `arn:${Aws.PARTITION}:s3:::cdk-${qualifier}-assets-${Aws.ACCOUNT_ID}-${region}`;
      deploy.addToPolicy(
        new PolicyStatement({
          sid: 'PublishOwnAssets',
          actions: ['s3:GetObject', 's3:PutObject', 's3:GetBucketLocation', 's3:ListBucket'],
          resources: [...inRegions(bucket), ...inRegions((region) => `${bucket(region)}/*`)],
        }),
      );
      deploy.addToPolicy(
        new PolicyStatement({
          sid: 'ReadOwnBootstrapVersion',
          actions: ['ssm:GetParameter', 'ssm:GetParameters'],
          resources: inRegions(
            (region) =>
              `arn:${Aws.PARTITION}:ssm:${region}:${Aws.ACCOUNT_ID}:parameter/cdk-bootstrap/${qualifier}/version`,
          ),
        }),
      );
      // A user pool's id is known only once its stack is deployed, and changes if it is ever replaced:
      // each environment's pool carries its name as a tag instead (infra/plant-store-stack.ts).
      const pools = `arn:${Aws.PARTITION}:cognito-idp:${Aws.REGION}:${Aws.ACCOUNT_ID}:userpool/*`;
      deploy.addToPolicy(
        new PolicyStatement({
          sid: 'SmokeUserInEnvironmentPool',
          actions: SMOKE_COGNITO_ACTIONS,
          resources: [pools],
          conditions: { StringEquals: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environment } },
        }),
      );
      Validations.of(deploy).acknowledge(
        ...stackAcks(environment, 'deployed through change sets only'),
        ...inRegions((region) =>
          ack(
            `${bucket(region)}/*`,
            `Asset objects are named by their content hash; this is the ${environment} bootstrap's own bucket.`,
          ),
        ),
        ack(
          pools,
          `Pool ids exist only after deploy and change on replacement; the statement is limited to pools tagged ${ENVIRONMENT_TAG}=${environment}, and to the three calls the smoke user needs.`,
        ),
      );
      acknowledgeWildcards(
        execution,
        'The execution policy names resources by their stack-name prefix; services whose ids AWS chooses are fenced by the environment tag and the deny statements (docs/pipeline.md, "What one account still shares").',
      );
      acknowledgeWildcards(
        boundary,
        "A boundary caps what a role may ever do: the environment's own resources by name prefix, nothing of IAM, nothing tagged for another environment.",
      );
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
      assumedBy: new OpenIdConnectPrincipal(provider, diffTrust(repositoryId)),
    });
    diff.addToPolicy(
      new PolicyStatement({
        sid: 'ReadStackTemplates',
        actions: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate'],
        resources: environments.flatMap(stackArns),
      }),
    );
    Validations.of(diff).acknowledge(
      ...environments.flatMap((environment) => stackAcks(environment, 'read-only: its description and template')),
    );

    new CfnOutput(this, 'DiffRoleArn', { description: 'vars.AWS_DIFF_ROLE_ARN (optional)', value: diff.roleArn });
    new CfnOutput(this, 'Region', { description: 'vars.AWS_REGION', value: Aws.REGION });
  }
}
