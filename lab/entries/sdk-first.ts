// Stand-in for handlers/lib/warm-up.ts in the "SDK loaded first" variant: importing the DynamoDB client
// statically loads and compiles the SDK before list-plants.ts starts the JWKS fetch (as before issue 41).

import '../../handlers/lib/dynamodb-client.ts';

export * from '../../handlers/lib/warm-up.ts';
