// Stand-in for the Powertools packages in the "without Powertools" bench variants: the same
// names, doing nothing, so the variant measures what the library itself costs.
export class Logger {
  info() {}
  error() {}
  appendKeys() {}
  resetKeys() {}
  addContext() {}
}
export class Metrics {
  addMetric() {}
  addDimension() {}
  singleMetric() {
    return this;
  }
  publishStoredMetrics() {}
  captureColdStartMetric() {}
}
export const MetricUnit = { Count: 'Count' };
export class Tracer {
  captureAWSv3Client(client) {
    return client;
  }
}
// Middy refuses a middleware without before/after/onError.
const noop = () => ({ before() {} });
export const injectLambdaContext = noop;
export const logMetrics = noop;
export const captureLambdaHandler = noop;
