// How callers reach the function (the HTTP API, or an option's front): its metrics, variables and outputs.

import type { Duration } from 'aws-cdk-lib';
import type { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { functionEnvironment } from '../handlers/lib/environment.ts';
import { customDomainBaseUrl, type PlantsApi } from './api.ts';
import type { CustomDomain } from './custom-domain.ts';

/** The requests as the front counts them (monitoring.ts's alarm and dashboard). */
export interface RequestMetrics {
  /** Who counted them, for the dashboard's labels: `API Gateway`. */
  source: string;
  count(period: Duration): Metric;
  clientErrors(period: Duration): Metric;
  serverErrors(period: Duration): Metric;
  latency(statistic: string, period: Duration): Metric;
}

/** A CloudFormation output: skipped when its value is undefined. */
export interface FrontOutput {
  id: string;
  description: string;
  value: string | undefined;
}

export interface Front {
  requests: RequestMetrics;
  /** Variables the function needs behind this front (function-environment names only). */
  environment: Record<string, string>;
  /** Where clients call (ApiUrl, CustomDomainUrl: deployed/outputs.ts reads them) and DNS targets. */
  outputs: FrontOutput[];
  /** The front's own alarms in this stack, mailed with the stack's (monitoring.ts). */
  alarms?: Alarm[];
}

/** The HTTP API (api.ts) as a front: its stage's URL, its custom domain, API Gateway's metrics. */
export function httpApiFront({ api, stage, domain }: PlantsApi, customDomain: CustomDomain | undefined): Front {
  return {
    requests: {
      source: 'API Gateway',
      count: (period) => api.metricCount({ period, statistic: 'Sum' }),
      clientErrors: (period) => api.metricClientError({ period }),
      serverErrors: (period) => api.metricServerError({ period }),
      latency: (statistic, period) => api.metricLatency({ statistic, period }),
    },
    // Next links name the custom domain (with its mapping key, which requests don't carry), else
    // the execute-api URL a request came on (public-url.ts); a proxy's URL wins over both (the stack).
    environment: functionEnvironment({ publicBaseUrl: customDomain && customDomainBaseUrl(customDomain) }),
    outputs: [
      { id: 'ApiUrl', description: 'Base URL; GET <ApiUrl>plants', value: stage.url },
      {
        id: 'CustomDomainUrl',
        description: 'Base URL on the custom domain; GET <CustomDomainUrl>plants',
        value: domain?.url,
      },
      {
        id: 'DomainTarget',
        description: 'DNS: CNAME (or Route 53 alias) target for the custom domain',
        value: domain?.name.regionalDomainName,
      },
      {
        id: 'DomainHostedZoneId',
        description: 'DNS: hosted zone id for a Route 53 alias record',
        value: domain?.name.regionalHostedZoneId,
      },
    ],
  };
}
