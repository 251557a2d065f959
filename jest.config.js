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
  // Only a hang-catcher (docs/testing.md, "Time"): a test that never ends fails by name here instead
  // of holding the run until CI's job timeout. No verdict depends on the machine's speed, so this must
  // be past any healthy test or hook on a starved runner: the slowest took about 5 minutes on 2 cores
  // at load 35 (20 to 30 s idle). No test or hook sets a timeout of its own.
  testTimeout: 900_000,
};
