import { graphql } from '../gql';
import type { DiscountKind } from '../gql/graphql';
import { Money } from '../money/currency-context';
import { formatDate } from './dates';

/** A held coupon's terms and shop, as the account and coupons pages list them. */
export const HeldCouponFields = graphql(`
  fragment HeldCouponFields on Coupon {
    id
    name
    status
    discountKind
    amountOff
    percentOff
    maxDiscount
    minOrderAmount
    validUntil
    shop {
      slug
      name
    }
  }
`);

export interface CouponTermsData {
  name: string;
  discountKind: DiscountKind;
  amountOff?: number | null;
  percentOff?: number | null;
  maxDiscount?: number | null;
  minOrderAmount: number;
  validUntil?: string | null;
  validDays?: number | null;
}

/** A coupon's or template's terms in words: "¥10.00 off orders from ¥100.00, valid until ...". */
export function CouponTerms({ coupon }: { coupon: CouponTermsData }) {
  return (
    <>
      <strong>{coupon.name}</strong>
      <p>
        {coupon.discountKind === 'FIXED' ? (
          <>
            <Money amount={coupon.amountOff ?? 0} /> off
          </>
        ) : (
          <>
            {coupon.percentOff}% off
            {coupon.maxDiscount ? (
              <>
                {' '}
                (at most <Money amount={coupon.maxDiscount} />)
              </>
            ) : null}
          </>
        )}
        {coupon.minOrderAmount > 0 ? (
          <>
            {' '}
            on orders from <Money amount={coupon.minOrderAmount} />
          </>
        ) : null}
      </p>
      <p className="meta">
        {coupon.validUntil ? <>Valid until {formatDate(coupon.validUntil)}</> : coupon.validDays ? <>Valid {coupon.validDays} days from claiming</> : null}
      </p>
    </>
  );
}
