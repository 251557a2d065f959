// The lab's tests: its commands' smoke runs, its models, and the figures the docs quote tied to its
// reference outputs. The product's transform and timeouts (../jest.config.js), without its coverage
// and its synth server.
import product from '../jest.config.js';

const { globalSetup, globalTeardown, collectCoverageFrom, coverageThreshold, coverageReporters, ...shared } = product;

export default { ...shared, maxWorkers: 2 };
