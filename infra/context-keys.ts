// The context keys the service reads (each option lists its own): an unknown key shaped like ours is refused (a typo must not deploy).

import { SettingsError } from './context-values.ts';
import { distance } from './did-you-mean.ts';

export const CONTEXT_KEYS = [
  'stackName',
  'dev',
  'corsOrigins',
  'authIssuer',
  'authAudience',
  'authJwksUri',
  'authTokenUse',
  'authIssuerType',
  'authGroupsClaim',
  'authRequiredScope',
  'authDomainPrefix',
  'accessTokenMinutes',
  'jwtAuthorizer',
  'domainName',
  'certificateArn',
  'basePath',
  'publicBaseUrl',
  'samLocal',
  'architecture',
  'memoryMb',
  'requestLog',
  'accessLog',
  'accessLogClass',
  'tracing',
  'systemLogLevel',
  'sourceMaps',
  'alarmEmail',
  'alarmErrorRatePercent',
  'alarmMinRequests',
  'alarmP99Ms',
  'deploymentStrategy',
  'provisionedConcurrency',
  // The bill ceiling (infra/ceiling.ts).
  'maxRequestsPerSecond',
  'reserveConcurrency',
  // The function's group cache (handlers/lib/group-cache.ts).
  'groupCacheSeconds',
  'groupCacheMaxBytes',
  // Environments by name (infra/stack-environment.ts).
  'env',
] as const;

// Ours are plain camelCase words; CDK's own keys always carry other characters (`@aws-cdk/…:…`, `aws:cdk:…`).
const OURS = /^[A-Za-z][A-Za-z0-9]*$/;

/** `optionKeys`: the options' own (infra/options.ts). */
export function refuseUnknownKeys(keys: Iterable<string>, optionKeys: readonly string[] = []): void {
  const known: readonly string[] = [...CONTEXT_KEYS, ...optionKeys];
  for (const key of keys) {
    if (!OURS.test(key) || known.includes(key)) continue;
    const near = known.find((candidate) => distance(candidate.toLowerCase(), key.toLowerCase()) <= 2);
    throw new SettingsError(
      `Unknown context key "${key}"${near ? ` (did you mean "${near}"?)` : ''}; known keys: ${known.join(', ')}`,
    );
  }
}
