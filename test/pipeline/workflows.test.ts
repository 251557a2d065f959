// The GitHub Actions workflows, checked where no GitHub runs: actionlint clean, every `npm run` they
// call exists, third-party actions pinned by commit, least permissions, one deployment per
// environment at a time, the environments the access stack trusts, and nothing secret printed.
// The release workflow's own behaviour: release.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { PERMISSIONS_BOUNDARY_KEY } from '../../infra/deploy-access/bootstrap/app-boundary.ts';
import { boundaryName, qualifierOf, smokeSecretName } from '../../infra/deploy-access/bootstrap/policies.ts';
import { DEFAULT_ENVIRONMENTS } from '../../infra/deploy-access/settings.ts';
import { actionlint } from '../helpers/actionlint.ts';
import { importGraph, sourceFiles } from '../helpers/import-graph.ts';

const DIR = new URL('../../.github/workflows/', import.meta.url);
const files = readdirSync(DIR).filter((name) => /\.ya?ml$/.test(name));
const text = (file: string) => readFileSync(new URL(file, DIR), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Job {
  if?: string;
  needs?: string | string[];
  environment?: string;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  strategy?: {
    matrix?: { include?: { environment: string; qualifier: string; boundary: string; role: string; region: string }[] };
  };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  concurrency?: { group: string; 'cancel-in-progress': string };
  jobs: Record<string, Job>;
}
const workflows = files.map((file) => ({ file, text: text(file), workflow: parse(text(file)) as Workflow }));
const pipeline = workflows.find(({ file }) => file === 'pipeline.yml')?.workflow as Workflow;
const jobs = Object.entries(pipeline.jobs);
const steps = workflows.flatMap(({ workflow }) => Object.values(workflow.jobs).flatMap((job) => job.steps));
const assumesRole = (job: Job) =>
  job.steps.some((step) => step.uses?.startsWith('aws-actions/configure-aws-credentials@'));
const releases = (job: Job) => job.steps.some((step) => /^gh release create /m.test(step.run ?? ''));

describe('the workflows', () => {
  it('pass actionlint', async () => {
    expect(files).toEqual(expect.arrayContaining(['pipeline.yml', 'release.yml']));
    for (const { file, text } of workflows) {
      expect({ file, findings: await actionlint(text, `.github/workflows/${file}`) }).toEqual({ file, findings: [] });
    }
  });

  it('would fail actionlint if a job needed one that does not exist, or read a context that does not', async () => {
    const broken = text('pipeline.yml')
      .replace('needs: deploy-dev', 'needs: deploy-staging')
      .replace(/vars\.AWS_REGION/, 'var.AWS_REGION');
    const kinds = (await actionlint(broken, 'broken.yml')).map(({ kind }) => kind);
    expect(kinds).toEqual(expect.arrayContaining(['job-needs', 'expression']));
  });

  it('call only npm scripts that package.json has', () => {
    const scripts = Object.keys(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts,
    );
    const called = steps.flatMap((step) =>
      [...(step.run ?? '').matchAll(/npm run (?:-s )?([\w:-]+)/g)].map(([, name]) => name),
    );
    expect(called.length).toBeGreaterThan(0);
    for (const name of called) expect(scripts).toContain(name);
  });

  it('pin every action by full commit, with the release tag beside it', () => {
    for (const { text } of workflows) {
      const uses = [...text.matchAll(/uses: (\S+)(.*)$/gm)];
      expect(uses.length).toBeGreaterThan(0);
      for (const [, ref, comment] of uses) {
        expect({ ref, comment }).toEqual({
          ref: expect.stringMatching(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/),
          comment: expect.stringMatching(/^ # v\d+\.\d+\.\d+$/),
        });
      }
    }
  });

  it('read the repository only, write it only in the job that publishes a release, and ask for an OIDC token only in jobs that assume a role', () => {
    for (const { file, workflow } of workflows) {
      expect(workflow.permissions).toEqual({ contents: 'read' });
      for (const [id, job] of Object.entries(workflow.jobs)) {
        const expected = assumesRole(job)
          ? { contents: 'read', 'id-token': 'write' }
          : releases(job)
            ? { contents: 'write' }
            : undefined;
        expect({ file, id, permissions: job.permissions }).toEqual({ file, id, permissions: expected });
      }
    }
  });

  it('use no secrets and echo no credential: the roles come from variables, tokens stay on the runner', () => {
    for (const { text } of workflows) {
      expect(text).not.toMatch(/secrets\.|set -x|::set-output|\$TOKEN|AWS_SECRET_ACCESS_KEY/);
    }
  });

  it('take Node from .nvmrc (24, as package.json engines asks), and cache npm only where no credentials are held', () => {
    expect(readFileSync(new URL('../../.nvmrc', import.meta.url), 'utf8')).toBe('24\n');
    for (const job of Object.values(pipeline.jobs)) {
      const setup = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
      expect(setup?.with?.['node-version-file']).toBe('.nvmrc');
      expect(setup?.with?.cache).toBe(assumesRole(job) ? undefined : 'npm');
    }
  });
});

describe('the pipeline', () => {
  it('runs on pull requests, pushes and by hand only: no trigger that runs with the base repository’s rights for others’ code (L8)', () => {
    expect(pipeline.on).toEqual({ pull_request: null, push: { branches: ['**'] }, workflow_dispatch: null });
  });

  it('installs without install scripts in every job that may ask for a role’s token', () => {
    const credentialed = jobs.filter(([, job]) => job.permissions?.['id-token'] === 'write');
    expect(credentialed.map(([id]) => id).sort()).toEqual(['deploy-dev', 'deploy-production', 'diff']);
    for (const [id, job] of credentialed) {
      const installs = job.steps.map((step) => step.run ?? '').filter((run) => /\bnpm (ci|install|i)\b/.test(run));
      expect({ id, installs }).toEqual({ id, installs: ['npm ci --ignore-scripts --no-audit --no-fund'] });
    }
  });

  it('checks every pull request and push as .ci/run does, and synthesizes each environment', () => {
    const { check } = pipeline.jobs;
    const runs = check?.steps.map((step) => step.run ?? '').join('\n');
    expect(runs).toContain('bash .ci/run');
    for (const name of DEFAULT_ENVIRONMENTS) expect(runs).toContain(`npx cdk synth -q -c env=${name}`);
  });

  it('shows cdk diff of each environment the access stack trusts, on pull requests, through the read-only diff role', () => {
    const { diff } = pipeline.jobs;
    expect(diff?.if).toMatch(/github.event_name == 'pull_request' && vars.AWS_DIFF_ROLE_ARN != ''/);
    // Each environment with its own bootstrap and boundary, as its deploy job synthesizes it.
    expect(diff?.strategy?.matrix?.include).toEqual(
      DEFAULT_ENVIRONMENTS.map((environment) => ({
        environment,
        qualifier: qualifierOf(environment),
        boundary: boundaryName(environment),
        // One account's diff role for all, or each account's own (separate accounts).
        role: expect.stringMatching(/vars\.AWS_DIFF_ROLE_ARN \}\}$/),
        // The diff job has no environment, so no environment's variables: production's Region by name (L4).
        region: expect.stringMatching(
          environment === 'production'
            ? /^\$\{\{ vars\.AWS_REGION_PRODUCTION \|\| vars\.AWS_REGION \}\}$/
            : /^\$\{\{ vars\.AWS_REGION \}\}$/,
        ),
      })),
    );
    const run = diff?.steps.map((step) => step.run ?? '').join('\n');
    expect(run).toContain('npx cdk diff --method=template');
    expect(run).toContain('-c "@aws-cdk/core:bootstrapQualifier=$QUALIFIER"');
    expect(run).toContain(`-c "${PERMISSIONS_BOUNDARY_KEY}=$BOUNDARY"`);
    expect(run).toContain('$GITHUB_STEP_SUMMARY');
    const role = diff?.steps.find((step) => step.with?.['role-to-assume']);
    expect(role?.with?.['role-to-assume']).toMatch(/^\$\{\{ matrix\.role \}\}$/);
    expect(role?.with?.['aws-region']).toBe('${{ matrix.region }}');
    // The summary is public to the repository's readers: no account id in it.
    expect(run).toContain("sed -E 's/[0-9]{12}/************/g' diff.txt");
  });

  it('deploys main to each environment in order, one deployment per environment at a time, after IAM’s preflight, and smoke-checks each, then runs drift detection on it', () => {
    const deploys = jobs.filter(([, job]) => job.environment !== undefined);
    expect(deploys.map(([, job]) => job.environment)).toEqual(DEFAULT_ENVIRONMENTS);
    deploys.forEach(([id, job], index) => {
      const name = job.environment as string;
      expect(job.needs).toBe(index === 0 ? 'check' : deploys[index - 1]?.[0]);
      expect(job.concurrency).toEqual({ group: `deploy-${name}`, 'cancel-in-progress': false });
      const runs = job.steps.map((step) => step.run).filter(Boolean);
      const flags = `-c env=${name} -c @aws-cdk/core:bootstrapQualifier=${qualifierOf(name)} -c ${PERMISSIONS_BOUNDARY_KEY}=${boundaryName(name)}`;
      expect({ id, runs: runs.slice(-4) }).toEqual({
        id,
        runs: [
          `npm run preflight -- ${flags}`,
          `npx cdk deploy --all -c env=${name} -c @aws-cdk/core:bootstrapQualifier=${qualifierOf(name)} -c ${PERMISSIONS_BOUNDARY_KEY}=${boundaryName(name)} --require-approval never`,
          `npm run smoke -- --deployed --env ${name} --password-secret ${smokeSecretName(name)}`,
          `npm run check:deployed -- --env ${name}`,
        ],
      });
      expect(job.steps.at(-1)).toMatchObject({ name: 'CloudFormation drift detection' });
      expect(job.steps.find((step) => step.with?.['role-to-assume'])?.with?.['role-to-assume']).toMatch(
        /^\$\{\{ vars\.AWS_DEPLOY_ROLE_ARN \}\}$/,
      );
    });
    // Each run of main its own group (a production approval pending holds no later dev deploy, L3);
    // the deploy jobs' own groups keep each environment's deploys one at a time, in order.
    expect(pipeline.concurrency?.group).toBe(
      "pipeline-${{ github.ref == 'refs/heads/main' && github.run_id || github.ref }}",
    );
    // Only the first one says when: the rest follow it.
    // A repository variable: a job's `if` cannot see its environment's (AWS_DEPLOY_ROLE_ARN is one).
    expect(deploys[0]?.[1].if).toMatch(/github.ref == 'refs\/heads\/main' && vars.AWS_REGION != ''/);
  });

  it("the deploy jobs' last step, npm run check:deployed, is CloudFormation drift detection", () => {
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts;
    const [, entry = ''] = /^node (\S+)$/.exec(scripts['check:deployed']) ?? [];
    const root = fileURLToPath(new URL('../..', import.meta.url));
    expect(importGraph(root, sourceFiles(root), { runtimeOnly: true }).get(entry)).toContain('deployed/drift.ts');
  });
});
