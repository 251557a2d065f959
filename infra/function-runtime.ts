// How the function runs (memory, timeout, Node options), for the stack, the local server and the lab.

/**
 * The default of `-c memoryMb`: Lambda gives a function CPU in proportion to its memory, and the
 * cold start is CPU-bound, so 1,024 MB keeps it near the measured 108 ms where 512 MB would double
 * it, for $0.08 more per million (lab/docs/cost.md, "The function's memory"). Lambda takes 128 to 10,240.
 */
export const FUNCTION_MEMORY_MB = 1024;
export const FUNCTION_MEMORY_RANGE_MB = [128, 10_240] as const;
/**
 * The SDK gives up on DynamoDB after about 7 s (3 attempts) and on the JWKS after about 3 s
 * (2 attempts), so an outage answers 503 well inside this instead of timing out.
 */
export const FUNCTION_TIMEOUT_SECONDS = 15;

/**
 * The bundle ships a source map, but Node reads it only with --enable-source-maps, which costs
 * 11–16 ms of every cold start (bench:variants). So it is asked for (`-c sourceMaps=true`) rather
 * than on by default: logged stack traces then point at the TypeScript instead of the bundle.
 */
export const SOURCE_MAPS_NODE_OPTIONS = '--enable-source-maps';

/** NODE_OPTIONS of the function; none unless source maps are asked for. */
export const functionNodeOptions = (sourceMaps: boolean): Record<string, string> =>
  sourceMaps ? { NODE_OPTIONS: SOURCE_MAPS_NODE_OPTIONS } : {};
