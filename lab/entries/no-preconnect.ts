// Stand-in for handlers/lib/dynamodb-connection.ts in the "no pre-connect" variant: DynamoDB's
// connection is opened by the SDK's first request (the init warm-up), once the SDK has loaded.

export const connectDynamodb = (): undefined => undefined;
