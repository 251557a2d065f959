// A synthesized template's resources as the stack's tests read them: all of a type, or the one.

import { expect } from '@jest/globals';
import type { Synthesized } from './cdk.ts';

/** A template's resource as the assertions read it. */
export interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  DependsOn?: string[];
  DeletionPolicy?: string;
}

/** Every resource of `type` in a synth's template. */
export const resourcesOf = (s: Synthesized, type: string): Resource[] =>
  Object.values(s.template.findResources(type)) as Resource[];

/** The one resource of `type`: the test fails when there is none, or several. */
export function onlyOf(s: Synthesized, type: string): Resource {
  const found = resourcesOf(s, type);
  expect(found).toHaveLength(1);
  return found[0] as Resource;
}
