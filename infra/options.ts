// The stack's opt-in options, one line each (infra/stack-option.ts says what one is). The settings,
// the context keys, the app's stacks, the deploy roles and the stack reach every option through this
// list and never by name: removing one is deleting its folder and its line here.

import type { App, Environment } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BUDGET } from './budget/option.ts';
import type { Ceiling } from './ceiling.ts';
import { type ContextReader, SettingsError } from './context-values.ts';
import { EDGE } from './edge/option.ts';
import type { Front } from './front.ts';
import type { FrontProps, OptionStacks, StackOption } from './stack-option.ts';

const LISTED = {
  budget: BUDGET,
  edge: EDGE,
};

type Listed = typeof LISTED;
type StackOptionName = keyof Listed;
/** Each option's own settings and handoff types, as its entry declares them. */
type SettingsOf = { [K in StackOptionName]: Listed[K] extends StackOption<infer Settings, unknown> ? Settings : never };
type HandoffOf = { [K in StackOptionName]: Listed[K] extends StackOption<unknown, infer Handoff> ? Handoff : never };
/** The list typed per entry, so that an option's hooks only ever get its own settings and handoff. */
const TYPED_OPTIONS: { [K in StackOptionName]: StackOption<SettingsOf[K], HandoffOf[K]> } = LISTED;
// Object.keys types its result as string[]; these are the list's own keys.
const NAMES = Object.keys(TYPED_OPTIONS) as StackOptionName[];

/** Each option's settings by its name; undefined: the option is off. */
export type OptionSettings = { [K in StackOptionName]?: SettingsOf[K] };
/** What each option's stacks beside the service's pass to the service's stack. */
export type OptionHandoffs = { [K in StackOptionName]?: HandoffOf[K] };

/** Every option, for the hooks that need no settings (keys, the deploy roles' stacks). */
export const STACK_OPTIONS: readonly StackOption<unknown, unknown>[] = Object.values(TYPED_OPTIONS);

export function readOptionSettings(context: ContextReader, ceiling: Ceiling): OptionSettings {
  const read = <K extends StackOptionName>(name: K) => TYPED_OPTIONS[name].read(context, ceiling);
  // Object.fromEntries types its keys as strings: each entry is its own option's settings.
  return Object.fromEntries(NAMES.map((name) => [name, read(name)])) as OptionSettings;
}

/** The stacks the options that are on add beside the service's, and the service stack's props for them. */
export function addOptionStacks(
  app: App,
  id: string,
  env: Environment,
  settings: OptionSettings,
): OptionStacks<unknown>['props'] & { handoffs: OptionHandoffs } {
  const add = <K extends StackOptionName>(name: K) => {
    const on = settings[name];
    return on === undefined ? undefined : TYPED_OPTIONS[name].addStacks?.(app, id, env, on);
  };
  const props: OptionStacks<unknown>['props'] = {};
  const handoffs: [StackOptionName, unknown][] = [];
  for (const name of NAMES) {
    const added = add(name);
    if (added === undefined) continue;
    // Two options asking the service's stack for different props: neither may silently win.
    for (const [key, value] of Object.entries(added.props) as [keyof typeof props, unknown][]) {
      if (props[key] !== undefined && JSON.stringify(props[key]) !== JSON.stringify(value)) {
        throw new SettingsError(`the options on ask the service's stack for different ${key}: turn one of them off`);
      }
    }
    Object.assign(props, added.props);
    handoffs.push([name, added.handoff]);
  }
  // Object.fromEntries types its keys as strings: each entry is its own option's handoff.
  return { ...props, handoffs: Object.fromEntries(handoffs) as OptionHandoffs };
}

/** The front of the option that is on and has one; undefined: the HTTP API's. Two such are refused. */
export function optionFront(
  scope: Construct,
  props: FrontProps,
  settings: OptionSettings,
  handoffs: OptionHandoffs = {},
): Front | undefined {
  const front = <K extends StackOptionName>(name: K) => {
    const on = settings[name];
    return on === undefined ? undefined : TYPED_OPTIONS[name].front?.(scope, props, on, handoffs[name]);
  };
  const withFronts = NAMES.filter((name) => settings[name] !== undefined && TYPED_OPTIONS[name].front !== undefined);
  if (withFronts.length > 1) {
    throw new SettingsError(
      `${withFronts.join(' and ')} each put a front in the HTTP API's place: turn one of them off`,
    );
  }
  const [name] = withFronts;
  return name === undefined ? undefined : front(name);
}

/** What the options that are on add to the service's stack, in the list's order. */
export function addOptionsToStack(scope: Construct, settings: OptionSettings): void {
  const add = <K extends StackOptionName>(name: K) => {
    const on = settings[name];
    if (on !== undefined) TYPED_OPTIONS[name].addToStack?.(scope, on);
  };
  for (const name of NAMES) add(name);
}
