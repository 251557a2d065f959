// When the Tracer (and aws-xray-sdk-core, with its per-invocation async-hooks tax) is loaded:
// exactly where Powertools itself would trace.

import { describe, expect, it } from '@jest/globals';
import { tracingEnabled } from '../../../handlers/lib/config.ts';

const LAMBDA = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' };

describe('tracingEnabled', () => {
  it('traces on Lambda by default', () => {
    expect(tracingEnabled(LAMBDA)).toBe(true);
  });

  it('does not trace outside Lambda (local server, tests, benchmark without tracing)', () => {
    expect(tracingEnabled({})).toBe(false);
  });

  it('does not trace when POWERTOOLS_TRACE_ENABLED is false, in any case', () => {
    expect(tracingEnabled({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'FALSE' })).toBe(false);
  });

  it('does not trace under sam local or the Amplify mock', () => {
    expect(tracingEnabled({ ...LAMBDA, AWS_SAM_LOCAL: 'true' })).toBe(false);
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_amplify-mock' })).toBe(false);
  });
});
