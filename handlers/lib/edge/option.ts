// The opt-in edge as one of the function's options (handlers/lib/options.ts): BEHIND_EDGE, and the
// middleware that restores the caller's headers when it is true.

import type { FunctionOption } from '../function-option.ts';
import { BEHIND_EDGE, readBehindEdge } from './environment.ts';
import { edgeViewerRequest } from './viewer-request.ts';

export const EDGE: FunctionOption<boolean> = {
  variable: BEHIND_EDGE,
  read: readBehindEdge,
  accepts: 'true or false',
  write: String,
  middlewares: edgeViewerRequest,
};
