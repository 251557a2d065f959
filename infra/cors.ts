// The cross-origin rule (-c corsOrigins), one for whichever front answers browsers' preflights.

import { Duration } from 'aws-cdk-lib';

/**
 * What browsers may do across origins (-c corsOrigins), whichever front answers the preflight: send
 * a bearer token and read the Link header, where pagination is; the answer is cached for an hour.
 */
export const CORS_RULE = { allowHeaders: ['authorization'], exposeHeaders: ['link'], maxAge: Duration.hours(1) };
