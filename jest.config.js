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
  testTimeout: 30000,
};
