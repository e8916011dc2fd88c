import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by the vitest project "transactional writer" (vitest.config.ts). */
    checkoutWriter?: 'combined' | 'transactional';
  }
}

/**
 * The order writer this test file's servers use (CHECKOUT_WRITER): the "transactional writer"
 * project runs checkout's suites a second time with the other writer.
 */
export function checkoutWriter(): 'combined' | 'transactional' {
  return inject('checkoutWriter') ?? 'combined';
}
