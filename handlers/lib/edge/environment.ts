// The opt-in edge's names inside the function: the variable that says the function is reached only
// through it, and the headers its viewer-request function writes (infra/edge/viewer-function.ts)
// and its middleware reads (viewer-request.ts).

/** Set by the stack with -c edge=true (infra/edge/edge.ts writes it through functionEnvironment). */
export const BEHIND_EDGE = 'BEHIND_EDGE';

/**
 * Set (or removed) by the edge's viewer-request function on every request, whatever the caller
 * sent under these names, so a caller can't forge them.
 */
export const EDGE_HEADERS = {
  authorization: 'x-plant-store-authorization',
  viewerHost: 'x-plant-store-viewer-host',
} as const;
