// Who may assume the access stack's roles, as STS checks it: the repository by its immutable id and
// the job by GitHub's own claims (environment, ref, workflow file), which STS evaluates as condition
// keys of a trust policy since 2026-01. The subject is checked for its shape only, so the legacy
// (`repo:OWNER/NAME:…`), immutable (`repo:OWNER@ID/NAME@ID:…`) and customized formats all pass.

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

/**
 * A subject is `repo:<repository>:<context>` by default, whichever form the repository part takes
 * (GitHub docs, "OpenID Connect", Immutable subject claims), and `…:<context>:ref:<ref>` under the
 * template the set-up used to install; the repository itself is pinned by `repository_id`.
 */
const subjectOf = (context: string) => [`repo:*:${context}`, `repo:*:${context}:*`];

/** A deploy role: jobs bound to `environment`, of pipeline.yml, on main, of the repository with this id. */
export const deployTrust = (repositoryId: string, environment: string): Conditions => ({
  StringEquals: {
    [claim('aud')]: STS_AUDIENCE,
    [claim('repository_id')]: repositoryId,
    [claim('environment')]: environment,
    [claim('ref')]: DEPLOY_REF,
  },
  StringLike: {
    [claim('sub')]: subjectOf(`environment:${environment}`),
    // The workflow's path and ref; the repository part is the caller's, already pinned by its id.
    [claim('job_workflow_ref')]: `*/${PIPELINE_WORKFLOW}@${DEPLOY_REF}`,
  },
});

/** The diff role: pull requests' jobs of pipeline.yml, bound to no environment (forks get no token). */
export const diffTrust = (repositoryId: string): Conditions => ({
  StringEquals: { [claim('aud')]: STS_AUDIENCE, [claim('repository_id')]: repositoryId },
  StringLike: {
    [claim('sub')]: subjectOf('pull_request'),
    [claim('ref')]: PULL_REQUEST_REF,
    [claim('job_workflow_ref')]: `*/${PIPELINE_WORKFLOW}@${PULL_REQUEST_REF}`,
  },
});
