// Deploy access without keys: GitHub's OIDC provider and two roles an administrator deploys once
// (infra/deploy-access-app.ts). The deploy role, for this repository's named GitHub environments
// only, may assume the CDK bootstrap roles and do what `npm run smoke -- --deployed` needs; the
// diff role, for its pull requests, may only read the PlantStore stacks' templates (`cdk diff`).
// Both reach us-east-1 too, where the edge's web ACL stack lives (infra/stacks.ts).

import { Aws, CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  type IOidcProvider,
  OidcProviderNative,
  OpenIdConnectPrincipal,
  PolicyStatement,
  Role,
} from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { EDGE_WAF_REGION } from './edge-waf.ts';
import { ENVIRONMENT_TAG, PRODUCTION_STACK } from './stack-environment.ts';

export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';
/** The audience aws-actions/configure-aws-credentials asks GitHub for. */
export const STS_AUDIENCE = 'sts.amazonaws.com';

export interface DeployAccessProps extends StackProps {
  /** `OWNER/NAME` of the repository whose workflows may assume the roles. */
  repository: string;
  /** GitHub environments whose jobs may deploy; each deploys the stack environment of the same name. */
  environments: string[];
  /** An existing GitHub OIDC provider of the account (IAM allows one per URL); else one is created. */
  oidcProviderArn: string | undefined;
  /** The CDK bootstrap qualifier (`cdk bootstrap --qualifier`). */
  qualifier: string;
}

/** The Cognito calls of the smoke check's token (deployed/cognito.ts); InitiateAuth needs no IAM permission. */
export const SMOKE_COGNITO_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminSetUserPassword',
];

export class DeployAccessStack extends Stack {
  constructor(scope: Construct, id: string, props: DeployAccessProps) {
    super(scope, id, props);
    const { repository, environments, qualifier } = props;
    const provider: IOidcProvider = props.oidcProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', props.oidcProviderArn)
      : new OidcProviderNative(this, 'GitHubOidc', { url: `https://${GITHUB_OIDC_HOST}`, clientIds: [STS_AUDIENCE] });
    const trust = (subjects: string[]) =>
      new OpenIdConnectPrincipal(provider, {
        StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: STS_AUDIENCE, [`${GITHUB_OIDC_HOST}:sub`]: subjects },
      });
    // The access stack is deployed in the service's Region. With -c edge=true the app has a second
    // stack, <stackName>EdgeWaf, in us-east-1 (WAF keeps CloudFront's web ACLs nowhere else), which
    // `cdk deploy --all` deploys through that Region's bootstrap roles: so both Regions' roles, of
    // the same qualifier (an account without the edge never bootstraps us-east-1: they do not exist).
    const bootstrapRole = (kind: string, region: string) =>
      `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-${kind}-role-${Aws.ACCOUNT_ID}-${region}`;

    // A job bound to a GitHub environment presents `environment:<name>` as its subject, whatever its
    // branch: the environment's deployment-branch rule (docs/pipeline.md) is what keeps it to main.
    const deploy = new Role(this, 'DeployRole', {
      description: `GitHub Actions deploys of ${repository} (environments ${environments.join(', ')})`,
      assumedBy: trust(environments.map((name) => `repo:${repository}:environment:${name}`)),
    });
    deploy.addToPolicy(
      new PolicyStatement({
        sid: 'CdkBootstrapRoles',
        actions: ['sts:AssumeRole'],
        resources: ['deploy', 'file-publishing', 'lookup'].flatMap((kind) =>
          [Aws.REGION, EDGE_WAF_REGION].map((region) => bootstrapRole(kind, region)),
        ),
      }),
    );
    const stackArn = (name: string, region: string = Aws.REGION) =>
      `arn:${Aws.PARTITION}:cloudformation:${region}:${Aws.ACCOUNT_ID}:stack/${name}/*`;
    // Every environment's stack here, and its edge's web ACL stack (<stackName>EdgeWaf) in us-east-1.
    const stackArns = [
      stackArn(PRODUCTION_STACK),
      stackArn(`${PRODUCTION_STACK}-*`),
      stackArn(`${PRODUCTION_STACK}*EdgeWaf`, EDGE_WAF_REGION),
    ];
    const edgeWafAck = {
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:${EDGE_WAF_REGION}:<AWS::AccountId>:stack/${PRODUCTION_STACK}*EdgeWaf/*]`,
      reason: `The environments' web ACL stacks of the edge (<stackName>EdgeWaf, in ${EDGE_WAF_REGION}), read-only.`,
    };
    deploy.addToPolicy(
      new PolicyStatement({
        sid: 'ReadStackOutputs',
        actions: ['cloudformation:DescribeStacks'],
        resources: stackArns,
      }),
    );
    // A user pool's id is known only once its stack is deployed, and changes if it is ever replaced:
    // the environments' pools carry their name as a tag instead (infra/plant-store-stack.ts).
    deploy.addToPolicy(
      new PolicyStatement({
        sid: 'SmokeUserInEnvironmentPools',
        actions: SMOKE_COGNITO_ACTIONS,
        resources: [`arn:${Aws.PARTITION}:cognito-idp:${Aws.REGION}:${Aws.ACCOUNT_ID}:userpool/*`],
        conditions: { StringEquals: { [`aws:ResourceTag/${ENVIRONMENT_TAG}`]: environments } },
      }),
    );
    Validations.of(deploy).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${PRODUCTION_STACK}/*]`,
        reason:
          "A stack ARN ends in its id, which changes with every re-creation; the name is fixed and this is one stack's ARN.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${PRODUCTION_STACK}-*/*]`,
        reason:
          'The stacks of the other environments (PlantStore-<env>), read-only: DescribeStacks, for their outputs.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cognito-idp:<AWS::Region>:<AWS::AccountId>:userpool/*]',
        reason:
          "Pool ids exist only after deploy and change on replacement; the statement is limited by the pools' " +
          `${ENVIRONMENT_TAG} tag to this role's environments, and to the three calls the smoke user needs.`,
      },
      edgeWafAck,
    );

    // Pull requests (from this repository's branches: GitHub gives forks' runs no OIDC token) read
    // the deployed templates and nothing else. Not the bootstrap lookup role: it holds ReadOnlyAccess,
    // which reads table items too. `cdk diff --method=template` fails to assume the lookup and deploy
    // roles, says so, and reads the template with these credentials (same account: it proceeds).
    const diff = new Role(this, 'DiffRole', {
      description: `GitHub Actions cdk diff on pull requests of ${repository}`,
      assumedBy: trust([`repo:${repository}:pull_request`]),
    });
    diff.addToPolicy(
      new PolicyStatement({
        sid: 'ReadStackTemplates',
        actions: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate'],
        resources: stackArns,
      }),
    );
    Validations.of(diff).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${PRODUCTION_STACK}/*]`,
        reason:
          "A stack ARN ends in its id, which changes with every re-creation; the name is fixed and this is one stack's ARN.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${PRODUCTION_STACK}-*/*]`,
        reason: 'The stacks of the other environments (PlantStore-<env>), read-only: their description and template.',
      },
      edgeWafAck,
    );

    new CfnOutput(this, 'DeployRoleArn', { description: 'vars.AWS_DEPLOY_ROLE_ARN', value: deploy.roleArn });
    new CfnOutput(this, 'DiffRoleArn', { description: 'vars.AWS_DIFF_ROLE_ARN (optional)', value: diff.roleArn });
    new CfnOutput(this, 'Region', { description: 'vars.AWS_REGION', value: Aws.REGION });
  }
}
