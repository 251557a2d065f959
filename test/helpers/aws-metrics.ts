// The CloudWatch metrics AWS documents for what the stack's alarms and dashboard read: each metric's
// namespace and name, the dimension sets AWS publishes it under, what each dimension's value names, and
// the page that says so (read 2026-11-29 through stored copies of the pages; a `note` says where a page
// is silent or ambiguous). An option's rows: its own tests. The function's own metrics
// (namespace PlantStore) are ours: handlers/lib/telemetry-names.ts names them and the records carry
// them, which telemetry-data.ts checks by running the record writer.

/**
 * What a dimension's value must be in the alarm's own template: a `Ref` to a resource of a type, an
 * attribute of one, a property of one (`[]` walks a list), the `<function>:<alias>` an alias of the
 * function is named, or one of the values the page lists.
 */
export type DimensionValue =
  | { ref: string }
  | { getAtt: [type: string, attribute: string] }
  | { property: [type: string, path: string] }
  | { aliasOf: string }
  | { literal: readonly string[] }
  | { anyOf: readonly DimensionValue[] };

export interface DocumentedMetrics {
  namespace: string;
  metrics: readonly string[];
  /** Each set of dimensions AWS publishes these metrics under (an alarm names exactly one). */
  dimensionSets: readonly (readonly string[])[];
  values: Record<string, DimensionValue>;
  source: { page: string; url: string; read: string; note?: string };
}

const READ = '2026-11-29';

/** The dimensions of AWS/Lambda's per-function metrics (by function, by version or alias, by version run). */
export const LAMBDA_FUNCTION_DIMENSIONS: Pick<DocumentedMetrics, 'dimensionSets' | 'values'> = {
  dimensionSets: [['FunctionName'], ['FunctionName', 'Resource'], ['FunctionName', 'Resource', 'ExecutedVersion']],
  values: {
    FunctionName: { ref: 'AWS::Lambda::Function' },
    // "Resource: a version or alias of a function"; ExecutedVersion: the version an alias ran.
    Resource: { aliasOf: 'AWS::Lambda::Function' },
    ExecutedVersion: { getAtt: ['AWS::Lambda::Version', 'Version'] },
  },
};

export const AWS_METRICS: readonly DocumentedMetrics[] = [
  {
    namespace: 'AWS/Lambda',
    metrics: ['Invocations', 'Errors', 'Throttles', 'Duration'],
    ...LAMBDA_FUNCTION_DIMENSIONS,
    source: {
      page: 'Lambda Developer Guide, "Using CloudWatch metrics with Lambda" and "Types of metrics for Lambda functions"',
      url: 'https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics.html',
      read: READ,
      note:
        'The guide names the three dimensions (by function name; by resource, a version or alias; by executed ' +
        'version, an alias with the version it ran) but not their combinations: these sets are the console groupings ' +
        'it describes, which aws-cdk-lib’s generated LambdaMetrics also lists.',
    },
  },
  {
    namespace: 'AWS/ApiGateway',
    metrics: ['Count', '4xx', '5xx', 'Latency'],
    dimensionSets: [['ApiId'], ['ApiId', 'Stage'], ['ApiId', 'Method', 'Resource', 'Stage']],
    values: {
      ApiId: { ref: 'AWS::ApiGatewayV2::Api' },
      Stage: { property: ['AWS::ApiGatewayV2::Stage', 'StageName'] },
    },
    source: {
      page: 'API Gateway Developer Guide, "Monitor CloudWatch metrics for HTTP APIs in API Gateway"',
      url: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-metrics.html',
      read: READ,
      note: 'The route-level set (ApiId, Method, Resource, Stage) only with detailed metrics, which the stack leaves off.',
    },
  },
  {
    namespace: 'AWS/DynamoDB',
    metrics: ['ThrottledRequests'],
    dimensionSets: [['TableName', 'Operation']],
    values: {
      TableName: { ref: 'AWS::DynamoDB::Table' },
      // The page's list of the Operation dimension's values (GetRecords, a Streams operation, aside).
      Operation: {
        literal: [
          'PutItem',
          'DeleteItem',
          'UpdateItem',
          'GetItem',
          'BatchGetItem',
          'Scan',
          'Query',
          'BatchWriteItem',
          'TransactWriteItems',
          'TransactGetItems',
          'ExecuteTransaction',
          'BatchExecuteStatement',
          'ExecuteStatement',
        ],
      },
    },
    source: {
      page: 'DynamoDB Developer Guide, "DynamoDB Metrics and dimensions"',
      url: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html',
      read: READ,
    },
  },
  {
    namespace: 'AWS/DynamoDB',
    metrics: [
      'ConsumedReadCapacityUnits',
      'ReadKeyRangeThroughputThrottleEvents',
      'ReadMaxOnDemandThroughputThrottleEvents',
      'ReadAccountLimitThrottleEvents',
    ],
    // TableName alone: the table's, not its indexes'; with GlobalSecondaryIndexName: that index's.
    dimensionSets: [['TableName'], ['TableName', 'GlobalSecondaryIndexName']],
    values: {
      TableName: { ref: 'AWS::DynamoDB::Table' },
      GlobalSecondaryIndexName: { property: ['AWS::DynamoDB::Table', 'GlobalSecondaryIndexes[].IndexName'] },
    },
    source: {
      page: 'DynamoDB Developer Guide, "DynamoDB Metrics and dimensions"',
      url: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html',
      read: READ,
    },
  },
  {
    namespace: 'AWS/Usage',
    metrics: ['CallCount'],
    dimensionSets: [['Service', 'Type', 'Resource']],
    values: {
      Service: { literal: ['Cognito user pool'] },
      Type: { literal: ['API'] },
      // "The only valid value is category name": the quotas page's categories of user pool operations.
      Resource: { literal: ['ClientAuthentication'] },
    },
    source: {
      page: 'Amazon Cognito Developer Guide, "Dimensions for Amazon Cognito user pools" (now part of "User pool metrics in CloudWatch")',
      url: 'https://docs.aws.amazon.com/cognito/latest/developerguide/dimensions-for-cognito-user-pools.html',
      read: READ,
      note:
        'The page says Cognito does not use the Class dimension, which CloudWatch’s own usage metrics set to None ' +
        '(CloudWatch User Guide, "CloudWatch usage metrics"): a metric with Class would not match these. The ' +
        'category ClientAuthentication (client-credentials token requests) is from the quotas page ' +
        '(https://docs.aws.amazon.com/cognito/latest/developerguide/quotas.html), whose stored copy read here ' +
        'predates it. An account confirms both: aws cloudwatch list-metrics --namespace AWS/Usage ' +
        '--dimensions Name=Service,Value="Cognito user pool".',
    },
  },
];
