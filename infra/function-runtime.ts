// How the function runs (memory, timeout, Node options): one place for the stack, the local
// server's Lambda context and the benchmark, so what is measured is what deploys.

/** CPU scales with memory, and the cold start (SDK load, first JWKS fetch) is CPU-bound. */
export const FUNCTION_MEMORY_MB = 1024;
/**
 * The SDK gives up on DynamoDB after about 7 s (3 attempts) and on the JWKS after about 3 s
 * (2 attempts), so an outage answers 503 well inside this instead of timing out.
 */
export const FUNCTION_TIMEOUT_SECONDS = 15;

/** The bundle ships a source map: stack traces in the logs point at the TypeScript. */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';
