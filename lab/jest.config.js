// The lab's tests: its commands' smoke runs, its models, and the figures the docs quote tied to its
// reference outputs. Same transform as the product's suite (../jest.config.js), no synth server.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }] },
  maxWorkers: 2,
  workerIdleMemoryLimit: '512MB',
  testTimeout: 120000,
};
