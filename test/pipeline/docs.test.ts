// docs/pipeline.md's commands are the tested ones: the set-up is at most three commands, its access
// stack command synthesizes with the keys the app reads, and the variables it names are the ones the
// workflow and the access stack's outputs use.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { DEPLOY_ACCESS_KEYS } from '../../infra/deploy-access-settings.ts';
import { environmentOf } from '../../infra/stack-environment.ts';
import { synthAccess } from '../helpers/access-stack.ts';

const page = readFileSync(new URL('../../docs/pipeline.md', import.meta.url), 'utf8');
const workflow = readFileSync(new URL('../../.github/workflows/pipeline.yml', import.meta.url), 'utf8');
const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));

/** The text of a `## title` section, up to the next one. */
const section = (title: string) => page.split(/^## /m).find((part) => part.startsWith(title)) ?? '';
const setUp = section('From a fork to a first green deploy');
const commands = (/```sh\n([\s\S]*?)```/.exec(setUp)?.[1] ?? '').split('\n').filter((line) => line.trim());

/** `-c key=value` pairs of a command line. */
const contextOf = (command: string) =>
  Object.fromEntries([...command.matchAll(/-c (\w+)=(\S+)/g)].map(([, key, value]) => [key, value as string]));

/** What the access app does with a command's context: read it, then synthesize the stack. */
const synthesizeAccess = (command: string) => synthAccess(contextOf(command)).template;

describe('docs/pipeline.md, from a fork to a first green deploy', () => {
  it('is at most three commands: install, bootstrap, the access stack (then two settings)', () => {
    expect(commands).toHaveLength(3);
    expect(commands.slice(0, 2)).toEqual(['npm ci', 'npx cdk bootstrap']);
    expect(commands[2]).toMatch(/^npx cdk deploy --app "node infra\/deploy-access-app\.ts" /);
  });

  it('deploys the access app that exists, with only keys it reads, without overwriting the stacks’ outputs file', () => {
    const access = commands[2] ?? '';
    const app = /--app "node ([^"]+)"/.exec(access)?.[1] ?? '';
    expect(readFileSync(new URL(`../../${app}`, import.meta.url), 'utf8')).toContain('new DeployAccessStack(');
    const keys = Object.keys(contextOf(access));
    expect(keys).toEqual(['githubRepository', 'githubSubjectIncludesRef']);
    for (const key of keys) expect(DEPLOY_ACCESS_KEYS).toContain(key);
    const outputsFile = /--outputs-file (\S+)/.exec(access)?.[1];
    expect(outputsFile).toMatch(/^\.local\//);
    expect(outputsFile).not.toBe(cdkJson.outputsFile);
  });

  it("trusts, per environment, the subject GitHub emits under the page's OIDC subject template: main only", () => {
    const template = JSON.stringify(synthesizeAccess(commands[2] ?? '').toJSON());
    const keys = [...setUp.matchAll(/-f 'include_claim_keys\[\]=(\w+)'/g)].map(([, key]) => key);
    expect(setUp).toContain('gh api -X PUT repos/OWNER/NAME/actions/oidc/customization/sub -F use_default=false ');
    expect(keys).toEqual(['repo', 'context', 'ref']);
    // GitHub joins the claims in the template's order, each as key:value; context is environment:<name>.
    const claims = { repo: 'OWNER/NAME', context: 'environment:production', ref: 'ref:refs/heads/main' };
    const subject = keys.map((key) => (key === 'repo' ? `repo:${claims.repo}` : claims[key as 'context' | 'ref']));
    expect(template).toContain(`"${subject.join(':')}"`);
  });

  it('names as settings the variables the deploy jobs read, each an output of the access stack', () => {
    const rows = [...setUp.matchAll(/^\| `(\w+)` \| (.+?) \| the `(\w+)` output \|$/gm)].map(
      ([, variable, of, output]) => ({
        variable,
        of,
        output,
      }),
    );
    expect(rows).toEqual([
      { variable: 'AWS_REGION', of: 'the repository', output: 'Region' },
      { variable: 'AWS_DEPLOY_ROLE_ARN', of: 'environment `dev`', output: 'DeployRoleArnDev' },
      { variable: 'AWS_DEPLOY_ROLE_ARN', of: 'environment `production`', output: 'DeployRoleArnProduction' },
    ]);
    const deployJobs = workflow.slice(workflow.indexOf('  deploy-dev:'));
    const read = new Set([...deployJobs.matchAll(/vars\.(\w+)/g)].map(([, name]) => name));
    expect([...read].sort()).toEqual(['AWS_DEPLOY_ROLE_ARN', 'AWS_REGION']);
    const outputs = synthesizeAccess(commands[2] ?? '').toJSON().Outputs as Record<string, { Description: string }>;
    for (const { variable, of, output } of rows) {
      const environment = /`(\w+)`/.exec(of ?? '')?.[1];
      expect(outputs[output ?? '']?.Description).toBe(
        `vars.${variable}${environment ? ` of GitHub environment ${environment}` : ''}`,
      );
    }
  });

  it('names every variable the workflow reads', () => {
    for (const [, name] of workflow.matchAll(/vars\.(\w+)/g)) expect(page).toContain(`\`${name}\``);
  });
});

describe('docs/pipeline.md, elsewhere', () => {
  it('gives access stack commands that synthesize, and environments the stack accepts', () => {
    const accessCommands = [...page.matchAll(/`(npx cdk deploy --app "node infra\/deploy-access-app\.ts"[^`]*)`/g)];
    expect(accessCommands.length).toBeGreaterThan(0);
    for (const [, command] of accessCommands) expect(() => synthesizeAccess(command ?? '')).not.toThrow();
    // Placeholders (`-c env=NAME`) aside, every environment the page names is one the stack accepts.
    const named = [...page.matchAll(/-c env=([\w-]+)/g)].map(([, name]) => name).filter((name) => name !== 'NAME');
    expect(named).toContain('staging');
    for (const name of named) expect(environmentOf(() => name)).toBe(name);
  });
});
