// The cited sources of what CloudFormation calls per resource type: every `calls/*.json` under infra/, one per
// type or intrinsic function, in the folder of the option that adds it (infra/edge/calls/, infra/budget/calls/).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a call acts: `*`, or an ARN template (`${Partition}`, `${Name}`, a property path…) and its context. */
export type Target = '*' | { arn?: string; context?: Record<string, string> };

/** A resource type's calls, from its CloudFormation registry schema (`handlers.*.permissions`) or a guide. */
export interface TypeSource {
  type: string;
  /** Where the lists were read, and when. */
  source: string;
  read: string;
  /** The resource's own ARN; absent when its calls act on the resource a property names (`on`). */
  arn?: string;
  /** The property holding an explicit name (else CloudFormation's `<stack>-<logical id>-<suffix>`). */
  name?: string;
  /** What `Ref` returns (default `${Name}`). */
  ref?: string;
  /** The property holding its tags (a list of {Key, Value} or a map). */
  tags?: string;
  /** The property naming the parent whose tags IAM sees on it (an HTTP API's routes: the API's). */
  tagsFrom?: string;
  /** The property naming the resource its calls act on (a pool client: the pool). */
  on?: string;
  /** What the creating calls act on, where AWS picks the id (an HTTP API: `/apis`). */
  collection?: string;
  /** Context every call on this resource carries (a role: its permissions boundary). */
  context?: Record<string, string>;
  attributes?: Record<string, string>;
  /** The calls authorized before the resource exists: they carry its tags as request tags only. */
  createdBy: string[];
  create: string[];
  update: string[];
  delete: string[];
  /** Names in the schema's lists that IAM does not know as actions (API names another action authorizes). */
  notActions?: string[];
  /** Every property the stack sets, each with the listed calls made only when it is set (`[]`: none). */
  properties: Record<string, string[]>;
  /** Listed calls made only when a property is absent (a role without a boundary: the update removes it). */
  without?: Record<string, string[]>;
  /** Calls a property (`*`: any resource of the type) adds that the schema does not list, from the service's guide. */
  adds?: Record<string, { source: string; read: string; calls: string[] }>;
  targets?: Record<string, Target>;
  /** The file it came from, for error messages. */
  file: string;
}

/** An intrinsic function that makes CloudFormation call a service (Fn::GetStackOutput: DescribeStacks). */
export interface IntrinsicSource {
  intrinsic: string;
  source: string;
  read: string;
  calls: string[];
  targets: Record<string, Target>;
  file: string;
}

export class CallsError extends Error {
  override name = 'CallsError';
}

const INFRA = fileURLToPath(new URL('..', import.meta.url));
let loaded: { types: Map<string, TypeSource>; intrinsics: Map<string, IntrinsicSource> } | undefined;

/** Every `calls/*.json` under infra/, read once: a removed option's folder takes its sources with it. */
export function callSources() {
  if (loaded) return loaded;
  const types = new Map<string, TypeSource>();
  const intrinsics = new Map<string, IntrinsicSource>();
  const files = readdirSync(INFRA, { recursive: true, encoding: 'utf8' })
    .filter((path) => /(^|\/)calls\/[^/]+\.json$/.test(path))
    .sort();
  for (const path of files) {
    const file = join('infra', path);
    const data = { ...JSON.parse(readFileSync(join(INFRA, path), 'utf8')), file };
    if (!data.source || !data.read) throw new CallsError(`${file}: no "source" and "read" date`);
    if (data.intrinsic) intrinsics.set(data.intrinsic, data);
    else if (data.type) types.set(data.type, data);
    else throw new CallsError(`${file}: neither a "type" nor an "intrinsic"`);
  }
  loaded = { types, intrinsics };
  return loaded;
}
