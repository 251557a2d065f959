// The function's opt-in options, one line each (handlers/lib/function-option.ts says what one is):
// config.ts reads each one's variable, functionEnvironment writes it, and the handler adds their
// middlewares. Removing one is deleting its folder and its line here.

import { EDGE } from './edge/option.ts';
import type { ApiMiddleware, FunctionOption } from './function-option.ts';

const LISTED = {
  edge: EDGE,
};

type Listed = typeof LISTED;
export type FunctionOptionName = keyof Listed;
/** Each option's setting by its name, as config.ts reads it. */
export type OptionValues = { [K in FunctionOptionName]: Listed[K] extends FunctionOption<infer Value> ? Value : never };
/** The list typed per entry, so that an option's hooks only ever get its own setting. */
export const FUNCTION_OPTIONS: { [K in FunctionOptionName]: FunctionOption<OptionValues[K]> } = LISTED;
// Object.keys types its result as string[]; these are the list's own keys.
export const OPTION_NAMES = Object.keys(FUNCTION_OPTIONS) as FunctionOptionName[];
/** Each option's variable (test/structure checks each has one home, in its own folder). */
export const OPTION_VARIABLES: string[] = Object.values<FunctionOption<unknown>>(FUNCTION_OPTIONS).map(
  ({ variable }) => variable,
);

/** The middlewares of every option for its setting, in the list's order (none for one that is off). */
export function optionMiddlewares(values: OptionValues): ApiMiddleware[] {
  const of = <K extends FunctionOptionName>(name: K) => FUNCTION_OPTIONS[name].middlewares(values[name]);
  return OPTION_NAMES.flatMap(of);
}
