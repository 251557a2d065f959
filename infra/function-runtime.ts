// How the function runs (memory, timeout, Node options), for the stack, the local server and the lab.

/**
 * The default of `-c memoryMb`: the CPU-bound cold start stays near the measured 100 ms of init, where 512 MB
 * doubles it, for $0.08 more per million (lab/docs/cost.md). Lambda takes 128 to 10,240.
 */
export const FUNCTION_MEMORY_MB = 1024;
export const FUNCTION_MEMORY_RANGE_MB = [128, 10_240] as const;
/** DynamoDB's work ends at its deadline (DYNAMODB_DEADLINE_MS, 3 s), the JWKS fetch after ~3 s: an outage answers 503 well inside this. */
export const FUNCTION_TIMEOUT_SECONDS = 15;

/** Source maps cost 11–16 ms of every cold start (bench:variants), so they are asked for: -c sourceMaps=true. */
export const SOURCE_MAPS_NODE_OPTIONS = '--enable-source-maps';

/** NODE_OPTIONS of the function; none unless source maps are asked for. */
export const functionNodeOptions = (sourceMaps: boolean): Record<string, string> =>
  sourceMaps ? { NODE_OPTIONS: SOURCE_MAPS_NODE_OPTIONS } : {};
