// The access stack's settings, from its own CDK context (`-c githubRepository=OWNER/NAME` ...), checked.

import { type ContextReader, flag, list, SettingsError, text } from './context-values.ts';
import type { DeployAccessProps } from './deploy-access.ts';
import { environmentOf, PRODUCTION } from './stack-environment.ts';

/** The access stack's name: apart from the `PlantStore*` stacks its deploy role reads. */
export const DEPLOY_ACCESS_STACK = 'PlantStoreDeployAccess';
/** The environments the pipeline deploys (.github/workflows/pipeline.yml), in order. */
export const DEFAULT_ENVIRONMENTS = ['dev', PRODUCTION];
/** The context keys this app reads; any other key of ours is a typo. */
export const DEPLOY_ACCESS_KEYS = [
  'githubRepository',
  'githubEnvironments',
  'githubOidcProviderArn',
  'bootstrapQualifier',
  'githubSubjectIncludesRef',
] as const;

// GitHub's rules for owner and repository names.
const REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
const OIDC_PROVIDER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;
// What `cdk bootstrap --qualifier` accepts.
const QUALIFIER = /^[A-Za-z0-9_-]{1,10}$/;

export function readDeployAccess(
  context: ContextReader,
  givenKeys: Iterable<string> = [],
): Pick<DeployAccessProps, 'repository' | 'environments' | 'oidcProviderArn' | 'qualifier' | 'subjectIncludesRef'> {
  const known: readonly string[] = DEPLOY_ACCESS_KEYS;
  for (const key of givenKeys) {
    if (/^[A-Za-z][A-Za-z0-9]*$/.test(key) && !known.includes(key)) {
      throw new SettingsError(`Unknown context key "${key}"; the access stack reads ${known.join(', ')}`);
    }
  }
  const repository = text(context, 'githubRepository');
  if (repository === undefined || !REPOSITORY.test(repository)) {
    throw new SettingsError(
      `githubRepository must be your repository as OWNER/NAME (-c githubRepository=octo-org/plant-store), got ${repository === undefined ? 'nothing' : `"${repository}"`}`,
    );
  }
  const given = list(text(context, 'githubEnvironments'));
  // Each GitHub environment deploys the stack environment of the same name: the same rule applies.
  const environments = given.length > 0 ? given.map((name) => environmentOf(() => name)) : DEFAULT_ENVIRONMENTS;
  const oidcProviderArn = text(context, 'githubOidcProviderArn');
  if (oidcProviderArn !== undefined && !OIDC_PROVIDER_ARN.test(oidcProviderArn)) {
    throw new SettingsError(
      `githubOidcProviderArn must be the ARN of the account's token.actions.githubusercontent.com provider, got "${oidcProviderArn}"`,
    );
  }
  const qualifier = text(context, 'bootstrapQualifier') ?? 'hnb659fds';
  if (!QUALIFIER.test(qualifier)) {
    throw new SettingsError(`bootstrapQualifier must be up to 10 letters, digits, "_" or "-", got "${qualifier}"`);
  }
  // true once the repository's OIDC subject template carries the ref (docs/pipeline.md): main only.
  const subjectIncludesRef = flag(context, 'githubSubjectIncludesRef');
  return { repository, environments, oidcProviderArn, qualifier, subjectIncludesRef };
}
