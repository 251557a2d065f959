// Options built on the service: each `infra/<name>/option.ts` is found by its folder and adds to the
// service's stack or beside it; the service names none of them, so removing one is deleting its folder
// (and its tests' test/infra/<name>/). A structure test holds that no other file imports an option's folder.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App, Environment, StackProps } from 'aws-cdk-lib';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { ContextReader } from './context-values.ts';
import type { Front } from './front.ts';
import type { StackSettings } from './settings.ts';

/** What an option may use of the service's stack. */
export interface ServiceParts {
  /** The `live` alias CodeDeploy moves: what a front calls. */
  alias: Alias;
  settings: StackSettings;
  /** The operations' paths and methods (handlers/lib/operations.ts). */
  paths: readonly string[];
  methods: readonly string[];
}

/** An option, on: what it asks of the service's stack. */
export interface OptionParts {
  /** Props of the service's stack (an option's stack in another Region needs env and cross-Region references). */
  stackProps?: StackProps;
  /** Callers' way in, in the HTTP API's place. */
  front?: (scope: Construct, service: ServiceParts) => Front;
  /** Resources added to the service's stack. */
  extend?: (scope: Construct, service: ServiceParts) => void;
}

/** A stack an option may stand beside the service's, which each environment's deploy role may deploy. */
export interface BesideStack {
  /** Appended to the service's stack name. */
  suffix: string;
  region: string;
}

/** A way to turn an option on, as `cdk deploy` would synthesize it: what the tests of every template synthesize. */
export interface OptionSample {
  name: string;
  context: Record<string, string>;
  /** The Region the CLI would pass, where the option needs one at synth. */
  region?: string;
}

export interface ServiceOption {
  /** Its context keys: known to the settings' typo check, refused by the option itself while it is off. */
  contextKeys: readonly string[];
  samples: readonly OptionSample[];
  besideStacks?: readonly BesideStack[];
  /** Reads its settings (undefined: off); may add stacks beside the service's to `app`. */
  apply(
    app: App,
    id: string,
    env: Environment,
    context: ContextReader,
    service: StackSettings,
  ): OptionParts | undefined;
}

const INFRA = fileURLToPath(new URL('.', import.meta.url));

/** Every option present, by folder name. */
export const OPTIONS: readonly ServiceOption[] = await Promise.all(
  readdirSync(INFRA)
    .map((name) => join(INFRA, name, 'option.ts'))
    .filter((file) => existsSync(file))
    .sort()
    .map(async (file) => ((await import(file)) as { option: ServiceOption }).option),
);
