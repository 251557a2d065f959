// GitHub Actions jobs as their OIDC tokens describe them (GitHub docs, "OpenID Connect" and "OIDC
// token claims"), each with the one role of the access stack it should be able to take: the data
// the trust tests evaluate and docs/pipeline.md's who-can-assume-what table is made from.

import { DEPLOY_REF, PIPELINE_WORKFLOW, STS_AUDIENCE } from '../../infra/deploy-access/trust.ts';

/** The configured repository, and a newer one that took its name after a rename. */
export const REPOSITORY = { owner: 'octo-org', ownerId: '1001', name: 'plant-store', id: '2002' };
const NAME_TAKER = { ...REPOSITORY, id: '3003' };
/** A fork, and another repository of the owner with a workflow file at the same path. */
const FORK = { owner: 'mallory', ownerId: '4004', name: 'plant-store', id: '5005' };
const SIBLING = { ...REPOSITORY, name: 'other-service', id: '6006' };

/** The subject formats a token may carry: GitHub's default before and after 2026-07-15, and the template the old set-up installed. */
export const SUBJECT_FORMATS = ['legacy', 'immutable', 'customized'] as const;
export type SubjectFormat = (typeof SUBJECT_FORMATS)[number];

export interface Job {
  /** What the job is, in the words of the docs table. */
  job: string;
  /** The role it may take: `DeployRole<Env>`, `DiffRole`, or none. */
  mayAssume: string | undefined;
  /** No token at all: GitHub gives forks' pull request runs none. */
  token: boolean;
  event: 'push' | 'pull_request' | 'workflow_dispatch';
  ref: string;
  environment?: string;
  workflow?: string;
  repository?: typeof REPOSITORY;
  /** A reusable workflow of another repository that the job runs (its `job_workflow_ref`). */
  calledFrom?: typeof REPOSITORY;
}

const PULL = 'refs/pull/7/merge';
const BRANCH = 'refs/heads/feature';

export const JOBS: Job[] = [
  {
    job: 'pull request from a branch of the repository',
    mayAssume: 'DiffRole',
    token: true,
    event: 'pull_request',
    ref: PULL,
  },
  { job: 'pull request from a fork', mayAssume: undefined, token: false, event: 'pull_request', ref: PULL },
  {
    job: 'pull request whose job names environment `dev`',
    mayAssume: undefined,
    token: true,
    event: 'pull_request',
    ref: PULL,
    environment: 'dev',
  },
  {
    job: 'push to `main`, job without an environment',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
  },
  { job: 'push to another branch', mayAssume: undefined, token: true, event: 'push', ref: BRANCH },
  {
    job: 'push to another branch, environment `dev`',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: BRANCH,
    environment: 'dev',
  },
  {
    job: 'push to `main`, environment `dev`',
    mayAssume: 'DeployRoleDev',
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'dev',
  },
  {
    job: 'manual run on `main`, environment `dev`',
    mayAssume: 'DeployRoleDev',
    token: true,
    event: 'workflow_dispatch',
    ref: DEPLOY_REF,
    environment: 'dev',
  },
  {
    job: 'manual run on another branch, environment `production`',
    mayAssume: undefined,
    token: true,
    event: 'workflow_dispatch',
    ref: BRANCH,
    environment: 'production',
  },
  {
    job: 'push to `main`, environment `production`',
    mayAssume: 'DeployRoleProduction',
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'production',
  },
  {
    job: 'another workflow file on `main`, environment `production`',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'production',
    workflow: '.github/workflows/other.yml',
  },
  {
    job: 'a new repository with the same name after a rename, environment `production`',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'production',
    repository: NAME_TAKER,
  },
  {
    job: 'a fork’s push to its `main`, environment `production`',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'production',
    repository: FORK,
  },
  {
    job: 'another repository’s `pipeline.yml` on `main`, environment `production`',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'production',
    repository: SIBLING,
  },
  {
    job: 'a job on `main`, environment `production`, running a fork’s reusable `pipeline.yml`',
    mayAssume: undefined,
    token: true,
    event: 'push',
    ref: DEPLOY_REF,
    environment: 'production',
    calledFrom: FORK,
  },
];

/** The claims of the job's token in one subject format (only those a trust policy can check matter). */
export function claimsOf(job: Job, format: SubjectFormat): Record<string, string> {
  const repository = job.repository ?? REPOSITORY;
  const context = job.environment
    ? `environment:${job.environment}`
    : job.event === 'pull_request'
      ? 'pull_request'
      : `ref:${job.ref}`;
  const names = `${repository.owner}/${repository.name}`;
  const subject = {
    legacy: `repo:${names}:${context}`,
    immutable: `repo:${repository.owner}@${repository.ownerId}/${repository.name}@${repository.id}:${context}`,
    // include_claim_keys repo, context, ref: each claim as key:value, joined in that order.
    customized: `repo:${names}:${context}:ref:${job.ref}`,
  }[format];
  const claims: Record<string, string> = {
    aud: STS_AUDIENCE,
    sub: subject,
    repository: names,
    repository_id: repository.id,
    repository_owner_id: repository.ownerId,
    ref: job.ref,
    job_workflow_ref: `${job.calledFrom ? `${job.calledFrom.owner}/${job.calledFrom.name}` : names}/${job.workflow ?? PIPELINE_WORKFLOW}@${job.ref}`,
    workflow: 'pipeline',
    actor: 'octocat',
    actor_id: '583231',
    ...(job.environment && { environment: job.environment }),
  };
  return Object.fromEntries(
    Object.entries(claims).map(([key, value]) => [`token.actions.githubusercontent.com:${key}`, value]),
  );
}

/** docs/pipeline.md's table: each job, and what it may assume in every subject format. */
export function whoCanAssumeTable(): string {
  const rows = JOBS.map(
    ({ job, mayAssume, token }) =>
      `| ${job} | ${token ? (mayAssume ? `\`${mayAssume}\`` : 'nothing') : 'nothing (no token)'} |`,
  );
  return ['| job | may assume |', '|---|---|', ...rows].join('\n');
}
