// The bill ceiling in the synthesized template: the stage throttle, the function's concurrency and
// the table's maximum on-demand throughput all follow from -c maxRequestsPerSecond, and agree (the
// bytes an hour can send at that rate are the lab's: lab/test/bill.test.ts).

import { beforeAll, describe, expect, it } from '@jest/globals';
import { readConfig } from '../../handlers/lib/config.ts';
import { MAX_QUERIES_PER_PAGE } from '../../handlers/lib/plants.ts';
import { LARGEST_PAGE, READ_UNITS_PER_REQUEST, readCeiling, TABLE_READ_UNITS_QUOTA } from '../../infra/ceiling.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { onlyOf, resourcesOf } from '../helpers/template.ts';

type Properties = Record<string, unknown>;
const only = (s: Synthesized, type: string): Properties => onlyOf(s, type).Properties;
const functionOf = (s: Synthesized): Properties => {
  const found = resourcesOf(s, 'AWS::Lambda::Function');
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
  it('by default caps the stage at the 100 requests/s the cost model prices, and the table at the largest page each', () => {
    expect(only(plain, 'AWS::ApiGatewayV2::Stage').DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 100,
      ThrottlingBurstLimit: 25,
    });
    expect(only(plain, 'AWS::DynamoDB::Table').OnDemandThroughput).toEqual({
      MaxReadRequestUnits: Math.ceil(100 * READ_UNITS_PER_REQUEST),
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
    expect(table.MaxReadRequestUnits).toBe(Math.ceil(400 * READ_UNITS_PER_REQUEST));
    expect(table.MaxWriteRequestUnits).toBe(400 * 10);
  });

  it("refuses, saying why and what to do, a ceiling whose table maximum is past the table's default quota", () => {
    const most = Math.floor(TABLE_READ_UNITS_QUOTA / READ_UNITS_PER_REQUEST);
    const context = (rps: number) => (key: string) => (key === 'maxRequestsPerSecond' ? String(rps) : undefined);
    expect(readCeiling(context(most)).maxReadRequestUnits).toBeLessThanOrEqual(TABLE_READ_UNITS_QUOTA);
    expect(() => readCeiling(context(most + 1))).toThrow(
      new RegExp(
        `past DynamoDB's default quota of ${TABLE_READ_UNITS_QUOTA} per table: deploy at most ${most}, or raise the quota in Service Quotas`,
      ),
    );
  });

  it('budgets the page the function reads: its default page size and its Queries per page', () => {
    const config = readConfig({ PLANTS_TABLE_NAME: 't', AUTH_ISSUER: 'https://i.example.com', AUTH_AUDIENCE: 'a' });
    expect(LARGEST_PAGE.plants).toBe(config.maxPageSize);
    expect(LARGEST_PAGE.queries).toBe(MAX_QUERIES_PER_PAGE);
  });

  it('puts the user pool on the Lite feature plan', () => {
    expect(only(plain, 'AWS::Cognito::UserPool').UserPoolTier).toBe('LITE');
  });
});
