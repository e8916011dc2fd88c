import { graphql } from '../gql';
import type { PricedItemFieldsFragment } from '../gql/graphql';
import { Money } from '../money/currency-context';

/**
 * A cart line's units as checkout prices them (`checkoutPreview`): a flash-sale line may be split
 * into units at the activity price (up to the customer's limit and the activity's stock) and a
 * remainder at the standard price. The cart and the checkout show these parts, so each line's total
 * is what the totals add up.
 */
export const PricedItemFields = graphql(`
  fragment PricedItemFields on CheckoutPreviewItem {
    skuId
    unitPrice
    quantity
    pricing
  }
`);

export type PricedPart = Pick<PricedItemFieldsFragment, 'unitPrice' | 'quantity' | 'pricing'>;

/** The priced parts of each SKU over a preview's shop orders. */
export function partsBySku(orders: readonly { items: readonly PricedItemFieldsFragment[] }[]): Map<number, PricedPart[]> {
  const parts = new Map<number, PricedPart[]>();
  for (const item of orders.flatMap((order) => order.items)) parts.set(item.skuId, [...(parts.get(item.skuId) ?? []), item]);
  return parts;
}

/** A line with no priced parts (no preview yet, or it was refused): every unit at the standard price. */
export const standardParts = (line: { unitPrice: number; quantity: number }): PricedPart[] => [{ unitPrice: line.unitPrice, quantity: line.quantity, pricing: 'STANDARD' }];

export const partsTotal = (parts: readonly PricedPart[]): number => parts.reduce((sum, part) => sum + part.unitPrice * part.quantity, 0);

/**
 * The unit prices of a line: the standard price alone, or each part with its count, a flash-sale
 * part in the accent colour beside the standard price it replaces.
 */
export function PricedUnits({ parts, standardPrice }: { parts: readonly PricedPart[]; standardPrice: number }) {
  if (parts.every((part) => part.pricing === 'STANDARD') && parts.length <= 1) return <Money amount={parts[0]?.unitPrice ?? standardPrice} />;
  return (
    <span className="priced-units">
      {parts.map((part) => (
        <span key={part.pricing} className={part.pricing === 'FLASH_SALE' ? 'priced-part flash' : 'priced-part'}>
          {part.pricing === 'FLASH_SALE' ? (
            <>
              <Money amount={part.unitPrice} className="money price-now" /> <s><Money amount={standardPrice} /></s> <span className="badge">Flash sale</span>
            </>
          ) : (
            <Money amount={part.unitPrice} />
          )}{' '}
          × {part.quantity}
        </span>
      ))}
    </span>
  );
}
