// Every alarm and dashboard widget of the default stack has data (test/helpers/telemetry-data.ts says
// what that takes; each option checks its own stack in its folder). And refused or failed requests are
// still logged, with their reason.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { isRecorded, requestRecord } from '../../handlers/lib/request-record.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { deployedTelemetry, expectEveryMetricPublished, LIST } from '../helpers/telemetry-data.ts';

let plain: Synthesized;
beforeAll(async () => {
  plain = await synth();
});

describe('under the default settings', () => {
  it('every alarm and dashboard widget reads a metric that gets data, with the dimensions it is published under', () => {
    expectEveryMetricPublished(plain);
  });
});

describe('under the default settings', () => {
  it('logs every refused or failed request, with the reason a token was refused', () => {
    const telemetry = deployedTelemetry(plain);
    expect(telemetry.requestLog).toBe('failures');
    for (const status of [400, 401, 403, 404, 500, 503]) expect(isRecorded(status, telemetry)).toBe(true);
    expect(isRecorded(200, telemetry)).toBe(false);
    const refused = requestRecord(
      {
        operation: LIST,
        status: 401,
        outcome: 'unauthorized',
        reason: 'expired',
        latencyMs: 1,
        coldStart: false,
        functionRequestId: 'f',
        apigwRequestId: 'a',
      },
      telemetry,
    );
    expect(refused).toMatchObject({ message: 'request', status: 401, outcome: 'unauthorized', reason: 'expired' });
  });
});
