// The bill ceiling in the synthesized template: the stage throttle, the function's concurrency and
// the table's maximum on-demand throughput all follow from -c maxRequestsPerSecond, and agree (the
// bytes an hour can send at that rate are the lab's: lab/test/bill.test.ts).

import { beforeAll, describe, expect, it } from '@jest/globals';
import { type Synthesized, synth } from '../helpers/cdk.ts';

type Properties = Record<string, unknown>;
const only = (s: Synthesized, type: string): Properties => {
  const found = Object.values(s.template.findResources(type)) as { Properties: Properties }[];
  expect(found).toHaveLength(1);
  return found[0]?.Properties ?? {};
};
const functionOf = (s: Synthesized): Properties => {
  const found = Object.values(s.template.findResources('AWS::Lambda::Function')) as { Properties: Properties }[];
  const fn = found.find((f) => String(f.Properties.Description).startsWith('GET /plants'));
  return fn?.Properties ?? {};
};

let plain: Synthesized;
let capped: Synthesized;
beforeAll(async () => {
  plain = await synth();
  capped = await synth({
    maxRequestsPerSecond: '400',
    reserveConcurrency: 'true',
    alarmEmail: 'oncall@example.com',
  });
});

describe('one setting, every limit', () => {
  it('by default caps the stage at the 100 requests/s the cost model prices, and the table at 20 read units each', () => {
    expect(only(plain, 'AWS::ApiGatewayV2::Stage').DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 100,
      ThrottlingBurstLimit: 25,
    });
    expect(only(plain, 'AWS::DynamoDB::Table').OnDemandThroughput).toEqual({
      MaxReadRequestUnits: 2000,
      MaxWriteRequestUnits: 1000,
    });
  });

  it('reserves no concurrency by default: new accounts may have none to spare', () => {
    expect(functionOf(plain).ReservedConcurrentExecutions).toBeUndefined();
  });

  it('derives throttle, reserved concurrency and table maximum from maxRequestsPerSecond alike', () => {
    // Prepare
    const stage = only(capped, 'AWS::ApiGatewayV2::Stage').DefaultRouteSettings as Record<string, number>;
    const table = only(capped, 'AWS::DynamoDB::Table').OnDemandThroughput as Record<string, number>;
    const concurrency = functionOf(capped).ReservedConcurrentExecutions;

    // Assess: the gateway's steady rate is the ceiling, its burst the environments that may run at
    // once, and the table can serve every admitted request a full page.
    expect(stage.ThrottlingRateLimit).toBe(400);
    expect(concurrency).toBe(100);
    expect(stage.ThrottlingBurstLimit).toBe(concurrency);
    expect(table.MaxReadRequestUnits).toBe(400 * 20);
    expect(table.MaxWriteRequestUnits).toBe(400 * 10);
  });

  it('puts the user pool on the Lite feature plan', () => {
    expect(only(plain, 'AWS::Cognito::UserPool').UserPoolTier).toBe('LITE');
  });
});
