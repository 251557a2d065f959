// Every alarm each template of the app can contain (an option's: its own tests) watches a
// metric AWS documents, under dimensions naming this stack's resources, reaches someone when
// alarmEmail is set, and has its section in docs/operations.md.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { alarmNotifications } from '../../infra/alarm-mail.ts';
import {
  actionsOutsideOwnStack,
  alarmsOf,
  alarmsWithSections,
  type FoundAlarm,
  undocumentedMetrics,
} from '../helpers/alarms.ts';
import { AWS_METRICS } from '../helpers/aws-metrics.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { expectEveryMetricPublished, metricsRead } from '../helpers/telemetry-data.ts';

const EMAIL = 'oncall@example.com';
/** Each context that adds or changes an alarm, a resource an alarm names, or whom alarms tell. */
const TEMPLATES = {
  default: {},
  dev: { env: 'dev', dev: 'true' },
  jwtAuthorizer: { jwtAuthorizer: 'true' },
  machineClient: { authRequiredScope: 'plants/read' },
  mailedMachineClient: { authRequiredScope: 'plants/read', alarmEmail: EMAIL },
  customDomain: {
    domainName: 'api.example.com',
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab',
    requestLog: 'all',
  },
} satisfies Record<string, Record<string, string>>;
type Name = keyof typeof TEMPLATES;

const synths = {} as Record<Name, Synthesized>;
beforeAll(async () => {
  await Promise.all(
    Object.entries(TEMPLATES).map(async ([name, context]) => {
      synths[name as Name] = await synth(context);
    }),
  );
});
const each = () => Object.entries(synths) as [Name, Synthesized][];

describe('every alarm of every template', () => {
  it('watches a metric AWS documents, under a documented dimension set whose values name this stack’s resources', () => {
    for (const [name, s] of each()) {
      expect(alarmsOf(s).length).toBeGreaterThan(0);
      expect([name, undocumentedMetrics(alarmsOf(s), AWS_METRICS)]).toEqual([name, []]);
      // The function's own metrics (and the dashboard's): published by its records under these dimensions.
      expectEveryMetricPublished(s);
    }
  });

  it('tells only topics of its own stack, whose Region an alarm’s actions must be in', () => {
    for (const [name, s] of each()) expect([name, actionsOutsideOwnStack(alarmsOf(s))]).toEqual([name, []]);
  });

  it('reaches someone with alarmEmail: mailed, or rolling a deploy back; without it, none mails anyone', () => {
    for (const [name, s] of each()) {
      const mailed = 'alarmEmail' in TEMPLATES[name];
      const silent = (alarm: FoundAlarm) => alarm.actions.length === 0 && !(mailed && alarm.rollsBack);
      expect([
        name,
        alarmsOf(s)
          .filter(silent)
          .map((alarm) => alarm.name),
      ]).toEqual([name, mailed ? [] : alarmsOf(s).map((alarm) => alarm.name)]);
      const output = s.template.findOutputs('AlarmNotifications').AlarmNotifications?.Value;
      expect([name, output]).toEqual([name, alarmNotifications(mailed ? EMAIL : undefined)]);
    }
    expect(alarmNotifications(undefined)).toMatch(/^none: no alarm notifies anyone: deploy with -c alarmEmail=\S+@/);
  });

  it('has a section in docs/operations.md saying what it means and what to do', () => {
    const sections = alarmsWithSections();
    const names = new Set(each().flatMap(([, s]) => alarmsOf(s).map((alarm) => alarm.name)));
    expect([...names].filter((name) => !sections.has(name))).toEqual([]);
  });
});

describe('the documented-metrics table', () => {
  it('has no row none of these templates reads (an option’s rows are checked with the option)', () => {
    const read = each().flatMap(([, s]) => metricsRead(s));
    const unread = AWS_METRICS.flatMap(({ namespace, metrics }) =>
      metrics.filter((metric) => !read.some((m) => m.namespace === namespace && m.name === metric)),
    );
    expect(unread).toEqual([]);
  });

  it('refuses a dimension AWS does not document, and a value naming no resource of the stack', () => {
    const [machineTokens] = alarmsOf(synths.machineClient).filter((alarm) => alarm.name === 'MachineTokens');
    const [hot] = alarmsOf(synths.default).filter((alarm) => alarm.name === 'HotPartition');
    if (!machineTokens || !hot) throw new Error('MachineTokens and HotPartition are both expected');
    // The Class dimension Cognito's page says it doesn't use; a table named, not referenced.
    const withClass = {
      ...machineTokens,
      metrics: machineTokens.metrics.map((m) => ({
        ...m,
        Dimensions: [...(m.Dimensions ?? []), { Name: 'Class', Value: 'None' }],
      })),
    };
    const named = {
      ...hot,
      metrics: hot.metrics.map((m) => ({ ...m, Dimensions: [{ Name: 'TableName', Value: 'PlantsTable' }] })),
    };
    expect(undocumentedMetrics([withClass, named], AWS_METRICS)).toEqual([
      'PlantStore MachineTokens: AWS/Usage CallCount: dimensions Class, Resource, Service, Type are not a set AWS documents',
      expect.stringMatching(/^PlantStore HotPartition: .*TableName="PlantsTable" is not/),
    ]);
  });
});
