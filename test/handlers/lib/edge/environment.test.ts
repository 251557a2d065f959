// The edge's variable as the function reads and the stack writes it (BEHIND_EDGE, through the one
// config reader and the one writer), and its middleware only when the variable turns it on.

import { describe, expect, it } from '@jest/globals';
import { ConfigError, readConfig } from '../../../../handlers/lib/config.ts';
import { BEHIND_EDGE } from '../../../../handlers/lib/edge/environment.ts';
import { edgeViewerRequest } from '../../../../handlers/lib/edge/viewer-request.ts';
import { functionEnvironment } from '../../../../handlers/lib/environment.ts';
import { MINIMAL_FUNCTION_ENV } from '../../../helpers/function-env.ts';

const base = MINIMAL_FUNCTION_ENV;

describe('BEHIND_EDGE', () => {
  it('reads the caller’s headers as the edge forwards them only when BEHIND_EDGE=true', () => {
    expect(readConfig(base).behindEdge).toBe(false);
    expect(readConfig({ ...base, [BEHIND_EDGE]: 'false' }).behindEdge).toBe(false);
    expect(readConfig({ ...base, [BEHIND_EDGE]: 'true' }).behindEdge).toBe(true);
  });

  // Behind the edge Authorization holds CloudFront's signature: a misspelt value must not pick the header.
  it.each(['TRUE', '1', 'yes', ' true', 'true\n'])('refuses to start with BEHIND_EDGE=%j, naming it', (value) => {
    expect(() => readConfig({ ...base, [BEHIND_EDGE]: value })).toThrow(
      new ConfigError(`BEHIND_EDGE must be true or false, got ${JSON.stringify(value)}`),
    );
  });

  it.each([true, false])('is written as the function reads it back: %s', (edge) => {
    expect(functionEnvironment({ behindEdge: edge })).toEqual({ [BEHIND_EDGE]: String(edge) });
    expect(readConfig({ ...base, ...functionEnvironment({ behindEdge: edge }) }).behindEdge).toBe(edge);
  });

  it('adds the edge’s middleware to the handler only when it is on', () => {
    expect(edgeViewerRequest(readConfig(base).behindEdge)).toEqual([]);
    const behind = edgeViewerRequest(readConfig({ ...base, [BEHIND_EDGE]: 'true' }).behindEdge);
    expect(behind).toHaveLength(1);
    expect(behind[0]?.before?.name).toBe('edgeViewerRequestBefore');
    expect(behind[0]?.after?.name).toBe('edgeViewerRequestAfter');
  });
});
