/** Jest runs the TypeScript sources as ES modules (MikroORM 7 is ESM only). */
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

/** The suites of checkout's rules, run a second time against the other order writer (CHECKOUT_WRITER). */
const CHECKOUT_SUITES = ['checkout', 'flash-sale-checkout', 'coupons', 'group-buy-lifecycle', 'faults', 'inventory'];

export default {
  projects: [
    { ...shared, displayName: 'default', testMatch: ['<rootDir>/test/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'transactional writer',
      testMatch: CHECKOUT_SUITES.map((name) => `<rootDir>/test/${name}.test.ts`),
      setupFiles: ['<rootDir>/test/support/transactional-writer.ts'],
    },
  ],
  testTimeout: 60000,
  maxWorkers: 2,
};
