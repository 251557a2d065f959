// Jest runs the TypeScript sources as native ES modules (Middy 7 is ESM-only), compiled by SWC.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }] },
  collectCoverageFrom: ['handlers/**/*.ts'],
  coverageReporters: ['text-summary', 'text'],
  coverageThreshold: { './handlers/': { lines: 90 } },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // Three workers on two cores: much of the suite's file time is waiting (the timeouts and retries
  // it checks, child processes starting), which a third worker fills (docs/testing.md). Each is
  // replaced once a file leaves it above 512 MB: a vm-modules worker never gives memory back, and
  // one that has run many files runs the next 10-30x slower.
  maxWorkers: 3,
  workerIdleMemoryLimit: '512MB',
  // Generous: a test's own waits are the code's deadlines (docs/testing.md); this only stops a hang,
  // and must not fail a busy machine's run (three suites side by side and a server: load ~15).
  testTimeout: 120_000,
};
