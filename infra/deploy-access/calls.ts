// What CloudFormation calls, with a stack's execution role, to create, update and delete a synthesized
// template's resources: each call's IAM action, the resource it acts on and the context IAM sees (request and
// resource tags, a role's boundary), from the cited sources in `calls/` (call-sources.ts). The tests evaluate
// this list with an IAM evaluator; `npm run preflight` asks the account's own.

import { createHash } from 'node:crypto';
import { CallsError, callSources, type Target, type TypeSource } from './call-sources.ts';

export type Phase = 'create' | 'update' | 'delete';

export interface Call {
  /** The resource's logical id and type, or the intrinsic function's name. */
  logicalId: string;
  type: string;
  phase: Phase;
  action: string;
  resource: string;
  context: Record<string, string>;
  /** The file that says so. */
  file: string;
}

/** Where the template deploys; `retag` rewrites its tags (another environment's), `seed` the ids AWS picks. */
export interface Where {
  stackName: string;
  region: string;
  account: string;
  partition: string;
  seed?: string;
  retag?: (key: string, value: string) => string | undefined;
}

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  [attribute: string]: unknown;
}
export interface TemplateJson {
  Resources: Record<string, Resource>;
  [section: string]: unknown;
}

/** Intrinsic functions CloudFormation evaluates without calling a service. */
const NO_CALLS = new Set([
  'Ref',
  'Fn::GetAtt',
  'Fn::Join',
  'Fn::Sub',
  'Fn::Select',
  'Fn::Split',
  'Fn::If',
  'Fn::Equals',
]);
NO_CALLS.add('Fn::Not').add('Fn::And').add('Fn::Or').add('Fn::Contains').add('Fn::FindInMap').add('Fn::Base64');
/** Resource attributes that make no call of their own; any other needs a source (UpdatePolicy: CodeDeploy's). */
const QUIET_ATTRIBUTES = new Set([
  'Type',
  'Properties',
  'DependsOn',
  'Metadata',
  'DeletionPolicy',
  'UpdateReplacePolicy',
]);
const PHASES: Phase[] = ['create', 'update', 'delete'];

/** Every call the template's resources and intrinsic functions make; a type, property or function without a source throws. */
export function callsOf(template: TemplateJson, where: Where): Call[] {
  const { types, intrinsics } = callSources();
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
  const resourceTags = (tags: Record<string, string>) =>
    Object.fromEntries(Object.entries(tags).map(([key, each]) => [`aws:ResourceTag/${key}`, each]));
  const requestTags = (tags: Record<string, string>) =>
    Object.fromEntries(Object.entries(tags).map(([key, each]) => [`aws:RequestTag/${key}`, each]));

  const calls: Call[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    const source = sourceOf(id);
    checkKnown(id, resource, source);
    const present = (path: string) => has(id, path);
    const gated = new Map<string, boolean>();
    for (const [path, actions] of Object.entries(source.properties)) {
      for (const action of actions) gated.set(action, (gated.get(action) ?? false) || present(path));
    }
    for (const [path, actions] of Object.entries(source.without ?? {})) {
      for (const action of actions) gated.set(action, (gated.get(action) ?? false) || !present(path));
    }
    const added = Object.entries(source.adds ?? {}).flatMap(([path, { calls }]) =>
      path === '*' || present(path) ? calls : [],
    );
    const own = tagsOf(id);
    for (const phase of PHASES) {
      const actions = source[phase]
        .filter((action) => !source.notActions?.includes(action) && gated.get(action) !== false)
        .concat(added);
      for (const action of new Set(actions)) {
        const creating = phase === 'create' && source.createdBy.includes(action);
        for (const { resource: arn, context } of targetsOf(id, source, action, creating)) {
          const tagging = creating || /:Tag[A-Z]/.test(action);
          calls.push({
            logicalId: id,
            type: resource.Type,
            phase,
            action,
            resource: arn,
            context: { ...context, ...(tagging && requestTags(own)) },
            file: source.file,
          });
        }
      }
    }
  }

  /** Where one action of a resource acts, with the context IAM sees there (one entry per ARN a list names). */
  function targetsOf(id: string, source: TypeSource, action: string, creating: boolean) {
    const target: Target | undefined = source.targets?.[action];
    if (target === '*') return [{ resource: '*', context: {} }];
    if (target?.arn || target?.context) {
      const arns = target.arn ? render(target.arn, id) : arnOf(id).map(({ arn }) => arn);
      const contexts = expand(target.context ?? {}, id);
      // An ARN a property names carries the tags of the resource it refers to (the function of an alias's ARN).
      const owners = target.arn ? variablesIn(target.arn).flatMap((path) => referenced(id, path)) : [id];
      const tags = resourceTags(Object.assign({}, ...owners.map(tagsOf)));
      return arns.flatMap((resource) => contexts.map((context) => ({ resource, context: { ...tags, ...context } })));
    }
    if (creating) {
      const parent = source.tagsFrom ? resourceTags(tagsOf(id)) : {};
      const arns = source.collection ? render(source.collection, id) : arnOf(id).map(({ arn }) => arn);
      return arns.map((resource) => ({ resource, context: { ...parent, ...contextOf(id) } }));
    }
    const owners = arnOf(id);
    const service = (arn: string) => arn.split(':')[2];
    if (owners.some(({ arn }) => service(arn) !== action.split(':')[0])) {
      throw new CallsError(
        `${source.type} (${id}): ${action} acts on another service's resource: say which in "targets" of ${source.file}`,
      );
    }
    return owners.map(({ arn, owner }) => ({
      resource: arn,
      context: { ...(owner && resourceTags(tagsOf(owner))), ...contextOf(owner) },
    }));
  }
  function expand(context: Record<string, string>, id: string): Record<string, string>[] {
    let results: Record<string, string>[] = [{}];
    for (const [key, template] of Object.entries(context)) {
      const path = /^\$\{(.+)\}$/.exec(template)?.[1];
      if (path && !['Partition', 'Region', 'Account'].includes(path) && !has(id, path)) continue;
      const values = render(template, id);
      results = results.flatMap((each) => values.map((one) => ({ ...each, [key]: one })));
    }
    return results;
  }

  for (const { name, args } of intrinsicsIn(template)) {
    if (NO_CALLS.has(name)) continue;
    const source = intrinsics.get(name);
    if (!source) throw new CallsError(`${name}: no calls/ file says what CloudFormation calls for it`);
    const { StackName, Region } = args as { StackName: string; Region?: string };
    const extra = { StackName, Region: Region ?? where.region, Id: hash(`stack/${StackName}`, 8) };
    for (const action of source.calls) {
      const target = source.targets[action];
      const arn = target === '*' || !target?.arn ? '*' : target.arn;
      for (const resource of arn === '*' ? ['*'] : render(arn, '', extra)) {
        calls.push({ logicalId: name, type: name, phase: 'create', action, resource, context: {}, file: source.file });
      }
    }
  }
  return calls;
}

/** Every property and resource attribute the template sets must be in its source: unknown ones may call more. */
function checkKnown(id: string, resource: Resource, source: TypeSource) {
  const known = Object.keys(source.properties).map((path) => path.split('.')[0]);
  for (const property of Object.keys(resource.Properties ?? {})) {
    if (!known.includes(property) && !source.adds?.[property]) {
      throw new CallsError(
        `${source.type} (${id}): property ${property} has no source for what it calls: add it to "properties" of ${source.file} ([] if it calls nothing more)`,
      );
    }
  }
  for (const attribute of Object.keys(resource)) {
    if (
      !QUIET_ATTRIBUTES.has(attribute) &&
      !Object.keys(source.properties).some((path) => path.startsWith(`${attribute}.`))
    ) {
      throw new CallsError(
        `${source.type} (${id}): attribute ${attribute} has no source for what it calls (${source.file})`,
      );
    }
  }
}

/** The `${…}` variables of an ARN template. */
const variablesIn = (template: string) => [...template.matchAll(/\$\{([\w.:]+)\}/g)].map(([, name]) => name ?? '');

/** Each intrinsic function used anywhere in the template, with its arguments. */
function intrinsicsIn(template: unknown): { name: string; args: unknown }[] {
  if (Array.isArray(template)) return template.flatMap(intrinsicsIn);
  if (template === null || typeof template !== 'object') return [];
  return Object.entries(template).flatMap(([key, each]) => [
    ...(key === 'Ref' || key.startsWith('Fn::') ? [{ name: key, args: each }] : []),
    ...intrinsicsIn(each),
  ]);
}
