// A synthesized template's values as CloudFormation will resolve them, for naming what each call acts on:
// physical names and ids (made up where AWS picks them), references, property paths, ARN templates of the
// calls/ sources, tags. Read by calls.ts.

import { createHash } from 'node:crypto';
import { CallsError, callSources } from './call-sources.ts';

/** Where the template deploys; `retag` rewrites its tags (another environment's), `seed` the ids AWS picks. */
export interface Where {
  stackName: string;
  region: string;
  account: string;
  partition: string;
  seed?: string;
  retag?: (key: string, value: string) => string | undefined;
}

export interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  [attribute: string]: unknown;
}
export interface TemplateJson {
  Resources: Record<string, Resource>;
  [section: string]: unknown;
}

/** The reader of one template, deployed `where`. */
export function templateReader(template: TemplateJson, where: Where) {
  const { types } = callSources();
  const resources = template.Resources;
  const sourceOf = (id: string) => {
    const resource = resources[id];
    if (!resource) throw new CallsError(`No resource ${id} in the template`);
    const source = types.get(resource.Type);
    if (!source) {
      throw new CallsError(
        `${resource.Type} (${id}): no calls/ file says what CloudFormation calls for it: add one from its registry schema (aws cloudformation describe-type --type RESOURCE --type-name ${resource.Type} --query Schema)`,
      );
    }
    return source;
  };
  const hash = (text: string, length: number) =>
    createHash('sha256')
      .update(`${where.seed ?? where.stackName}/${text}`)
      .digest('hex')
      .slice(0, length);
  const pseudo: Record<string, string> = {
    'AWS::Partition': where.partition,
    'AWS::Region': where.region,
    'AWS::AccountId': where.account,
    'AWS::StackName': where.stackName,
    'AWS::URLSuffix': 'amazonaws.com',
  };

  /** A CloudFormation value written out: one string, or several (a list, or a property of each in a list). */
  const value = (each: unknown, id: string): string[] => {
    if (typeof each === 'string' || typeof each === 'number' || typeof each === 'boolean') return [String(each)];
    if (Array.isArray(each)) return each.flatMap((item) => value(item, id));
    const object = (each ?? {}) as Record<string, unknown>;
    const [key] = Object.keys(object);
    const args = object[key ?? ''];
    const list = args as [string, unknown];
    if (key === 'Ref')
      return pseudo[args as string] !== undefined ? [pseudo[args as string] ?? ''] : refOf(args as string);
    if (key === 'Fn::GetAtt') return attribute(list[0], list[1] as string);
    if (key === 'Fn::Join') return [(list[1] as unknown[]).map((part) => value(part, id).join(',')).join(list[0])];
    if (key === 'Fn::Select') return [value(list[1], id)[Number(list[0])] ?? ''];
    if (key === 'Fn::Split') return value(list[1], id).flatMap((part) => part.split(list[0]));
    if (key === 'Fn::Sub' && typeof args === 'string') {
      return [args.replace(/\$\{([\w:.]+)\}/g, (_, name: string) => value(subRef(name), id).join(','))];
    }
    if (key === 'Fn::GetStackOutput') return [`output ${(args as { OutputName: string }).OutputName}`];
    throw new CallsError(`${id}: cannot write out ${JSON.stringify(each).slice(0, 80)} to name what a call acts on`);
  };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the calls/ files' ARN template syntax, not JavaScript's
  const refOf = (id: string) => render(sourceOf(id).ref ?? '${Name}', id);
  const subRef = (name: string) => {
    const [resource, attr] = name.split('.');
    return attr ? { 'Fn::GetAtt': [resource, attr] } : { Ref: name };
  };
  const attribute = (id: string, name: string): string[] => {
    if (name === 'Arn') return arnOf(id).map(({ arn }) => arn);
    const template = sourceOf(id).attributes?.[name];
    if (template === undefined) throw new CallsError(`${id}: no value for its ${name} in ${sourceOf(id).file}`);
    return render(template, id);
  };

  /** The value at a property path (`Code.S3Key`, `UpdatePolicy.X.Y`), through lists and references. */
  const at = (id: string, path: string): unknown[] => {
    const resource = resources[id] as Resource;
    const [head, ...rest] = path.split('.');
    let current: unknown[] = head === 'UpdatePolicy' ? [resource.UpdatePolicy] : [resource.Properties?.[head ?? '']];
    for (const segment of rest) {
      current = current
        .flatMap((each) => (Array.isArray(each) ? each : [each]))
        .map((each) => {
          const ref = (each as { Ref?: string } | undefined)?.Ref;
          if (ref && resources[ref]) return resources[ref]?.Properties?.[segment];
          return (each as Record<string, unknown> | undefined)?.[segment];
        });
    }
    return current.filter((each) => each !== undefined);
  };
  const has = (id: string, path: string) => at(id, path).length > 0;

  const ids = new Map<string, { name: string; id: string }>();
  const physical = (id: string) => {
    const known = ids.get(id);
    if (known) return known;
    const { name } = sourceOf(id);
    const explicit = name && has(id, name) ? value(at(id, name)[0], id)[0] : undefined;
    const made = {
      name: explicit ?? `${where.stackName}-${id}-${hash(id, 12).toUpperCase()}`,
      id: hash(`id/${id}`, 10),
    };
    ids.set(id, made);
    return made;
  };

  /** An ARN template written out for a resource: `${Name}`, `${Id}`, an attribute or a property path. */
  const render = (template: string, id: string, extra: Record<string, string> = {}): string[] => {
    let results = [''];
    const parts = template.split(/(\$\{[\w.:]+\})/);
    for (const part of parts) {
      const name = /^\$\{(.+)\}$/.exec(part)?.[1];
      const values = name === undefined ? [part] : variable(name, id, extra);
      results = results.flatMap((prefix) => values.map((each) => prefix + each));
    }
    return results;
  };
  const variable = (name: string, id: string, extra: Record<string, string>): string[] => {
    const fixed: Record<string, string> = {
      Partition: where.partition,
      Region: where.region,
      Account: where.account,
      StackName: where.stackName,
      ...extra,
    };
    if (fixed[name] !== undefined) return [fixed[name]];
    if (name === 'Name') return [physical(id).name];
    if (name === 'Id') return [physical(id).id];
    if (name === 'Arn') return arnOf(id).map(({ arn }) => arn);
    const attribute = sourceOf(id).attributes?.[name];
    if (attribute !== undefined) return render(attribute, id);
    const found = at(id, name);
    if (found.length === 0)
      throw new CallsError(`${id}: no ${name} to name what a call acts on (${sourceOf(id).file})`);
    return found.flatMap((each) => value(each, id));
  };

  const tagsOf = (id: string): Record<string, string> => {
    const source = sourceOf(id);
    if (source.tags) {
      const raw = at(id, source.tags)[0];
      const pairs = Array.isArray(raw)
        ? (raw as { Key: string; Value: unknown }[]).map(({ Key, Value }) => [Key, Value] as const)
        : Object.entries((raw ?? {}) as Record<string, unknown>);
      const tags: Record<string, string> = {};
      for (const [key, each] of pairs) {
        const retagged = where.retag ? where.retag(key, String(each)) : String(each);
        if (retagged !== undefined) tags[key] = retagged;
      }
      return tags;
    }
    const parent = source.tagsFrom ?? source.on;
    return parent ? Object.assign({}, ...referenced(id, parent).map(tagsOf)) : {};
  };
  /** The logical ids a property refers to (Ref, Fn::GetAtt), one per list item. */
  const referenced = (id: string, path: string): string[] =>
    at(id, path)
      .flatMap((each) => (Array.isArray(each) ? each : [each]))
      .map((each) => (each as { Ref?: string }).Ref ?? (each as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt']?.[0])
      .filter((each): each is string => each !== undefined && resources[each] !== undefined);

  /** What a resource's calls act on: its own ARN, or (`on`) the resource a property names, with its tags and context. */
  const arnOf = (id: string): { arn: string; owner: string }[] => {
    const source = sourceOf(id);
    if (source.arn) return render(source.arn, id).map((arn) => ({ arn, owner: id }));
    if (!source.on) throw new CallsError(`${source.file}: neither "arn" nor "on"`);
    const owners = referenced(id, source.on);
    if (owners.length > 0) return owners.flatMap(arnOf);
    return value(at(id, source.on), id).map((arn) => ({ arn, owner: '' }));
  };
  const contextOf = (owner: string): Record<string, string> => {
    if (!owner) return {};
    const source = sourceOf(owner);
    const entries = Object.entries(source.context ?? {}).flatMap(([key, template]) =>
      has(owner, template.slice(2, -1)) ? [[key, render(template, owner)[0] ?? '']] : [],
    );
    return Object.fromEntries(entries);
  };
  return { resources, sourceOf, hash, value, at, has, render, tagsOf, referenced, arnOf, contextOf };
}
