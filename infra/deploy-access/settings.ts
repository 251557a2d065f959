// The access stack's settings, from its own CDK context (`-c githubRepository=OWNER/NAME` ...), checked.

import { list } from '../../handlers/lib/environment.ts';
import { SERVICE_TITLE } from '../../handlers/lib/names.ts';
import { refuseUnknownKeys } from '../context-keys.ts';
import { type ContextReader, SettingsError, text } from '../context-values.ts';
import { environmentOf, PRODUCTION } from '../stack-environment.ts';
import { qualifierOf } from './bootstrap/policies.ts';
import type { DeployAccessProps } from './stack.ts';

/** The access stack's name: apart from the `PlantStore*` stacks its deploy role reads. */
export const DEPLOY_ACCESS_STACK = `${SERVICE_TITLE}DeployAccess`;
/** The environments the pipeline deploys (.github/workflows/pipeline.yml), in order. */
export const DEFAULT_ENVIRONMENTS = ['dev', PRODUCTION];
/** The context keys this app reads; any other key of ours is a typo. */
export const DEPLOY_ACCESS_KEYS = [
  'githubRepository',
  'githubRepositoryId',
  'githubEnvironments',
  'githubOidcProviderArn',
] as const;
/** `-c githubRepository=none`: no GitHub, only each environment's bootstrap policies (a deploy by hand). */
export const NO_REPOSITORY = 'none';
/** The command that prints a repository's immutable id. */
export const REPOSITORY_ID_COMMAND = 'gh api repos/OWNER/NAME --jq .id';

/** Keys of earlier versions, each refused with what to do instead. */
const RETIRED: Record<string, string> = {
  githubSubjectIncludesRef:
    'the roles now check the ref claim themselves: drop it, and give the repository back its default subject (gh api -X PUT repos/OWNER/NAME/actions/oidc/customization/sub -F use_default=true)',
  bootstrapQualifier: 'each environment now has its own qualifier (psdev, psproducti…, docs/pipeline.md): drop it',
};

// GitHub's rules for owner and repository names; a repository id is a positive integer.
const REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
const REPOSITORY_ID = /^[1-9]\d{0,19}$/;
const OIDC_PROVIDER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;

export function readDeployAccess(
  context: ContextReader,
  givenKeys: Iterable<string> = [],
): Pick<DeployAccessProps, 'repository' | 'repositoryId' | 'environments' | 'oidcProviderArn'> {
  for (const key of givenKeys) {
    const retired = RETIRED[key];
    if (retired) throw new SettingsError(`${key} is no longer read: ${retired}`);
  }
  refuseUnknownKeys(givenKeys, DEPLOY_ACCESS_KEYS);
  const given = list(text(context, 'githubEnvironments'));
  // Each GitHub environment deploys the stack environment of the same name: the same rule applies.
  const environments = given.length > 0 ? given.map((name) => environmentOf(() => name)) : DEFAULT_ENVIRONMENTS;
  refuseSharedQualifiers(environments);
  const repository = text(context, 'githubRepository');
  if (repository === NO_REPOSITORY) {
    const extra = ['githubRepositoryId', 'githubOidcProviderArn'].find((key) => text(context, key) !== undefined);
    if (extra) throw new SettingsError(`githubRepository=${NO_REPOSITORY} makes no GitHub roles: drop ${extra}`);
    return { repository: undefined, repositoryId: undefined, environments, oidcProviderArn: undefined };
  }
  if (repository === undefined || !REPOSITORY.test(repository)) {
    throw new SettingsError(
      `githubRepository must be your repository as OWNER/NAME (-c githubRepository=octo-org/plant-store), or ${NO_REPOSITORY} for the bootstrap policies alone, got ${repository === undefined ? 'nothing' : `"${repository}"`}`,
    );
  }
  const repositoryId = text(context, 'githubRepositoryId');
  if (repositoryId === undefined || !REPOSITORY_ID.test(repositoryId)) {
    const fix = REPOSITORY_ID_COMMAND.replace('OWNER/NAME', repository);
    throw new SettingsError(
      `githubRepositoryId must be the repository's numeric id, which survives renames (-c githubRepositoryId=$(${fix})), got ${repositoryId === undefined ? 'nothing' : `"${repositoryId}"`}`,
    );
  }
  const oidcProviderArn = text(context, 'githubOidcProviderArn');
  if (oidcProviderArn !== undefined && !OIDC_PROVIDER_ARN.test(oidcProviderArn)) {
    throw new SettingsError(
      `githubOidcProviderArn must be the ARN of the account's token.actions.githubusercontent.com provider, got "${oidcProviderArn}"`,
    );
  }
  return { repository, repositoryId, environments, oidcProviderArn };
}

// One qualifier per environment keeps each one's execution role and asset bucket apart.
function refuseSharedQualifiers(environments: string[]): void {
  const seen = new Map<string, string>();
  for (const environment of environments) {
    const qualifier = qualifierOf(environment);
    const other = seen.get(qualifier);
    if (other !== undefined) {
      throw new SettingsError(
        `githubEnvironments ${other} and ${environment} would share the bootstrap qualifier ${qualifier}: make their first 8 letters and digits differ`,
      );
    }
    seen.set(qualifier, environment);
  }
}
