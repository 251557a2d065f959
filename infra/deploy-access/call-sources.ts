// The cited sources of what CloudFormation calls per resource type: the product's `calls/*.json` (one per type
// or intrinsic function), and each option's `infra/<option>/calls.json` (a list of them), in its own folder.

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
  /**
   * An option's type: drift detection's reads of it with the caller's credentials (its schema's read handler),
   * `null` where drift detection cannot check the type. The product's types have theirs in reads.ts.
   */
  driftReads?: string[] | null;
  /**
   * Where those reads act when AWS picks the ids: ARN patterns fenced by the environment's tag, or `*` for a
   * type that takes no tag. Absent: the service's own place in reads.ts (by stack name or tag).
   */
  driftArns?: string[] | '*';
  /** Calls no principal of dev's path may make on another workload's untagged resource of this type (privilege.test.ts). */
  othersRefused?: string[];
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

/** The product's `calls/*.json` and each option's `calls.json`, read once: a removed option's folder takes its own. */
export function callSources() {
  if (loaded) return loaded;
  const types = new Map<string, TypeSource>();
  const intrinsics = new Map<string, IntrinsicSource>();
  const files = readdirSync(INFRA, { recursive: true, encoding: 'utf8' })
    .filter((path) => /(^|\/)calls\/[^/]+\.json$/.test(path) || /^[^/]+\/calls\.json$/.test(path))
    .sort();
  for (const path of files) {
    const file = join('infra', path);
    const read = JSON.parse(readFileSync(join(INFRA, path), 'utf8'));
    for (const [index, each] of (Array.isArray(read) ? read : [read]).entries()) {
      const data = { ...each, file: Array.isArray(read) ? `${file}[${index}]` : file };
      if (!data.source || !data.read) throw new CallsError(`${data.file}: no "source" and "read" date`);
      if (data.intrinsic) intrinsics.set(data.intrinsic, data);
      else if (data.type) types.set(data.type, data);
      else throw new CallsError(`${data.file}: neither a "type" nor an "intrinsic"`);
    }
  }
  loaded = { types, intrinsics };
  return loaded;
}
