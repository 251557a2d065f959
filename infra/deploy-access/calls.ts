// What CloudFormation calls, with a stack's execution role, to create, update and delete a synthesized
// template's resources: each call's IAM action, the resource it acts on and the context IAM sees (request and
// resource tags, a role's boundary), from the cited sources in `calls/` (call-sources.ts). The tests evaluate
// this list with an IAM evaluator; `npm run preflight` asks the account's own.

import { CallsError, callSources, type Target, type TypeSource } from './call-sources.ts';
import { type Resource, type TemplateJson, templateReader, type Where } from './template-reader.ts';

export type { TemplateJson, Where };

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
  const { intrinsics } = callSources();
  const { resources, sourceOf, hash, has, render, tagsOf, referenced, arnOf, contextOf } = templateReader(
    template,
    where,
  );
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
