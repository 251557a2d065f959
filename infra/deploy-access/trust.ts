// Who may assume the access stack's roles: the repository and the job, as STS checks GitHub's claims.
// Subjects in the legacy (`repo:OWNER/NAME:…`), immutable (`repo:OWNER@ID/NAME@ID:…`) and `…:ref:…` formats.

export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';
/** The audience aws-actions/configure-aws-credentials asks GitHub for. */
export const STS_AUDIENCE = 'sts.amazonaws.com';
/** The only branch that deploys. */
export const DEPLOY_REF = 'refs/heads/main';
/** A pull request's runs check out its merge commit: `refs/pull/<number>/merge`. */
export const PULL_REQUEST_REF = 'refs/pull/*/merge';
/** The one workflow file whose jobs may take a role (job_workflow_ref ends in it). */
export const PIPELINE_WORKFLOW = '.github/workflows/pipeline.yml';

/** A claim of GitHub's token as IAM names its condition key. */
export const claim = (name: string) => `${GITHUB_OIDC_HOST}:${name}`;

type Conditions = Record<string, Record<string, string | string[]>>;

/** `OWNER/NAME` and the repository's id, as the access stack is given them. */
export interface Repository {
  repository: string;
  repositoryId: string;
}

/** `repo:<OWNER/NAME or OWNER@id/NAME@id>:<context>` (GitHub docs, "OpenID Connect"), `:ref:<ref>` as templated. */
const subjectOf = ({ repository, repositoryId }: Repository, context: string) => {
  const [owner, name] = repository.split('/');
  return [repository, `${owner}@*/${name}@${repositoryId}`].flatMap((who) => [
    `repo:${who}:${context}`,
    `repo:${who}:${context}:*`,
  ]);
};

/** This repository's pipeline.yml at `ref`, as `job_workflow_ref` names it: a rename needs the access stack redeployed. */
export const workflowRef = ({ repository }: Repository, ref: string) => `${repository}/${PIPELINE_WORKFLOW}@${ref}`;

/** A deploy role: jobs bound to `environment`, of this repository's pipeline.yml, on main. */
export const deployTrust = (repo: Repository, environment: string): Conditions => ({
  StringEquals: {
    [claim('aud')]: STS_AUDIENCE,
    [claim('repository_id')]: repo.repositoryId,
    [claim('environment')]: environment,
    [claim('ref')]: DEPLOY_REF,
    [claim('job_workflow_ref')]: workflowRef(repo, DEPLOY_REF),
  },
  StringLike: { [claim('sub')]: subjectOf(repo, `environment:${environment}`) },
});

/** The diff role: pull requests' jobs of this repository's pipeline.yml, bound to no environment (forks get no token). */
export const diffTrust = (repo: Repository): Conditions => ({
  StringEquals: { [claim('aud')]: STS_AUDIENCE, [claim('repository_id')]: repo.repositoryId },
  StringLike: {
    [claim('sub')]: subjectOf(repo, 'pull_request'),
    [claim('ref')]: PULL_REQUEST_REF,
    [claim('job_workflow_ref')]: workflowRef(repo, PULL_REQUEST_REF),
  },
});
