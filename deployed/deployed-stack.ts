// A deployed stack as CloudFormation holds it: its template, its resources' physical ids, its account.

import {
  type CloudFormationClient,
  DescribeStacksCommand,
  GetTemplateCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import type { DeployedTemplate } from './live-claims.ts';

export interface DeployedStack {
  template: DeployedTemplate;
  /** Logical id → physical id, of every resource CloudFormation created. */
  physicalIds: Map<string, string>;
  accountId: string;
}

export async function readDeployedStack(
  cloudformation: CloudFormationClient,
  stackName: string,
): Promise<DeployedStack> {
  const { Stacks = [] } = await cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
  const accountId = Stacks[0]?.StackId?.split(':')[4] ?? '';
  // Original: the template as deployed; CDK templates are JSON.
  const { TemplateBody = '{}' } = await cloudformation.send(
    new GetTemplateCommand({ StackName: stackName, TemplateStage: 'Original' }),
  );
  const template = JSON.parse(TemplateBody) as DeployedTemplate;
  const physicalIds = new Map<string, string>();
  for await (const page of paginateListStackResources({ client: cloudformation }, { StackName: stackName })) {
    for (const { LogicalResourceId, PhysicalResourceId } of page.StackResourceSummaries ?? []) {
      if (LogicalResourceId && PhysicalResourceId) physicalIds.set(LogicalResourceId, PhysicalResourceId);
    }
  }
  return { template: { Resources: template.Resources ?? {} }, physicalIds, accountId };
}
