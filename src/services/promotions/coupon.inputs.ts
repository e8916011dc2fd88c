/**
 * A coupon template's terms, as the service parses them (coupon.service.ts) and the shop console's
 * form checks them as they are typed. The discount kinds and statuses are the entities' enums on the
 * server, which the web app cannot import: both pass their spellings in (the web app
 * `COUPON_SPELLINGS`, which the service holds equal to the enums at compile time).
 */
import { dateTime, id, money, onceFieldsFit, quantity, NOT_BLANK, z } from '../../shared/input-rules.js';

/** The internal spellings of a discount kind and a template status (the entities' enum values). */
export const COUPON_SPELLINGS = {
  kinds: { Fixed: 'fixed', Percent: 'percent' },
  statuses: { Active: 'active', Disabled: 'disabled' },
} as const;

/** The message for a field a discount kind needs when it is left out (or null). */
type Needed = { error: (issue: { input?: unknown }) => string | undefined };
const needed = (message: string): Needed => ({ error: (issue) => (issue.input == null ? message : undefined) });
const positiveMoney = (params?: Needed) => z.number(params).int().min(1, 'must be a positive amount in minor units').max(2_000_000_000);
const percent = (params?: Needed) => z.number(params).int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100');
/** A field the other discount kind has: left out or null. */
const otherKinds = (message: string) => z.null({ error: message }).optional();

/** `Terms` (a new template) and `Patch` (some terms of one), over these spellings of the kinds and statuses. */
export function couponTermsSchemas<K extends { Fixed: string; Percent: string }, S extends { Active: string; Disabled: string }>(kinds: K, statuses: S) {

  const TermFields = {
    name: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(120),
    discountKind: z.enum(kinds),
    amountOff: positiveMoney().nullish(),
    percentOff: percent().nullish(),
    maxDiscount: positiveMoney().nullish(),
    minOrderAmount: money,
    validFrom: dateTime.nullish(),
    validUntil: dateTime.nullish(),
    validDays: z.number().int().min(1).max(3650).nullish(),
    claimStock: quantity,
    status: z.enum(statuses),
  };

  // Active is one of the statuses; TypeScript cannot tell through the generic, hence the cast.
  const CommonTerms = { ...TermFields, minOrderAmount: money.default(0), status: TermFields.status.default(statuses.Active as never) };

  /**
   * The terms of a template, one form per discount kind (`discount_kind` tells which): `fixed` takes
   * `amount_off`, `percent` takes `percent_off` and an optional cap `max_discount`. The validity
   * window is either `valid_from` and `valid_until`, or `valid_days` from the claim.
   */
  const Terms = z
    .discriminatedUnion('discountKind', [
      z.strictObject({
        ...CommonTerms,
        discountKind: z.literal<K['Fixed']>(kinds.Fixed),
        amountOff: positiveMoney(needed('a fixed discount needs amount_off')),
        percentOff: otherKinds('percent_off belongs to a percent discount'),
        maxDiscount: otherKinds('max_discount caps a percent discount only'),
      }),
      z.strictObject({
        ...CommonTerms,
        discountKind: z.literal<K['Percent']>(kinds.Percent),
        percentOff: percent(needed('a percent discount needs percent_off')),
        amountOff: otherKinds('amount_off belongs to a fixed discount'),
      }),
    ])
    .superRefine((t, issue) => {
      const problem = (path: string, message: string) => issue.addIssue({ code: 'custom', path: [path], message });
      if (t.validDays != null) {
        if (t.validFrom != null || t.validUntil != null) problem('validDays', 'give either valid_days or valid_from and valid_until, not both');
      } else if (t.validFrom == null || t.validUntil == null) {
        problem(t.validFrom == null ? 'validFrom' : 'validUntil', 'give valid_from and valid_until, or valid_days');
      } else if (t.validUntil <= t.validFrom) {
        problem('validUntil', 'the window must end after it starts');
      }
    }, onceFieldsFit);

  const Patch = z.object(TermFields).partial().extend({ templateId: id }).strict();

  return { Terms, Patch };
}
