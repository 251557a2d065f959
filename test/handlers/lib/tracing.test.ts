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

  it('does not trace when POWERTOOLS_TRACE_ENABLED is false', () => {
    expect(tracingEnabled({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(false);
    expect(tracingEnabled({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: '' })).toBe(true);
  });

  // Powertools would read "FALSE" and " false" as false, and "0" as true: only what both read alike passes.
  it.each(['FALSE', ' false', '0'])('refuses POWERTOOLS_TRACE_ENABLED=%j rather than guess', (value) => {
    expect(() => tracingEnabled({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: value })).toThrow(
      `POWERTOOLS_TRACE_ENABLED must be true or false, got ${JSON.stringify(value)}`,
    );
  });

  it('does not trace under sam local or the Amplify mock', () => {
    expect(tracingEnabled({ ...LAMBDA, AWS_SAM_LOCAL: 'true' })).toBe(false);
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_amplify-mock' })).toBe(false);
  });
});
