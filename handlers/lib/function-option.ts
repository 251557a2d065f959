// What an opt-in option of the function is (handlers/lib/options.ts lists them): the variable that
// turns it on, read by config.ts and written by functionEnvironment as any other setting, and the
// middlewares the handler adds for its value.

import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ApiEvent } from './http.ts';

export type ApiMiddleware = MiddlewareObj<ApiEvent, APIGatewayProxyResult>;

/** `Value`: its setting, never undefined (unset reads as its default). */
export interface FunctionOption<Value> {
  /** The environment variable that carries its setting. */
  variable: string;
  /** The setting from the variable's value (undefined: unset); undefined for a value it refuses. */
  read(raw: string | undefined): Value | undefined;
  /** What a refusal says the value must be: `<variable> must be <accepts>, got "<value>"`. */
  accepts: string;
  /** The variable's value for `value`, as read() reads it back. */
  write(value: Value): string;
  /** The middlewares the handler adds for its setting: none when it is off. */
  middlewares(value: Value): ApiMiddleware[];
}
