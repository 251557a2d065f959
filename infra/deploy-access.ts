// Deploy access without keys: GitHub's OIDC provider and the roles an administrator deploys once
// (infra/deploy-access-app.ts). One deploy role per GitHub environment, trusted by that environment's
// jobs only (and, with githubSubjectIncludesRef, only on main), may assume the CDK bootstrap roles and
// do what `npm run smoke -- --deployed` needs in that environment; the diff role, for pull requests,
// may only read the environments' templates (`cdk diff`). Both reach us-east-1 too, where the edge's
// web ACL stack lives (infra/stacks.ts).

import { Aws, CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  type IOidcProvider,
  OidcProviderNative,
  OpenIdConnectPrincipal,
  PolicyStatement,
  Role,
} from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { EDGE_WAF_REGION } from './edge/waf.ts';
import { defaultStackName, ENVIRONMENT_TAG } from './stack-environment.ts';

export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';
/** The audience aws-actions/configure-aws-credentials asks GitHub for. */
export const STS_AUDIENCE = 'sts.amazonaws.com';
/** The only branch that deploys. */
export const DEPLOY_REF = 'refs/heads/main';

export interface DeployAccessProps extends StackProps {
  /** `OWNER/NAME` of the repository whose workflows may assume the roles. */
  repository: string;
  /** GitHub environments whose jobs may deploy; each deploys the stack environment of the same name. */
  environments: string[];
  /** An existing GitHub OIDC provider of the account (IAM allows one per URL); else one is created. */
  oidcProviderArn: string | undefined;
  /** The CDK bootstrap qualifier (`cdk bootstrap --qualifier`). */
  qualifier: string;
  /** The repository's OIDC subject template is `["repo", "context", "ref"]` (docs/pipeline.md): trust main only. */
  subjectIncludesRef: boolean;
}

/** The Cognito calls of the smoke check's token (deployed/cognito.ts); InitiateAuth needs no IAM permission. */
export const SMOKE_COGNITO_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminSetUserPassword',
];

/** `dev` → `Dev`, `eu-prod` → `EuProd`: the environment's part of its role's id and output name. */
export const pascal = (name: string) => name.replace(/(?:^|-)([a-z0-9])/g, (_, first: string) => first.toUpperCase());

/** The GitHub subject a job bound to `environment` presents; IAM can check no other claim of GitHub's. */
export const deploySubject = (repository: string, environment: string, includesRef: boolean) =>
  `repo:${repository}:environment:${environment}${includesRef ? `:ref:${DEPLOY_REF}` : ''}`;

// IAM5 acknowledgements name the resource as cdk-nag renders it.
const ack = (resource: string, reason: string) => ({
  id: `AwsSolutions-IAM5[Resource::${resource.replace(/\$\{Token\[AWS\.(\w+)\.\d+\]\}/g, '<AWS::$1>')}]`,
  reason,
});

export class DeployAccessStack extends Stack {
  constructor(scope: Construct, id: string, props: DeployAccessProps) {
    super(scope, id, props);
    const { repository, environments, qualifier, subjectIncludesRef } = props;
    const provider: IOidcProvider = props.oidcProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', props.oidcProviderArn)
      : new OidcProviderNative(this, 'GitHubOidc', { url: `https://${GITHUB_OIDC_HOST}`, clientIds: [STS_AUDIENCE] });
    const audience = { [`${GITHUB_OIDC_HOST}:aud`]: STS_AUDIENCE };
    // The access stack is deployed in the service's Region. With -c edge=true the app has a second
    // stack, <stackName>EdgeWaf, in us-east-1 (WAF keeps CloudFront's web ACLs nowhere else), which
    // `cdk deploy --all` deploys through that Region's bootstrap roles: so both Regions' roles, of
    // the same qualifier (an account without the edge never bootstraps us-east-1: they do not exist).
    // One account's bootstrap deploy role deploys any of its stacks: only separate accounts per
    // environment keep a dev job from production's stack (docs/pipeline.md).
    const bootstrapRole = (kind: string, region: string) =>
      `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-${kind}-role-${Aws.ACCOUNT_ID}-${region}`;
    // An environment's stack (PlantStore, PlantStore-<env>) and its edge's web ACL stack in us-east-1.
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
      const deploy = new Role(this, `DeployRole${pascal(environment)}`, {
        description: `GitHub Actions deploys of ${repository}, environment ${environment}`,
        assumedBy: new OpenIdConnectPrincipal(provider, {
          StringEquals: {
            ...audience,
            [`${GITHUB_OIDC_HOST}:sub`]: deploySubject(repository, environment, subjectIncludesRef),
          },
        }),
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
      deploy.addToPolicy(
        new PolicyStatement({
          sid: 'ReadStackOutputs',
          actions: ['cloudformation:DescribeStacks'],
          resources: stackArns(environment),
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
        ...stackAcks(environment, 'read-only: DescribeStacks, for its outputs'),
        ack(
          pools,
          `Pool ids exist only after deploy and change on replacement; the statement is limited to pools tagged ${ENVIRONMENT_TAG}=${environment}, and to the three calls the smoke user needs.`,
        ),
      );
      new CfnOutput(this, `DeployRoleArn${pascal(environment)}`, {
        description: `vars.AWS_DEPLOY_ROLE_ARN of GitHub environment ${environment}`,
        value: deploy.roleArn,
      });
    }

    // Pull requests (from this repository's branches: GitHub gives forks' runs no OIDC token) read
    // the deployed templates and nothing else. Not the bootstrap lookup role: it holds ReadOnlyAccess,
    // which reads table items too. `cdk diff --method=template` fails to assume the lookup and deploy
    // roles, says so, and reads the template with these credentials (same account: it proceeds).
    // With the ref in the subject, a pull request's is refs/pull/<number>/merge.
    const diff = new Role(this, 'DiffRole', {
      description: `GitHub Actions cdk diff on pull requests of ${repository}`,
      assumedBy: new OpenIdConnectPrincipal(
        provider,
        subjectIncludesRef
          ? {
              StringEquals: audience,
              StringLike: { [`${GITHUB_OIDC_HOST}:sub`]: `repo:${repository}:pull_request:ref:refs/pull/*/merge` },
            }
          : { StringEquals: { ...audience, [`${GITHUB_OIDC_HOST}:sub`]: `repo:${repository}:pull_request` } },
      ),
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
