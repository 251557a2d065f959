// Who can take each role of the access stack, decided by an IAM evaluator over the synthesized trust
// policies for GitHub-shaped tokens of every kind of job, in every subject format: only the
// configured repository's dev and production jobs of pipeline.yml on main, and its pull requests.

import { describe, expect, it } from '@jest/globals';
import { claim, PIPELINE_WORKFLOW } from '../../../infra/deploy-access/trust.ts';
import { synthAccess } from '../../helpers/access-stack.ts';
import { claimsOf, JOBS, REPOSITORY, SUBJECT_FORMATS, whoCanAssumeTable } from '../../helpers/github-jobs.ts';
import { ACCOUNT, assumeWithToken, type PolicyDocument, resolveIn, roleArn } from '../../helpers/iam.ts';

const { template } = await synthAccess({
  githubRepository: `${REPOSITORY.owner}/${REPOSITORY.name}`,
  githubRepositoryId: REPOSITORY.id,
});
const PROVIDER = `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`;
const roles = Object.entries(template.findResources('AWS::IAM::Role')).map(([id, role]) => ({
  id,
  name: id.replace(/[0-9A-F]{8}$/, ''),
  trust: resolveIn(template, role.Properties.AssumeRolePolicyDocument) as PolicyDocument,
}));

/** Every role a job's token can take, in one subject format. */
async function assumable(job: (typeof JOBS)[number], format: (typeof SUBJECT_FORMATS)[number]) {
  if (!job.token) return [];
  const claims = claimsOf(job, format);
  const taken = [];
  for (const role of roles) {
    if ((await assumeWithToken(role.trust, roleArn(role.id), PROVIDER, claims)) === 'Allowed') taken.push(role.name);
  }
  return taken;
}

describe('who can assume what, as an IAM evaluator decides it', () => {
  it('has a role for every job the table says may take one, and the table names each role', () => {
    const named = new Set(JOBS.map(({ mayAssume }) => mayAssume).filter(Boolean));
    expect([...named].sort()).toEqual(roles.map(({ name }) => name).sort());
  });

  for (const format of SUBJECT_FORMATS) {
    const rows = JOBS.map((job) => ({ ...job, role: job.mayAssume ?? 'nothing' }));
    it.each(rows)(`${format} subject: $job may assume $role, nothing else`, async (job) => {
      expect(await assumable(job, format)).toEqual(job.mayAssume ? [job.mayAssume] : []);
    });
  }

  it('refuses a token for another audience, and one from another OIDC provider', async () => {
    const job = JOBS.find(({ mayAssume }) => mayAssume === 'DeployRoleProduction');
    const production = roles.find(({ name }) => name === 'DeployRoleProduction');
    if (!job || !production) throw new Error('no production job or role');
    const claims = claimsOf(job, 'immutable');
    const other = { ...claims, 'token.actions.githubusercontent.com:aud': 'https://github.com/octo-org' };
    expect(await assumeWithToken(production.trust, roleArn(production.id), PROVIDER, other)).toBe('ImplicitlyDenied');
    const elsewhere = `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.example.com`;
    expect(await assumeWithToken(production.trust, roleArn(production.id), elsewhere, claims)).toBe('ImplicitlyDenied');
    expect(await assumeWithToken(production.trust, roleArn(production.id), PROVIDER, claims)).toBe('Allowed');
  });

  it("pins every role's job_workflow_ref to this repository's pipeline.yml, and its subject to this repository", () => {
    const repository = `${REPOSITORY.owner}/${REPOSITORY.name}`;
    for (const { trust } of roles) {
      const [statement] = trust.Statement;
      const conditions = { ...statement.Condition.StringEquals, ...statement.Condition.StringLike };
      expect(conditions[claim('job_workflow_ref')]).toMatch(new RegExp(`^${repository}/${PIPELINE_WORKFLOW}@refs/`));
      for (const subject of [conditions[claim('sub')]].flat()) {
        expect(subject).toMatch(
          new RegExp(`^repo:(${repository}|${REPOSITORY.owner}@\\*/${REPOSITORY.name}@${REPOSITORY.id}):`),
        );
      }
    }
  });

  it('prints the table docs/pipeline.md carries', () => {
    expect(whoCanAssumeTable().split('\n')).toHaveLength(JOBS.length + 2);
  });
});
