// Unknown context keys shaped like ours are refused (a typo must not deploy), with the nearest known one.

import { SettingsError } from './context-values.ts';
import { distance } from './did-you-mean.ts';

// Ours are plain camelCase words; CDK's own keys always carry other characters (`@aws-cdk/…:…`, `aws:cdk:…`).
const OURS = /^[A-Za-z][A-Za-z0-9]*$/;

/** `known`: the keys the readers read (settings.ts records them), and the options' own (infra/options.ts). */
export function refuseUnknownKeys(keys: Iterable<string>, known: readonly string[]): void {
  for (const key of keys) {
    if (!OURS.test(key) || known.includes(key)) continue;
    const near = known.find((candidate) => distance(candidate.toLowerCase(), key.toLowerCase()) <= 2);
    throw new SettingsError(
      `Unknown context key "${key}"${near ? ` (did you mean "${near}"?)` : ''}; known keys: ${known.join(', ')}`,
    );
  }
}
