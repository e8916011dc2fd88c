import { createRequire } from 'node:module';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * The suite runs on vitest with one module graph per worker (`isolate: false`): a test file's
 * imports (the whole server, its GraphQL schema, the OpenAPI document and its validators) are loaded
 * once per worker, not once per file, which under jest cost about 2.7 s of CPU for every one of a
 * hundred files (docs/decisions.md). That holds because no module of src keeps state about one
 * database or one app: caches live on the app's objects. Each test file still gets its own database
 * and its own server (test/support/harness.ts).
 */

/** The suites of checkout's rules, run a second time against the other order writer (CHECKOUT_WRITER). */
const CHECKOUT_SUITES = ['checkout', 'flash-sale-checkout', 'coupons', 'group-buy-lifecycle', 'faults', 'inventory', 'shop-states'];

/**
 * Suites that measure time on a wall clock: the server under a load they make themselves (a sign-in
 * flood, a held pool), the sign-in limits' windows and bounds, a frozen database's deadlines (a
 * readiness probe once took 3.3 s beside a browser suite) and Lighthouse's budgets. Beside
 * another suite their figures measured the neighbours (a known device's sign-in 1.0x to 2.8x its quiet
 * time; Lighthouse's Performance 55-82 against 87-94 alone), so `npm test` runs them after the rest,
 * one file at a time. Every other suite waits for conditions, never for a clock.
 */
const TIMING_SUITES = ['login-flood', 'bounded-waits', 'auth-throttle-timing', 'database-freeze', 'lighthouse'];

const files = (names: string[]) => names.map((name) => `test/${name}.test.ts`);

/**
 * What every project shares. `expect.poll` waits for a condition; its own default gives up after one
 * second, which a browser page on a loaded CI machine can outlast (two console tables did), so it gets
 * the same patience as Playwright's own waits.
 */
const shared = {
  extends: true,
  test: { globals: true, pool: 'forks', isolate: false, testTimeout: 60_000, hookTimeout: 60_000, expect: { poll: { timeout: 30_000 } } },
} as const;

const projects: TestProjectInlineConfiguration[] = [
  { ...shared, test: { ...shared.test, name: 'default', include: ['test/**/*.test.ts'], exclude: files(TIMING_SUITES) } },
  { ...shared, test: { ...shared.test, name: 'transactional writer', include: files(CHECKOUT_SUITES), provide: { checkoutWriter: 'transactional' } } },
  { ...shared, test: { ...shared.test, name: 'timing, alone', include: files(TIMING_SUITES), fileParallelism: false } },
];

export default defineConfig({
  resolve: {
    // One graphql for everything: type-graphql requires its CommonJS entry, so src must not get the .mjs one.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  // type-graphql and MikroORM read the types of decorated fields (design:type) at run time.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: { maxWorkers: 2, projects },
});
