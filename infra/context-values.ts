// Reading one CDK context value, each refusal naming the key and what it must be.

import { exactBoolean, integerRange, wholeNumberIn } from '../handlers/lib/environment.ts';
/** Reads a context value: `node.tryGetContext` in the stack, a plain map in tests. */
export type ContextReader = (key: string) => unknown;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

// Context from the command line is always a string; from cdk.json or tests it may be typed.
export function text(context: ContextReader, key: string): string | undefined {
  const value = context(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new SettingsError(`${key} must be a string, got ${JSON.stringify(value)}`);
  }
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** `true` or `false` untrimmed, by the function's boolean rule (exactBoolean); unset or empty is false. */
export function flag(context: ContextReader, key: string): boolean {
  const value = context(key);
  if (value === undefined || value === null || value === '') return false;
  const flagged = typeof value === 'boolean' ? value : typeof value === 'string' ? exactBoolean(value) : undefined;
  if (flagged === undefined) throw new SettingsError(`${key} must be true or false, got ${JSON.stringify(value)}`);
  return flagged;
}

export function integer(context: ContextReader, key: string, fallback: number, min = 1, max = Infinity): number {
  const value = text(context, key);
  if (value === undefined) return fallback;
  const number = wholeNumberIn(value, min, max);
  if (number === undefined) throw new SettingsError(`${key} must be ${integerRange(min, max)}, got "${value}"`);
  return number;
}

/** A decimal number above `min` and at most `max`. */
export function decimal(
  context: ContextReader,
  key: string,
  fallback: number,
  { min, max }: { min: number; max: number },
): number {
  const value = text(context, key);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || number <= min || number > max) {
    throw new SettingsError(`${key} must be a number above ${min} and at most ${max}, got "${value}"`);
  }
  return number;
}

export function oneOf<T extends string>(context: ContextReader, key: string, allowed: readonly T[]): T | undefined {
  const value = text(context, key);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new SettingsError(`${key} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

// The handler fetches signing keys over https only, so an http issuer could never work.
export function httpsUrl(key: string, value: string): void {
  if (!URL.canParse(value) || new URL(value).protocol !== 'https:') {
    throw new SettingsError(`${key} must be an https URL, got "${value}"`);
  }
}
