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

/**
 * Suites that measure time on a wall clock: the server under a load they make themselves (a sign-in
 * flood, a held pool), the sign-in limits' windows and bounds, and Lighthouse's budgets. Beside
 * another suite their figures measured the neighbours (a known device's sign-in 1.0x to 2.8x its quiet
 * time; Lighthouse's Performance 55-82 against 87-94 alone), so `npm test` runs them after the rest,
 * one file at a time (`--selectProjects 'timing, alone' --runInBand`). Every other suite waits for
 * conditions, never for a clock.
 */
const TIMING_SUITES = ['login-flood', 'bounded-waits', 'auth-throttle-timing', 'lighthouse'];

export default {
  projects: [
    {
      ...shared,
      displayName: 'default',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...TIMING_SUITES.map((name) => `/test/${name}\\.test\\.ts$`)],
    },
    { ...shared, displayName: 'timing, alone', testMatch: TIMING_SUITES.map((name) => `<rootDir>/test/${name}.test.ts`) },
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
