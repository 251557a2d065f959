// Every alarm a synth makes, in each stack of the app (the service's and any beside it): what it
// watches, checked against AWS's documented metrics (aws-metrics.ts) and the resources of its own
// template; whom it tells; and the name docs/operations.md gives it. Read by test/infra/alarms.test.ts
// and each option's own alarm tests.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { DimensionValue, DocumentedMetrics } from './aws-metrics.ts';
import type { Synthesized } from './cdk.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, read by path
type Json = any;
type Resources = Record<string, { Type: string; Properties?: Json }>;
type MetricStat = { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: Json }[] };

export interface FoundAlarm {
  stack: string;
  /** The alarm's construct id, the name docs/operations.md knows it by (HotPartition). */
  name: string;
  logicalId: string;
  metrics: MetricStat[];
  /** Its alarm, OK and insufficient-data actions. */
  actions: Json[];
  /** Named by a CodeDeploy deployment group of its stack: firing stops and rolls back a deploy. */
  rollsBack: boolean;
  resources: Resources;
}

const ACTIONS = ['AlarmActions', 'OKActions', 'InsufficientDataActions'];

/** The stacks of a synth: their names, resources, and each resource's construct path. */
function stacksOf(s: Synthesized) {
  return [s.templatePath, ...Object.values(s.beside).map(({ templatePath }) => templatePath)].map((path) => {
    const metadata = JSON.parse(readFileSync(path.replace(/\.template\.json$/, '.metadata.json'), 'utf8'));
    const pathOf = new Map<string, string>(
      Object.entries(metadata as Record<string, { type: string; data: unknown }[]>).flatMap(
        ([constructPath, entries]) =>
          entries.filter(({ type }) => type === 'aws:cdk:logicalId').map(({ data }) => [String(data), constructPath]),
      ),
    );
    const resources = JSON.parse(readFileSync(path, 'utf8')).Resources as Resources;
    return { stack: basename(path, '.template.json'), resources, pathOf };
  });
}

export function alarmsOf(s: Synthesized): FoundAlarm[] {
  return stacksOf(s).flatMap(({ stack, resources, pathOf }) => {
    const rollback = JSON.stringify(
      Object.values(resources)
        .filter(({ Type }) => Type === 'AWS::CodeDeploy::DeploymentGroup')
        .map(({ Properties }) => Properties.AlarmConfiguration),
    );
    return Object.entries(resources)
      .filter(([, { Type }]) => Type === 'AWS::CloudWatch::Alarm' || Type === 'AWS::CloudWatch::CompositeAlarm')
      .map(([logicalId, { Type, Properties: p }]) => {
        if (Type !== 'AWS::CloudWatch::Alarm') throw new Error(`${stack}/${logicalId}: a composite alarm, not checked`);
        const metrics: MetricStat[] = p.MetricName
          ? [{ Namespace: p.Namespace, MetricName: p.MetricName, Dimensions: p.Dimensions }]
          : p.Metrics.flatMap((m: Json) => (m.MetricStat ? [m.MetricStat.Metric] : []));
        // `/PlantStore/Monitoring/HotPartition/Resource` names the alarm HotPartition.
        const name = (pathOf.get(logicalId) ?? '').split('/').at(-2) ?? logicalId;
        const actions = ACTIONS.flatMap((key) => p[key] ?? []);
        return { stack, name, logicalId, metrics, actions, rollsBack: rollback.includes(`"${logicalId}"`), resources };
      });
  });
}

/** Why each AWS metric an alarm reads is not one AWS documents, under dimensions that name its stack's resources. */
export function undocumentedMetrics(alarms: FoundAlarm[], table: readonly DocumentedMetrics[]): string[] {
  return alarms.flatMap((alarm) =>
    alarm.metrics
      .filter(({ Namespace }) => Namespace.startsWith('AWS/'))
      .flatMap(({ Namespace, MetricName, Dimensions = [] }) => {
        const where = `${alarm.stack} ${alarm.name}: ${Namespace} ${MetricName}`;
        const rows = table.filter((row) => row.namespace === Namespace && row.metrics.includes(MetricName));
        if (rows.length === 0) return [`${where} is in no documented row`];
        const keys = Dimensions.map(({ Name }) => Name).sort();
        const row = rows.find(({ dimensionSets }) =>
          dimensionSets.some((set) => [...set].sort().join() === keys.join()),
        );
        if (!row) return [`${where}: dimensions ${keys.join(', ')} are not a set AWS documents`];
        return Dimensions.filter(({ Name, Value }) => !resolves(row.values[Name], Value, alarm.resources)).map(
          ({ Name, Value }) => `${where}: ${Name}=${JSON.stringify(Value)} is not ${JSON.stringify(row.values[Name])}`,
        );
      }),
  );
}

/** Does `value` name what `expected` says, in `resources` (the alarm's template)? */
function resolves(expected: DimensionValue | undefined, value: Json, resources: Resources): boolean {
  if (expected === undefined) return false;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  const typeOf = (id: unknown) => (typeof id === 'string' ? resources[id]?.Type : undefined);
  if ('literal' in expected) return expected.literal.includes(value);
  if ('anyOf' in expected) return expected.anyOf.some((each) => resolves(each, value, resources));
  if ('ref' in expected) return typeOf(value?.Ref) === expected.ref;
  if ('getAtt' in expected) {
    const [id, attribute] = value?.['Fn::GetAtt'] ?? [];
    return typeOf(id) === expected.getAtt[0] && attribute === expected.getAtt[1];
  }
  if ('property' in expected) {
    const [type, path] = expected.property;
    return ofType(type).some(([, { Properties }]) => propertyValues(Properties, path.split('.')).includes(value));
  }
  // `<function name>:<alias name>`, as CloudFormation joins a Ref to the function and the alias's name.
  const [separator, [fn, suffix] = []] = value?.['Fn::Join'] ?? [];
  return (
    separator === '' &&
    typeOf(fn?.Ref) === expected.aliasOf &&
    ofType('AWS::Lambda::Alias').some(
      ([, { Properties }]) => Properties.FunctionName?.Ref === fn.Ref && suffix === `:${Properties.Name}`,
    )
  );
}

/** The values at `path` (`Rules[]` walks a list). */
function propertyValues(node: Json, path: string[]): unknown[] {
  const [step, ...rest] = path;
  if (step === undefined) return [node];
  const list = step.endsWith('[]');
  const next = node?.[list ? step.slice(0, -2) : step];
  return (list ? (Array.isArray(next) ? next : []) : [next]).flatMap((each: Json) => propertyValues(each, rest));
}

/** Each action that is not a topic of the alarm's own stack, whose Region an alarm's actions must be in. */
export function actionsOutsideOwnStack(alarms: FoundAlarm[]): string[] {
  return alarms.flatMap(({ stack, name, actions, resources }) =>
    actions
      .filter((action) => resources[action?.Ref]?.Type !== 'AWS::SNS::Topic')
      .map((action) => `${stack} ${name}: ${JSON.stringify(action)}`),
  );
}

/** The alarms docs/operations.md has a "When <alarm> fires" section for (a heading may name several). */
/** The alarms `page` (docs/operations.md, or an option's own) has a `When … fires` section for. */
export function alarmsWithSections(path = 'docs/operations.md'): Set<string> {
  const page = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const headings = [...page.matchAll(/^#{2,4} When (.+) fires$/gm)].map(([, names]) => names ?? '');
  return new Set(headings.flatMap((names) => names.split(/, | or /)));
}
