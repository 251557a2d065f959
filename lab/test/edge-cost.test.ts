// The edge's price (lab/cost/options/edge.ts): WAF bills each request it evaluates, blocked ones included,
// CloudFront none it blocks; in the HTTP API's place, no API Gateway line.

import { expect, it } from '@jest/globals';
import { ceilingFor } from '../../infra/ceiling.ts';
import { cost } from '../cost/options/edge.ts';
import { worstHour } from '../cost/worst-hour.ts';
import { hourInputs } from './helpers/hour-inputs.ts';

const inputs = hourInputs(700);
const measured = {
  perMillionUsd: { apiGateway: 1, dataTransferOut: 0.42 },
  responseBytesPerRequest: 4700,
  logBytesPerRequest: { apiAccessLog: 300 },
};
const fixed = { webAcls: 1, rules: 6, alarms: 1, usd: 11.1 };

it('prices the edge: WAF bills each request it evaluates, blocked ones included, CloudFront none it blocks', () => {
  const hour = worstHour(inputs, ceilingFor(100));
  const { section } = cost.bill(measured, fixed, hour, inputs);
  expect(section.worstHour.blockedPerThousandUsd).toBeCloseTo(3.6 * 0.6, 4);
  // CloudFront's default 250,000 requests a second per distribution, less the 100 admitted.
  expect(section.worstHour.atCloudFrontQuota).toBeCloseTo(section.worstHour.admittedUsd.total + 249.9 * 2.16, 1);
  expect(section.worstHour.admittedUsd).not.toHaveProperty('apiGateway');
});
