// docs/pipeline.md's commands are the tested ones: the set-up's access stack command synthesizes
// with the keys the app reads, its bootstraps name the policies the access stack makes, its `gh`
// commands set every variable the workflow reads from the outputs that say so and protect `main`
// and both environments, and its who-can-assume table is the one the IAM evaluator decides. The
// README's deploy by hand ends on the same scoped execution policy, without GitHub.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { setUpCommand } from '../../deployed/smoke-user.ts';
import {
  bootstrapCommand,
  EXECUTION_POLICY_FILES,
  executionPolicyNameOf,
  qualifierOf,
  renderPolicy,
  smokeSecretName,
} from '../../infra/deploy-access/bootstrap/policies.ts';
import { DRIFT_STACK_ACTIONS } from '../../infra/deploy-access/reads.ts';
import {
  DEFAULT_ENVIRONMENTS,
  DEPLOY_ACCESS_KEYS,
  NO_REPOSITORY,
  REPOSITORY_ID_COMMAND,
} from '../../infra/deploy-access/settings.ts';
import { DEPLOY_REF } from '../../infra/deploy-access/trust.ts';
import { EDGE_WAF_STACK } from '../../infra/edge/waf.ts';
import { environmentOf } from '../../infra/stack-environment.ts';
import { synthAccess } from '../helpers/access-stack.ts';
import { synth } from '../helpers/cdk.ts';
import { runsWithDeployCredentials } from '../helpers/credentialed-files.ts';
import { whoCanAssumeTable } from '../helpers/github-jobs.ts';
import { ACCOUNT, resolveIn } from '../helpers/iam.ts';

const page = readFileSync(new URL('../../docs/pipeline.md', import.meta.url), 'utf8');
const CODEOWNERS = 'infra/deploy-access/bootstrap/codeowners';
const workflowText = readFileSync(new URL('../../.github/workflows/pipeline.yml', import.meta.url), 'utf8');
const workflow = parse(workflowText) as { jobs: Record<string, { name?: string }> };
const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));

/** The text of a `## title` section, up to the next one. */
const section = (title: string) => page.split(/^## /m).find((part) => part.startsWith(title)) ?? '';
const setUp = section('From a fork to a first green deploy');
const blocks = [...setUp.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) =>
  (block ?? '').split('\n').filter((line) => line.trim()),
);
const [aws = [], github = [], smokeUsers = []] = blocks;

/** `-c key=value` pairs of a command line; the repository id's command stands for an id. */
const contextOf = (command: string) =>
  Object.fromEntries(
    [
      ...command
        .replace(/\$\(gh api [^)]*\)/g, '123456')
        .replaceAll('=ID ', '=123456 ')
        .matchAll(/-c (\w+)=(\S+)/g),
    ].map(([, key, value]) => [key, value as string]),
  );
const accessCommand = aws.find((line) => line.includes('infra/deploy-access/app.ts')) ?? '';
const outputs = (await synthAccess(contextOf(accessCommand))).template.toJSON().Outputs as Record<
  string,
  { Description: string }
>;

describe('docs/pipeline.md, from a fork to a first green deploy', () => {
  it('lists gh, the AWS CLI and jq, which the set-up runs', () => {
    expect(section('Before you start')).toMatch(/`gh`.*AWS CLI.*`jq`/s);
  });

  it('installs, deploys the access stack by the repository id, then bootstraps each environment with its execution policy', () => {
    expect(aws[0]).toBe('npm ci');
    expect(aws[1]).toBe('ACCOUNT=$(aws sts get-caller-identity --query Account --output text)');
    expect(accessCommand).toContain(`-c githubRepositoryId=$(${REPOSITORY_ID_COMMAND})`);
    expect(aws.slice(3)).toEqual(DEFAULT_ENVIRONMENTS.map((environment) => bootstrapCommand(environment)));
  });

  it('deploys the access app that exists, with only keys it reads, without overwriting the stacks’ outputs file', () => {
    const app = /--app "node ([^"]+)"/.exec(accessCommand)?.[1] ?? '';
    expect(readFileSync(new URL(`../../${app}`, import.meta.url), 'utf8')).toContain('new DeployAccessStack(');
    const keys = Object.keys(contextOf(accessCommand));
    expect(keys).toEqual(['githubRepository', 'githubRepositoryId']);
    for (const key of keys) expect(DEPLOY_ACCESS_KEYS).toContain(key);
    const outputsFile = /--outputs-file (\S+)/.exec(accessCommand)?.[1];
    expect(outputsFile).toMatch(/^\.local\//);
    expect(outputsFile).not.toBe(cdkJson.outputsFile);
  });

  it('sets every variable the workflow reads, each from the access stack output made for it', () => {
    const set = github
      .filter((line) => line.startsWith('gh variable set '))
      .map((line) => {
        const [, variable, environment, output] =
          /^gh variable set (\w+)(?: --env (\w+))? --body "\$\(jq -r \.PlantStoreDeployAccess\.(\w+) \.local\/deploy-access\.json\)"$/.exec(
            line,
          ) ?? [];
        return { variable, environment, output };
      });
    for (const { variable, environment, output } of set) {
      const description = outputs[output ?? '']?.Description ?? '';
      expect(description.replace(' (optional)', '')).toBe(
        `vars.${variable}${environment ? ` of GitHub environment ${environment}` : ''}`,
      );
    }
    // All but the separate-accounts recipe's own, which that section names.
    const recipe = section('What one account still shares');
    const read = [...new Set([...workflowText.matchAll(/vars\.(\w+)/g)].map(([, name]) => name ?? ''))];
    const setUpSets = new Set(set.map(({ variable }) => variable));
    for (const name of setUpSets) expect(read).toContain(name);
    for (const name of read) expect(setUpSets.has(name) || recipe.includes(`\`${name}\``)).toBe(true);
    for (const environment of DEFAULT_ENVIRONMENTS) {
      expect(set).toContainEqual(expect.objectContaining({ variable: 'AWS_DEPLOY_ROLE_ARN', environment }));
    }
  });

  it('protects main by a ruleset whose required check is the workflow’s, and deploys each environment from main only', () => {
    const inputs = [...github.join('\n').matchAll(/(infra\/deploy-access\/bootstrap\/[\w-]+\.json)/g)].map(
      ([, file]) => file ?? '',
    );
    for (const file of inputs) expect(existsSync(new URL(`../../${file}`, import.meta.url))).toBe(true);
    const read = (file: string) =>
      JSON.parse(readFileSync(new URL(`../../infra/deploy-access/bootstrap/${file}`, import.meta.url), 'utf8'));
    expect(github).toContain(
      'gh api -X POST repos/OWNER/NAME/rulesets --input infra/deploy-access/bootstrap/github-main-ruleset.json',
    );
    const ruleset = read('github-main-ruleset.json');
    const rule = (type: string) => ruleset.rules.find((each: { type: string }) => each.type === type);
    expect(rule('pull_request').parameters.required_approving_review_count).toBeGreaterThan(0);
    // Bound to GitHub Actions (its app id), so no other app's status of that name passes; code owners review the delivery path.
    expect(rule('required_status_checks').parameters.required_status_checks).toEqual([
      { context: workflow.jobs.check?.name, integration_id: 15368 },
    ]);
    expect(rule('pull_request').parameters.require_code_owner_review).toBe(true);
    // The code owners the ruleset asks for are written by the set-up, before the ruleset holds main.
    const writesOwners = github.findIndex((line) => line.includes('contents/.github/CODEOWNERS'));
    expect(github[writesOwners]).toContain(`sed '/^[^#]/s|$| @REVIEWER|' ${CODEOWNERS}`);
    expect(writesOwners).toBeLessThan(github.findIndex((line) => line.includes('/rulesets')));
    const branch = DEPLOY_REF.replace('refs/heads/', '');
    for (const environment of DEFAULT_ENVIRONMENTS) {
      expect(github.some((line) => line.includes(`repos/OWNER/NAME/environments/${environment} --input`))).toBe(true);
      expect(github).toContain(
        `gh api -X POST repos/OWNER/NAME/environments/${environment}/deployment-branch-policies -f name=${branch} -f type=branch`,
      );
      expect(read(`github-environment-${environment}.json`).deployment_branch_policy).toEqual({
        protected_branches: false,
        custom_branch_policies: true,
      });
    }
    const production = read('github-environment-production.json');
    expect(production.prevent_self_review).toBe(true);
    expect(production.can_admins_bypass).toBe(false);
    expect(production.reviewers).toHaveLength(1);
  });

  it("gives each environment's smoke user its secret's password by the command the smoke check names", () => {
    expect(smokeUsers).toEqual(
      DEFAULT_ENVIRONMENTS.map((environment) => setUpCommand(smokeSecretName(environment), environment)),
    );
    for (const environment of DEFAULT_ENVIRONMENTS) {
      expect(workflowText).toContain(`--env ${environment} --password-secret ${smokeSecretName(environment)}\n`);
    }
  });

  it('carries the who-can-assume-what table the IAM evaluator decides', () => {
    expect(page).toContain(whoCanAssumeTable());
  });
});

describe('the code owners the set-up writes', () => {
  const patterns = readFileSync(new URL(`../../${CODEOWNERS}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));

  it('name no owner a fork would have to edit: the set-up adds the reviewer it is given', () => {
    for (const pattern of patterns) expect(pattern).toMatch(/^\/[\w./-]+$/);
    expect(existsSync(new URL('../../.github/CODEOWNERS', import.meta.url))).toBe(false);
  });

  it('cover every file that runs with a deploy role’s credentials', () => {
    const running = runsWithDeployCredentials(workflowText);
    expect(running.length).toBeGreaterThan(0);
    const covered = (file: string) =>
      patterns.some((pattern) => (pattern.endsWith('/') ? `/${file}`.startsWith(pattern) : `/${file}` === pattern));
    expect(running.filter((file) => !covered(file))).toEqual([]);
  });
});

describe('docs/pipeline.md, what each deploy proves', () => {
  it('names the drift detection calls the deploy role is granted, and the command the workflow runs', () => {
    const proves = section('What each deploy proves');
    for (const action of DRIFT_STACK_ACTIONS) expect(proves).toContain(`\`${action}\``);
    expect(proves).toContain('`npm run check:deployed -- --env NAME`');
    for (const environment of DEFAULT_ENVIRONMENTS) {
      expect(workflowText).toContain(`npm run check:deployed -- --env ${environment}\n`);
    }
  });
});

describe('docs/pipeline.md, elsewhere', () => {
  it('gives access stack commands that synthesize, and environments the stack accepts', async () => {
    const accessCommands = [...page.matchAll(/`(npx cdk deploy --app "node infra\/deploy-access\/app\.ts"[^`]*)`/g)];
    expect(accessCommands.length).toBeGreaterThan(0);
    for (const [, command] of accessCommands)
      await expect(synthAccess(contextOf(command ?? ''))).resolves.toBeDefined();
    const named = [...page.matchAll(/-c env=([\w-]+)/g)].map(([, name]) => name).filter((name) => name !== 'NAME');
    expect(named).toContain('staging');
    for (const name of named) expect(environmentOf(() => name)).toBe(name);
    for (const [, environment] of page.matchAll(
      /npx cdk bootstrap --qualifier \w+ --toolkit-stack-name PlantStoreToolkit-([\w-]+)/g,
    )) {
      expect(page).toContain(bootstrapCommand(environment ?? ''));
    }
  });

  it("gives, per account of the separate-accounts recipe, a diff role that reads that account's environment only", async () => {
    const recipe = section('What one account still shares');
    const environments = [...recipe.matchAll(/`-c githubEnvironments=([\w-]+)`/g)].map(([, name]) => name ?? '');
    expect(environments).toEqual(DEFAULT_ENVIRONMENTS);
    for (const environment of environments) {
      const { template } = await synthAccess({
        githubRepository: 'o/n',
        githubRepositoryId: '1',
        githubEnvironments: environment,
      });
      const diff = Object.entries(template.findResources('AWS::IAM::Policy')).find(([id]) => id.startsWith('DiffRole'));
      const stacks = JSON.stringify(diff?.[1].Properties.PolicyDocument).match(/stack\/[\w-]+\//g);
      const own = environment === 'production' ? 'PlantStore' : `PlantStore-${environment}`;
      const besides = [EDGE_WAF_STACK.suffix];
      expect(new Set(stacks)).toEqual(
        new Set([own, ...besides.map((suffix) => `${own}${suffix}`)].map((name) => `stack/${name}/`)),
      );
    }
  });
});

describe("README's Deploy, by hand without GitHub", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const deploy = readme.split(/^## /m).find((part) => part.startsWith('Deploy\n')) ?? '';
  const lines = (/```sh\n([\s\S]*?)```/.exec(deploy)?.[1] ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, ''))
    .filter(Boolean);
  // `npx cdk deploy` without -c env deploys this one.
  const environment = environmentOf(() => undefined);

  it('makes the bootstrap policies alone, bootstraps the default environment with its execution policy, preflights and deploys through that bootstrap with only the alarms’ address', async () => {
    expect(lines.length).toBeLessThanOrEqual(8);
    const [account, access = '', bootstrap, preflight, deploy] = lines;
    expect(account).toBe(aws[1]);
    // The pipeline's access stack command, with none for the repository.
    const [, app, outputsFile] = /(--app "[^"]+").*(--outputs-file \S+)/.exec(accessCommand) ?? [];
    expect(access).toBe(`npx cdk deploy ${app} -c githubRepository=${NO_REPOSITORY} ${outputsFile}`);
    expect(bootstrap).toBe(bootstrapCommand(environment));
    // Alarms that mail no one are missed: the first deploy names where they go.
    const [, alarmEmail] = /^npx cdk deploy -c alarmEmail=(\S+@\S+)$/.exec(deploy ?? '') ?? [];
    expect(alarmEmail).toBeDefined();
    // IAM's own evaluator on the bootstrap's execution role first, with the deploy's flags.
    expect(preflight).toBe(`npm run preflight -- -c alarmEmail=${alarmEmail}`);
    const { template } = await synth({ alarmEmail });
    expect(template.toJSON().Parameters.BootstrapVersion.Default).toBe(
      `/cdk-bootstrap/${qualifierOf(environment)}/version`,
    );
  });

  it('gives CloudFormation the scoped execution policy, and makes no role, provider or secret', async () => {
    const { template, nagViolations } = await synthAccess({ githubRepository: NO_REPOSITORY });
    expect(nagViolations).toEqual([]);
    const all = Object.values(template.toJSON().Resources as Record<string, { Type: string }>).map(({ Type }) => Type);
    expect(new Set(all.filter((type) => type !== 'AWS::CDK::Metadata'))).toEqual(new Set(['AWS::IAM::ManagedPolicy']));
    const sorted = (document: unknown) =>
      JSON.parse(JSON.stringify(document), (_key, value) => (Array.isArray(value) ? [...value].sort() : value));
    const execution = Object.values(template.findResources('AWS::IAM::ManagedPolicy')).map(({ Properties }) => ({
      name: Properties.ManagedPolicyName,
      document: sorted(resolveIn(template, Properties.PolicyDocument)),
    }));
    // The very document the IAM evaluator's tests decide (test/infra/deploy-access/privilege.test.ts).
    for (const file of EXECUTION_POLICY_FILES) {
      expect(execution).toContainEqual({
        name: executionPolicyNameOf(file, environment),
        document: sorted(renderPolicy(file, environment, { accountId: ACCOUNT, partition: 'aws' })),
      });
    }
    const allowed = execution.flatMap(({ document }) => document.Statement).filter(({ Effect }) => Effect === 'Allow');
    for (const { Action } of allowed) expect([Action].flat()).not.toContain('*');
  });
});
