import type { ServiceContext } from '../shared/context.js';
import { refusalOf, type UserErrorValue } from '../graphql/user-errors.js';
import type { PayloadClass } from './types/payload.types.js';

/** A payload as a mutation resolves it: its result (null when refused) and its user errors, twice typed. */
export type PayloadValue<K extends string, T> = { [P in K]: T | null } & { userErrors: UserErrorValue[]; errors: UserErrorValue[] };

const filled = <K extends string, T>(key: K, result: T | null, userErrors: UserErrorValue[]) =>
  ({ [key]: result, userErrors, errors: userErrors }) as PayloadValue<K, T>;

/**
 * Runs a mutation's one service call and fills its payload: the result, or the user errors of a
 * business refusal (the rule is `refusalOf`'s). Anything else (the caller's token or role, faults)
 * is thrown on, to the top-level `errors`. The one place where a mutation's answer is shaped.
 */
export async function answer<K extends string, T>(ctx: ServiceContext, payload: PayloadClass<K>, work: () => Promise<T>): Promise<PayloadValue<K, T>> {
  try {
    return filled(payload.resultKey, await work(), []);
  } catch (error) {
    const userErrors = refusalOf(error, ctx.log);
    if (!userErrors) throw error;
    // A code the mutation's enum does not name is a use case whose `refusals` list lacks it
    // (test/refusals.test.ts): answered top-level with its code rather than failing the payload.
    const undeclared = userErrors.find((e) => !payload.codes.has(e.code));
    if (undeclared) {
      ctx.log.error({ code: undeclared.code, payload: payload.name }, 'a mutation refused with a code its payload does not declare');
      throw error;
    }
    return filled<K, T>(payload.resultKey, null, userErrors);
  }
}
