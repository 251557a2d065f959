// What an opt-in option of the stack is: the hooks the shared modules call instead of naming it
// (infra/options.ts lists the options). Each hook says what it does; an option implements those it needs.

import type { App, Environment, StackProps } from 'aws-cdk-lib';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { Ceiling } from './ceiling.ts';
import type { ContextReader } from './context-values.ts';
import type { CustomDomain } from './custom-domain.ts';
import type { Front } from './front.ts';

/**
 * `Settings`: what it reads from context when it is on. `Handoff`: what the stacks it adds beside the
 * service's pass to the service's stack (a cross-stack value), if any.
 */
export interface StackOption<Settings, Handoff = never> {
  /** The context keys it reads: known to context-keys.ts, so none is refused as a typo. */
  contextKeys: readonly string[];
  /** Keys it read before, with what replaced them: refused with that hint rather than ignored. */
  removedKeys: Readonly<Record<string, string>>;
  /**
   * Its settings, or undefined when it is off (its keys without it are refused). `ceiling`: the
   * stack's bill ceiling, which its defaults may follow.
   */
  read(context: ContextReader, ceiling: Ceiling): Settings | undefined;
  /**
   * Stacks it may add beside the service's, by name suffix and Region: the deploy roles may deploy
   * them (deploy-role-grants.ts), whether an environment turns it on or not.
   */
  besideStacks: readonly BesideStack[];
  /** When on: the stacks it adds beside the service's, and what the service's stack needs for them (stacks.ts). */
  addStacks?(app: App, id: string, env: Environment, settings: Settings): OptionStacks<Handoff>;
  /** When on: what callers reach the function through, in the HTTP API's place (plant-store-stack.ts). */
  front?(scope: Construct, props: FrontProps, settings: Settings, handoff: Handoff | undefined): Front;
  /** When on: what it adds to the service's stack once its alarms exist (plant-store-stack.ts). */
  addToStack?(scope: Construct, settings: Settings): void;
}

export interface BesideStack {
  /** Appended to the service stack's name: `PlantStore` + suffix, `PlantStore-dev` + suffix. */
  suffix: string;
  region: string;
}

export interface OptionStacks<Handoff> {
  /** Props the service's stack needs with them (its env at synth, cross-region references). */
  props: Pick<StackProps, 'env' | 'crossRegionReferences'>;
  /** Passed to the option's front in the service's stack; undefined when it added none. */
  handoff: Handoff | undefined;
}

/** What a front is put in front of, as the stack decided it for the HTTP API too. */
export interface FrontProps {
  /** The alias CodeDeploy moves: callers reach it, so canaries and rollbacks work behind any front. */
  alias: Alias;
  /** Browser origins allowed by CORS (-c corsOrigins); empty: CORS off. */
  corsOrigins: string[];
  customDomain: CustomDomain | undefined;
}
