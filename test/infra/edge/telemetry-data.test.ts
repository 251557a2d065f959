// Behind the edge (-c edge=true), every alarm and dashboard widget has data too: the function URL's
// metrics count in the HTTP API's place (test/helpers/telemetry-data.ts, with the edge's rows).

import { beforeAll, expect, it } from '@jest/globals';
import { AWS_METRICS } from '../../helpers/aws-metrics.ts';
import { type Synthesized, synth } from '../../helpers/cdk.ts';
import { expectEveryMetricPublished, REQUESTS } from '../../helpers/telemetry-data.ts';
import { EDGE_AWS_METRICS } from './aws-metrics.ts';

let edge: Synthesized;
beforeAll(async () => {
  edge = await synth({ edge: 'true' }, { env: { account: '123456789012', region: 'us-east-1' } });
});

it('every alarm and dashboard widget reads a metric that gets data, with the dimensions it is published under', () => {
  expect(edge.template.findResources('AWS::Lambda::Url')).not.toEqual({});
  expectEveryMetricPublished(edge, REQUESTS, [...AWS_METRICS, ...EDGE_AWS_METRICS]);
});
